import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './support/paths.js';

const imports = (file: string) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^(?:import|export)\b[^;]*?from '([^']+)'/gms)].map((m) => m[1]!);
const sources = (dir: string) => readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.ts')).map((f) => `${dir}/${f}`);

test('core/ :: imports no node: module and nothing outside core but its small dependencies', () => {
  const allowed = new Set(['negotiator', 'content-type', 'secure-json-parse', 'leven']);
  for (const file of sources('core')) {
    for (const name of imports(file)) {
      assert.ok(name.startsWith('./') || allowed.has(name), `${file} imports ${name}`);
    }
  }
});

test('adapters/ :: never import polka: the app brings its own', () => {
  for (const file of sources('adapters')) {
    assert.not.ok(imports(file).includes('polka'), `${file} imports polka`);
  }
});

test.run();
