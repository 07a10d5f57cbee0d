import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiReport, entries, exportsOf } from '../support/api-report.js';
import { ROOT } from '../support/paths.js';

test('docs/api-report.md :: every entry’s exports as checked in; `npm run docs` writes it after a reviewed change', () => {
  const checkedIn = readFileSync(join(ROOT, 'docs', 'api-report.md'), 'utf8');
  assert.fixture(apiReport(), checkedIn);
});

test('sevenfold :: the root entry keeps the declaring vocabulary: no internals, no Fetch global shadowed', () => {
  const root = entries().find((entry) => entry.entry === 'sevenfold')!;
  for (const internal of [
    'compile',
    'tableOf',
    'tableHooks',
    'interpretSerializer',
    'ACTIONS',
    'STATUS_TITLES',
  ])
    assert.not.ok(root.values.includes(internal), `sevenfold exports ${internal}`);
  for (const type of ['Request', 'Headers', 'Response'])
    assert.not.ok(
      root.types.includes(type),
      `sevenfold's ${type} would shadow the Fetch global of that name`,
    );
});

test('exportsOf() :: reads re-exports, declarations and renames, and tells values from types', () => {
  assert.equal(exportsOf('core/http.ts'), {
    values: ['addVary', 'clearCookieLine', 'cookieLine', 'headerKey', 'setHeaders'],
    types: ['CookieOptions'],
  });
  const matcher = exportsOf('core/matcher/index.ts');
  assert.equal(matcher, { values: ['compile'], types: ['Matcher', 'MatcherOptions'] });
});

test.run();
