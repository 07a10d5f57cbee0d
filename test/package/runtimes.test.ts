import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../support/paths.js';
import { needs } from '../support/needs.js';
import { findRuntime, needRuntimes } from '../support/runtimes.js';

// The runtimes the tests use besides this Node come from test/runtimes/, a package of its own:
// a user's `npm install` of sevenfold, or of this repository, never downloads them.

const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const root = read('package.json');
const runtimes = read('test/runtimes/package.json');
const RUNTIME_PACKAGE = /^(bun|deno|node\d*(-.*)?|@oven\/.*|@deno\/.*)$/;

test('runtimes :: the root package installs none of them (nor Hono, Elysia); test/runtimes/ does, with caret ranges', () => {
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    const names = Object.keys(root[field] ?? {}).filter((name) => RUNTIME_PACKAGE.test(name));
    assert.equal(names, [], `root ${field}`);
  }
  assert.is(runtimes.private, true);
  const wanted = runtimes.optionalDependencies as Record<string, string>;
  for (const name of ['bun', 'deno', 'node22-linux-x64', 'node24-linux-x64']) {
    assert.match(wanted[name] ?? '', /(^|@)\^\d/, `${name}: ${wanted[name]}`);
  }
  // What the bench compares toFetch with on them (test/bench/runtimes.ts), never in the root package.
  for (const name of ['hono', 'elysia']) {
    assert.match(runtimes.dependencies?.[name] ?? '', /^\^\d/, `${name}: ${runtimes.dependencies?.[name]}`);
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'])
      assert.is(root[field]?.[name], undefined, `root ${field} has ${name}`);
  }
  // The lock is committed and in step: `npm ci` installs from it.
  const lock = read('test/runtimes/package-lock.json');
  assert.equal(lock.packages[''].optionalDependencies, wanted);
  assert.equal(lock.packages[''].dependencies, runtimes.dependencies);
  assert.match(root.scripts.runtimes, /^npm ci --prefix test\/runtimes /);
});

test('runtimes :: the `node` the tests spawn is the node running them (.ci/run puts its folder first)', () => {
  const spawned = spawnSync('node', ['--version'], { encoding: 'utf8' });
  assert.is(spawned.stdout.trim(), process.version);
});

const installed = needRuntimes(
  ['bun', 'deno', 'node22', 'node24'] as const,
  'the runtimes check (test/package/runtimes.test.ts)',
);

needs(installed, test)(
  'runtimes :: each is found and is the version it is named for, or says why not',
  () => {
    const found = installed.found!;
    assert.match(found.node22.version, /^v22\./);
    assert.match(found.node24.version, /^v24\./);
    assert.match(found.deno.version, /^deno 2\./);
    assert.match(found.bun.version, /^1\./);
    // A name with no package says so, naming what to run.
    const none = findRuntime('node23' as 'node22');
    assert.type(none, 'string');
    assert.match(none as string, /npm run runtimes/);
  },
);

test.run();
