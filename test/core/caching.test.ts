import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type HttpResponse, type HookRequest } from '../../core/index.js';
import { etag, fresh } from '../../core/features/caching/index.js';
import { Reply } from '../../core/response/reply.js';
import { notModified } from '../../core/features/caching/etag.js';

// The etag() hook's onSend part and fresh(), called directly: which answers get a validator, which become a
// 304 and what a 304 keeps (hono #972, #1195, #3536, #4401, #5191 are the checklist).

// etag() answers at once, never with a promise.
const answerOf = etag().onSend! as (req: HookRequest, out: HttpResponse) => HttpResponse | void;
const request = (headers: Record<string, string> = {}, method = 'GET') =>
  ({ method, headers }) as unknown as HookRequest;
const ok = (body: HttpResponse['body'] = '{"id":1}', headers: Record<string, string> = {}): HttpResponse => ({
  status: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  body,
});
/** The answer after the hook: the one it returned, or the one it changed in place. */
const hooked = (req: HookRequest, out: HttpResponse) => answerOf(req, out) ?? out;

test('etag() :: a GET or HEAD 200 gets a weak ETag, the same for both; other methods none', () => {
  const get = hooked(request(), ok());
  assert.match(get.headers.ETag!, /^W\/"[0-9a-z]+-[0-9a-z]+"$/);
  assert.is(hooked(request({}, 'HEAD'), ok()).headers.ETag, get.headers.ETag);
  assert.is(hooked(request({}, 'POST'), ok()).headers.ETag, undefined);
  assert.is(
    hooked(request(), ok(new TextEncoder().encode('{"id":1}'))).headers.ETag,
    get.headers.ETag,
    'the same bytes given as bytes: one tag (hono #4401)',
  );
  assert.is.not(hooked(request(), ok('{"id":2}')).headers.ETag, get.headers.ETag);
});

test('etag() :: an If-None-Match that names it (weakly, in a list, or *) is a 304 with no body', () => {
  const tag = hooked(request(), ok()).headers.ETag!;
  for (const field of [tag, tag.slice(2), `"nope", ${tag}`, '*']) {
    const out = hooked(request({ 'if-none-match': field }), ok());
    assert.is(out.status, 304, field);
    assert.is(out.body, '');
    assert.is(out.headers.ETag, tag, 'a 304 carries the ETag (hono #972)');
  }
  for (const field of ['"nope"', tag.slice(3), 'garbage', `${tag}, garbage`])
    assert.is(hooked(request({ 'if-none-match': field }), ok()).status, 200, field);
});

test('etag() :: errors and other statuses get no ETag and are never a 304, even for * (hono #5191)', () => {
  for (const status of [201, 204, 206, 301, 304, 400, 404, 422, 500, 503]) {
    const out: HttpResponse = { status, headers: { 'Content-Type': 'application/problem+json' }, body: '{}' };
    const after = hooked(request({ 'if-none-match': '*' }), out);
    assert.is(after.status, status);
    assert.is(after.headers.ETag, undefined, String(status));
  }
});

test('etag() :: a handler’s ETag is kept, not replaced or hashed again, and compared (hono #1195)', () => {
  const out = hooked(request(), ok('{}', { etag: '"v7"' }));
  assert.is(out.headers.etag, '"v7"');
  assert.is(out.headers.ETag, undefined, 'one ETag header, under the handler’s spelling');
  assert.is(hooked(request({ 'if-none-match': 'W/"v7"' }), ok('{}', { etag: '"v7"' })).status, 304);
  assert.is(hooked(request({ 'if-none-match': '"v8"' }), ok('{}', { etag: '"v7"' })).status, 200);
});

test('etag() :: a streamed body is never read to be hashed; with the handler’s ETag its 304 cancels it', async () => {
  let pulled = 0;
  let cancelled = false;
  const stream = () =>
    new ReadableStream<Uint8Array>({
      pull: () => void pulled++,
      cancel: () => void (cancelled = true),
    });
  const out = hooked(request({ 'if-none-match': '*' }), ok(stream()));
  assert.is(out.status, 200, 'without a tag there is nothing to compare, * included (hono #3536)');
  assert.is(out.headers.ETag, undefined);
  const held = hooked(request({ 'if-none-match': '"s1"' }), ok(stream(), { ETag: '"s1"' }));
  assert.is(held.status, 304);
  await Promise.resolve();
  assert.ok(cancelled, 'the 304 sends no body: the stream it replaced is cancelled');
  assert.ok(pulled <= 2, 'and was never read through (a stream pulls its first chunk or so on its own)');
});

test('etag() :: If-Modified-Since against the answer’s Last-Modified, when there is no If-None-Match', () => {
  const modified = 'Tue, 02 Jan 2024 03:04:05 GMT';
  const page = () => ok('<p>', { 'Last-Modified': modified });
  assert.is(hooked(request({ 'if-modified-since': modified }), page()).status, 304);
  assert.is(hooked(request({ 'if-modified-since': 'Tue, 02 Jan 2024 03:04:04 GMT' }), page()).status, 200);
  assert.is(
    hooked(request({ 'if-modified-since': modified, 'if-none-match': '"other"' }), page()).status,
    200,
  );
});

