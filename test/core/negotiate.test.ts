import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { html, json, negotiate, Result, trustedHtml } from '../../core/index.js';

const CHROME = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const representations = {
  'application/json': () => ({ id: 1 }),
  'text/html': () => html`<p>1</p>`,
};

test('negotiate :: the representation Accept prefers, by q-value and specificity; the first otherwise', () => {
  const cases: Array<[string | undefined, 'json' | 'html']> = [
    [undefined, 'json'],
    ['*/*', 'json'],
    ['', 'json'],
    [CHROME, 'html'],
    ['text/html', 'html'],
    ['text/*', 'html'],
    ['application/json', 'json'],
    ['application/*', 'json'],
    ['text/html;q=0.5, application/json', 'json'],
    ['application/json;q=0.1, text/html;q=0.2', 'html'],
    ['text/html;q=0, */*', 'json'],
    ['image/png', 'json'],
    ['application/json;q=0, text/html;q=0', 'json'],
  ];
  for (const [accept, kind] of cases) {
    const result = negotiate({ headers: { accept } }, representations);
    assert.is(result.kind, kind, String(accept));
  }
});

test('negotiate :: every answer has Vary: Accept, added to a Vary the representation set', () => {
  assert.equal(negotiate({ headers: {} }, representations).headers, { Vary: 'Accept' });
  const withVary = negotiate(
    { headers: { accept: 'application/json' } },
    { 'application/json': () => json({}, 200, { vary: 'Origin' }) },
  );
  assert.equal(withVary.headers, { Vary: 'Origin, Accept' });
  const already = negotiate({ headers: {} }, { 'application/json': () => json({}, 200, { Vary: 'accept' }) });
  assert.equal(already.headers, { Vary: 'accept' });
});

test('negotiate :: a Result is kept (status included), undefined is 204; html must be Html or a Result', () => {
  const created = negotiate(
    { headers: { accept: 'text/html' } },
    { 'text/html': () => html(trustedHtml('<p>x</p>'), 201) },
  );
  assert.ok(created instanceof Result);
  assert.is(created.status, 201);
  assert.is(negotiate({ headers: {} }, { 'application/json': () => undefined }).status, 204);
  assert.throws(
    () => negotiate({ headers: { accept: 'text/html' } }, { 'text/html': () => '<p>' }),
    /must give Html/,
  );
  assert.throws(() => negotiate({ headers: {} }, {}), /at least one representation/);
});

test.run();
