import { readdirSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './support/paths.js';

const imports = (file: string) =>
  [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^(?:import|export)\b[^;]*?\bfrom '([^']+)'|^import '([^']+)'/gm)].map((m) => (m[1] ?? m[2])!);
const sources = (dir: string) => readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.ts')).map((f) => `${dir}/${f}`);

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
  const allowed = new Set(['negotiator', 'content-type', 'secure-json-parse', 'leven']);
  const controllers = new Set(['reflect-metadata', 'tsyringe']);
  for (const file of sources('core')) {
    for (const name of imports(file)) {
      const ok = name.startsWith('./') || allowed.has(name) || (file === 'core/controllers.ts' && controllers.has(name));
      assert.ok(ok, `${file} imports ${name}`);
    }
  }
});

test('sevenfold, sevenfold/node, sevenfold/polka :: load neither polka, tsyringe nor reflect-metadata', () => {
  assert.ok(reach('core/index.ts').has('leven'), 'reach() follows imports');
  assert.ok(reach('adapters/node.ts').has('secure-json-parse'), 'reach() follows imports');
  assert.ok(reach('core/controllers.ts').has('tsyringe'), 'reach() follows imports');
  for (const entry of ['core/index.ts', 'adapters/node.ts', 'adapters/polka.ts']) {
    const loaded = reach(entry);
    for (const name of ['polka', 'tsyringe', 'reflect-metadata', 'core/controllers.ts', 'core/decorators.ts']) {
      assert.not.ok(loaded.has(name), `${entry} loads ${name}`);
    }
  }
});

test('sevenfold/controllers :: imports reflect-metadata first, before tsyringe', () => {
  const list = imports('core/controllers.ts');
  assert.is(list[0], 'reflect-metadata');
  assert.ok(list.indexOf('tsyringe') > 0);
});

test.run();