test('notModified() :: keeps every header but the body’s: validators, caching, Vary, CORS, cookies', () => {
  const out = notModified({
    status: 200,
    headers: {
      'content-type': 'text/html',
      'Content-Length': '42',
      'Content-Encoding': 'gzip',
      'Content-Language': 'en',
      'Transfer-Encoding': 'chunked',
      ETag: 'W/"a"',
      'Last-Modified': 'Tue, 02 Jan 2024 03:04:05 GMT',
      'Cache-Control': 'no-cache',
      Vary: 'Accept, Origin',
      Expires: 'Tue, 02 Jan 2024 03:04:05 GMT',
      'Content-Location': '/posts/1',
      'Access-Control-Allow-Origin': 'https://app.example',
      'X-Request-Id': 'r1',
      'Content-Security-Policy': "script-src 'none'",
    },
    body: '<p>hello</p>',
  });
  assert.is(out.status, 304);
  assert.is(out.body, '');
  assert.equal(Object.keys(out.headers), [
    'ETag',
    'Last-Modified',
    'Cache-Control',
    'Vary',
    'Expires',
    'Content-Location',
    'Access-Control-Allow-Origin',
    'X-Request-Id',
    'Content-Security-Policy',
  ]);
});

test('etag() :: one hook however often asked for; its OpenAPI data documents ETag on 200 and 304', () => {
  assert.is(etag(), etag());
  assert.equal(etag().openapi?.methods, ['GET']);
  assert.equal(etag().openapi?.statuses, ['200', '304']);
  assert.ok(etag().openapi?.headers?.ETag);
  assert.ok(etag().openapi?.responses?.['304']);
});

const modified = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678));

test('fresh() :: not fresh: undefined, and the answer will carry ETag and Last-Modified', () => {
  const res = new Reply();
  assert.is(fresh(request(), res, { etag: 'v1', lastModified: modified }), undefined);
  assert.match(res.headers!.ETag!, /^W\/"[0-9a-z]+-[0-9a-z]+"$/);
  assert.is(res.headers!['Last-Modified'], 'Tue, 02 Jan 2024 03:04:05 GMT', 'whole seconds');
});

test('fresh() :: a 304 for a matching If-None-Match, or If-Modified-Since without one', () => {
  const first = new Reply();
  fresh(request(), first, { etag: ['post-1', modified] });
  const tag = first.headers!.ETag!;
  const again = fresh(request({ 'if-none-match': tag }), new Reply(), { etag: ['post-1', modified] });
  assert.is(again?.status, 304);
  assert.is(
    fresh(request({ 'if-none-match': tag }, 'HEAD'), new Reply(), { etag: ['post-1', modified] })?.status,
    304,
  );
  assert.is(fresh(request({ 'if-none-match': tag }), new Reply(), { etag: ['post-1', 1] }), undefined);
  assert.is(
    fresh(request({ 'if-none-match': tag }, 'POST'), new Reply(), { etag: ['post-1', modified] }),
    undefined,
  );
  const since = { 'if-modified-since': 'Tue, 02 Jan 2024 03:04:05 GMT' };
  assert.is(fresh(request(since), new Reply(), { lastModified: modified })?.status, 304, 'the same second');
  assert.is(fresh(request(since), new Reply(), { lastModified: modified.getTime() + 1000 }), undefined);
  assert.is(fresh(request(since), new Reply(), { lastModified: '2024-01-01T00:00:00Z' })?.status, 304);
});

test('fresh() :: validators: lists kept apart, a future Last-Modified is now, bad values are bugs', () => {
  const tagOf = (value: Parameters<typeof fresh>[2]['etag']) => {
    const res = new Reply();
    fresh(request(), res, { etag: value! });
    return res.headers!.ETag;
  };
  assert.is.not(tagOf(['a,b']), tagOf(['a', 'b']));
  assert.is.not(tagOf('1'), tagOf('2'));
  assert.is(tagOf(new Date(5)), tagOf(new Date(5)));
  const res = new Reply();
  fresh(request(), res, { lastModified: Date.now() + 86_400_000 });
  assert.ok(Date.parse(res.headers!['Last-Modified']!) <= Date.now());
  assert.throws(
    () => fresh(request(), new Reply(), { lastModified: 'not a date' }),
    /lastModified is not a valid date/,
  );
  assert.throws(() => fresh(request(), new Reply(), { etag: {} as never }), /etag must be a string/);
  assert.throws(() => fresh(request(), new Reply(), { etag: Number.NaN }), /etag must be/);
  assert.throws(() => fresh(request(), new Reply(), {}), /one or both/);
});

test.run();
