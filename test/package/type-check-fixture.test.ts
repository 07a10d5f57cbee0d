import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkProject, honoMissing } from '../bench/type-check.js';
import {
  fixtureResources,
  writeTypesFixture,
  type Fixture,
  type FixtureProject,
} from '../bench/type-check-fixture.js';
import { hidden, need, needs } from '../support/needs.js';

// The benchmark's own fixture, smaller: 16 resources hold every kind it has (top-level, nested one and two
// deep, shallow, with a member or a collection action, each shape of record), and check in seconds.
const COUNT = 16;

const hono = need('the type-check fixture against Hono (test/package/type-check-fixture.test.ts)', [
  hidden('hono') ?? honoMissing(),
]);
const withHono = needs(hono, test);

let fixture: Fixture | undefined;
test.before(() => {
  if (hono.ok) fixture = writeTypesFixture(COUNT);
});
test.after(() => {
  if (fixture !== undefined) rmSync(fixture.dir, { recursive: true, force: true });
});

test('fixtureResources() :: seven routes each, nested, shallow and extra actions among them', () => {
  const resources = fixtureResources(COUNT);
  assert.ok(
    resources.some((r) => r.parent?.parent !== undefined && !r.shallow),
    'two deep',
  );
  assert.ok(
    resources.some((r) => r.shallow && r.parent !== undefined),
    'shallow',
  );
  assert.ok(resources.some((r) => r.extra === 'publish') && resources.some((r) => r.extra === 'search'));
  assert.is(new Set(resources.map((r) => r.shape)).size, 4, 'every shape of record');
  const shallow = resources.find((r) => r.shallow)!;
  assert.is(shallow.member, `/${shallow.name}/:${shallow.param}`);
  assert.ok(shallow.collection.startsWith(`${shallow.parent!.member}/`), shallow.collection);
});

withHono('writeTypesFixture() :: every project compiles with no error, sevenfold and Hono alike', () => {
  assert.is(fixture!.routes, COUNT * 7);
  for (const [name, tsconfig] of Object.entries(fixture!.projects)) {
    try {
      checkProject(tsconfig, false);
    } catch (error) {
      assert.unreachable(`${name}: ${(error as Error).message}`);
    }
  }
});

// Types that are `any` would make the comparison meaningless: each side must refuse a field its answers lack.
withHono('writeTypesFixture() :: the calls are typed: a misspelt field or param fails on both sides', () => {
  const cases = [
    // On the server too: an answer is checked against its status's schema.
    {
      project: 'sevenfold server',
      file: 'sevenfold/resources/r0.ts',
      from: 'json({ missing:',
      to: 'json({ mising:',
    },
    { project: 'sevenfold server + client', file: 'sevenfold/client.ts', from: '.title)', to: '.titel)' },
    // paths() returns strings: a misspelt param is what it can refuse.
    {
      project: 'sevenfold server + paths()',
      file: 'sevenfold/paths.ts',
      from: "r0_post_id: '1'",
      to: "r0_postid: '1'",
    },
    { project: 'hono server + hc', file: 'hono/client.ts', from: '.title)', to: '.titel)' },
  ] as const satisfies readonly { project: FixtureProject; file: string; from: string; to: string }[];
  for (const { project, file, from, to } of cases) {
    const path = join(fixture!.dir, file);
    const source = readFileSync(path, 'utf8');
    assert.ok(source.includes(from), `${file} has ${from}`);
    writeFileSync(path, source.replace(from, to));
    try {
      assert.throws(() => checkProject(fixture!.projects[project], false), /error TS2\d+/, project);
    } finally {
      writeFileSync(path, source);
    }
  }
});

test.run();
