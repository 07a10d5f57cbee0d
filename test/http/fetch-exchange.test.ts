// The Web-standard shell's own parts: body reads under the limit, declared or streamed, and answer lengths.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resource } from '../../core/index.js';
import { toFetch } from '../../adapters/fetch.js';
import { utf8Length } from '../../adapters/web/fetch-exchange.js';
import { ROOT } from '../support/paths.js';
import { needs } from '../support/needs.js';
import { needRuntimes } from '../support/runtimes.js';

const notes = resource('notes', { create: (req, res) => res.created('/notes/1', { got: req.body ?? null }) });
const handler = toFetch(notes, { bodyLimit: 16 });
const post = (body: BodyInit, headers: Record<string, string>) =>
  handler(new Request('http://x/notes', { method: 'POST', headers, body, duplex: 'half' } as RequestInit));

test('toFetch :: a body of declared length is read whole, and refused past bodyLimit', async () => {
  const ok = await post('{"a":"12345"}', { 'content-type': 'application/json', 'content-length': '13' });
  assert.is(ok.status, 201);
  assert.equal(await ok.json(), { got: { a: '12345' } });
  const big = await post('{"a":"1234567890123"}', {
    'content-type': 'application/json',
    'content-length': '21',
  });
  assert.is(big.status, 413);
});

test('toFetch :: a body of no declared length is streamed, and cut past bodyLimit', async () => {
  const stream = (text: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of text.match(/.{1,4}/g) ?? []) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
  const ok = await post(stream('{"a":"12345"}'), { 'content-type': 'application/json' });
  assert.is(ok.status, 201);
  assert.equal(await ok.json(), { got: { a: '12345' } });
  const big = await post(stream('{"a":"1234567890123"}'), { 'content-type': 'application/json' });
  assert.is(big.status, 413);
});

test('toFetch :: a body is strict UTF-8: a U+FFFD it holds is kept, bytes that are not UTF-8 are a 400, a BOM goes', async () => {
  const json = { 'content-type': 'application/json' };
  const bytes = (...parts: Array<string | number[]>) =>
    new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part)] : part)));
  const kept = await post(bytes('{"a":"\uFFFD"}'), json);
  assert.is(kept.status, 201);
  assert.equal(await kept.json(), { got: { a: '\uFFFD' } });
  const invalid = await post(bytes('{"a":"', [0xc3, 0x28], '"}'), json);
  assert.is(invalid.status, 400);
  assert.match(await invalid.text(), /not valid UTF-8/);
  const bom = await post(bytes([0xef, 0xbb, 0xbf], '{"a":"1"}'), json);
  assert.equal(await bom.json(), { got: { a: '1' } });
});

test('toFetch :: every Response has headers of its own', async () => {
  const items = resource('items', { show: (req) => ({ id: req.params.item_id }) });
  const serve = toFetch(items);
  const first = await serve(new Request('http://x/items/1'));
  first.headers.set('X-Changed', 'yes');
  first.headers.set('Content-Type', 'text/plain');
  const second = await serve(new Request('http://x/items/2'));
  assert.is(second.headers.get('x-changed'), null);
  assert.is(second.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(await second.json(), { id: '2' });
});

const onBun = needRuntimes(
  ['bun'] as const,
  'toFetch on Bun, shared Headers (test/http/fetch-exchange.test.ts)',
);

needs(onBun, test)(
  'toFetch on Bun :: answers of one Content-Type, made from one shared Headers, each have their own',
  () => {
    // Bun alone is given a shared Headers (adapters/web/fetch-exchange.ts), so this runs there.
    const script = `
    import { toFetch } from ${JSON.stringify(join(ROOT, 'build', 'adapters', 'fetch.js'))};
    import { resource } from ${JSON.stringify(join(ROOT, 'build', 'core', 'index.js'))};
    const serve = toFetch(resource('items', { show: (req) => ({ id: req.params.item_id }) }));
    const first = await serve(new Request('http://x/items/1'));
    first.headers.set('X-Changed', 'yes');
    first.headers.set('Content-Type', 'text/plain');
    const second = await serve(new Request('http://x/items/2'));
    console.log(JSON.stringify([[...first.headers], [...second.headers], await second.json()]));
  `;
    const run = spawnSync(onBun.found!.bun.bin, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
    assert.is(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout), [
      [
        ['content-type', 'text/plain'],
        ['x-changed', 'yes'],
      ],
      [['content-type', 'application/json; charset=utf-8']],
      { id: '2' },
    ]);
  },
);

test('utf8Length() :: counts what TextEncoder would write, lone surrogates as U+FFFD', () => {
  const samples = ['', 'abc', 'é', '€', '😀', 'a\ud800b', '\udc00', 'x😀é\ud800', '\ud83d', 'ab\ud83d'];
  for (let n = 0; n < 200; n++)
    samples.push(
      String.fromCharCode(...Array.from({ length: 8 }, () => Math.floor(Math.random() * 0x10000))),
    );
  for (const text of samples)
    assert.is(utf8Length(text), new TextEncoder().encode(text).length, JSON.stringify(text));
});

test.run();
