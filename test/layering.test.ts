import { readdirSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './support/paths.js';

const imports = (file: string) =>
  [
    ...readFileSync(join(ROOT, file), 'utf8').matchAll(
      /^(?:import|export)\b[^;]*?\bfrom '([^']+)'|^import '([^']+)'/gm,
    ),
  ].map((m) => (m[1] ?? m[2])!);
/** Every `.ts` file under `dir`, subfolders included, as a path from the root. */
const sources = (dir: string) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${dir}/${f}`);

/** Every module a source file loads, following relative imports, as `.ts` paths and package names. */
function reach(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const name of imports(file)) {
    if (name.startsWith('.')) reach(normalize(join(file, '..', name)).replace(/\.js$/, '.ts'), seen);
    else seen.add(name);
  }
  return seen;
}

test('core/ :: imports no node: module and no package but its small dependencies', () => {
  // @standard-schema/spec is types only: nothing of it is loaded at run time.
  const allowed = new Set([
    'negotiator',
    'content-type',
    'secure-json-parse',
    'leven',
    '@standard-schema/spec',
  ]);
  const controllers = new Set(['reflect-metadata', 'tsyringe']);
  for (const file of sources('core')) {
    // The folder is the rule: only what sits in core/controllers/ may use the decorator packages.
    const inControllers = file.startsWith('core/controllers/');
    for (const name of imports(file)) {
      if (name.startsWith('.')) {
        const target = normalize(join(file, '..', name));
        assert.ok(target.startsWith('core/'), `${file} imports ${name}, outside core/`);
        assert.ok(
          inControllers || !target.startsWith('core/controllers/'),
          `${file} imports ${name}, from core/controllers/`,
        );
      } else {
        assert.ok(allowed.has(name) || (inControllers && controllers.has(name)), `${file} imports ${name}`);
      }
    }
  }
});

test('sevenfold, sevenfold/node, sevenfold/polka :: load neither polka, tsyringe, reflect-metadata nor core/controllers/', () => {
  assert.ok(reach('core/index.ts').has('leven'), 'reach() follows imports');
  assert.ok(reach('adapters/node.ts').has('secure-json-parse'), 'reach() follows imports');
  assert.ok(reach('core/controllers/index.ts').has('tsyringe'), 'reach() follows imports');
  assert.ok(
    reach('core/controllers/index.ts').has('core/controllers/decorators.ts'),
    'reach() follows imports',
  );
  for (const entry of ['core/index.ts', 'adapters/node.ts', 'adapters/polka.ts']) {
    const loaded = [...reach(entry)];
    for (const name of ['polka', 'tsyringe', 'reflect-metadata']) {
      assert.not.ok(loaded.includes(name), `${entry} loads ${name}`);
    }
    const layer = loaded.find((file) => file.startsWith('core/controllers/'));
    assert.is(layer, undefined, `${entry} loads ${layer}`);
  }
});

test('sevenfold/controllers :: imports reflect-metadata first, before tsyringe', () => {
  const list = imports('core/controllers/index.ts');
  assert.is(list[0], 'reflect-metadata');
  assert.ok(list.indexOf('tsyringe') > 0);
});

test.run();
