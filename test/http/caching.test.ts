import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { html, HttpError, negotiate, resource, scope, text } from '../../core/index.js';
import { etag, fresh } from '../../core/features/caching/index.js';
import type { RawRequest, RawResponse } from '../support/http.js';
import { inProcess, quietHandler, sameAnswer } from '../support/in-process.js';
import { onEvery, withServers } from '../support/servers.js';

// HTTP caching on every adapter and in process: weak ETags on GET and HEAD 200s, 304s with no body for
// If-None-Match (exact, weak, a list, *), never for errors or garbage; fresh() before rendering; the cache
// option's Cache-Control; streams sent as they are read.

const UPDATED = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
let renders = 0;
/** Lets the last stream made finish: it waits for the test after its first chunk. */
let release: () => void = () => {};
const chunks = () => {
  const gate = new Promise<void>((resolve) => (release = resolve));
  let sent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent) {
        await gate;
        controller.enqueue(new TextEncoder().encode(',2]'));
        return controller.close();
      }
      sent = true;
      controller.enqueue(new TextEncoder().encode('[1'));
    },
  });
};

const pages = resource(
  'pages',
  {
    index: (req) =>
      negotiate(req, {
        'application/json': () => [{ id: 'a' }],
        'text/html': () => html`<ul><li>a</li></ul>`,
      }),
    show(req, res) {
      // The expensive part runs only for a client that does not hold the current page.
      return (
        fresh(req, res, { etag: ['page', req.params.page_id, UPDATED], lastModified: UPDATED }) ??
        (renders++, { id: req.params.page_id })
      );
    },
    new: () => text('a form', 200, { 'Cache-Control': 'no-store' }),
    edit: () => text('fixed', 200, { ETag: '"v7"' }),
    stream: () => new Response(chunks(), { headers: { 'Content-Type': 'application/json' } }),
    create: () => ({ id: 'b' }),
  },
  {
    collection: { stream: 'GET' },
    schemas: { index: { html: true } },
    cache: { index: 'no-cache', show: 'private, max-age=60', new: 'public, max-age=5' },
  },
);
const things = resource(
  'things',
  {
    show(req) {
      const id = req.params.thing_id;
      if (id === 'missing') throw new HttpError(404, 'no such thing');
      if (id === 'invalid') throw new HttpError(422, 'not a thing');
      throw new Error('broken');
    },
  },
  { schemas: { show: { errors: [422] } } },
);
const table = scope({ hooks: [etag()] }, pages, things);
const fetched = quietHandler(table);

const caching = withServers('caching', table);

/** One request on every socket adapter (the same bytes) and in process (the same answer). */
async function everywhere(
  servers: Parameters<typeof onEvery>[0],
  request: RawRequest,
  label: string,
): Promise<RawResponse> {
  const answer = await onEvery(servers, request);
  sameAnswer(await inProcess(fetched, request), answer, `toFetch: ${label}`);
  return answer;
}

const notModified = (answer: RawResponse, label: string) => {
  assert.is(answer.status, 304, label);
  assert.is(answer.body, '', `${label}: no body`);
  assert.is(answer.headers['content-type'], undefined, `${label}: no Content-Type`);
  assert.is(answer.headers['content-length'], undefined, `${label}: no Content-Length`);
  assert.is(answer.headers['transfer-encoding'], undefined, `${label}: no Transfer-Encoding`);
};

caching('GET and HEAD 200s carry one weak ETag, in process too', async ({ servers }) => {
  const got = await everywhere(servers, { path: '/pages' }, 'GET');
  assert.is(got.status, 200);
  assert.match(got.headers.etag!, /^W\/"[0-9a-z]+-[0-9a-z]+"$/);
  assert.is(got.headers['cache-control'], 'no-cache');
  const head = await everywhere(servers, { method: 'HEAD', path: '/pages' }, 'HEAD');
  assert.is(head.status, 200);
  assert.is(head.body, '');
  assert.is(head.headers.etag, got.headers.etag, 'HEAD’s body is dropped after it is hashed: the same tag');
  assert.is(head.headers['content-length'], String(got.body.length));
  const created = await everywhere(servers, { method: 'POST', path: '/pages' }, 'POST');
  assert.is(created.headers.etag, undefined, 'only GET and HEAD');
});

caching('If-None-Match with the tag, weakly, in a list, or * is a 304 with no body', async ({ servers }) => {
  const tag = (await onEvery(servers, { path: '/pages' })).headers.etag!;
  const fields = [tag, tag.slice(2), `"other", ${tag}`, `W/"a",${tag} , W/"b"`, '*', ` * `];
  for (const field of fields) {
    for (const method of ['GET', 'HEAD']) {
      const label = `${method} If-None-Match: ${field}`;
      const answer = await everywhere(
        servers,
        { method, path: '/pages', headers: { 'If-None-Match': field } },
        label,
      );
      notModified(answer, label);
      assert.is(answer.headers.etag, tag, `${label}: the ETag`);
      assert.is(answer.headers['cache-control'], 'no-cache', `${label}: the Cache-Control`);
      assert.is(answer.headers.vary, 'Accept', `${label}: the Vary a 200 would have`);
    }
  }
  const twice = await everywhere(
    servers,
    { path: '/pages', lines: ['If-None-Match: "other"', `If-None-Match: ${tag}`] },
    'two If-None-Match lines',
  );
  notModified(twice, 'two If-None-Match lines: one list');
});

caching(
  'another tag, or If-None-Match garbage, is a 200 with the body: never a false 304',
  async ({ servers }) => {
    const got = await onEvery(servers, { path: '/pages' });
    const tag = got.headers.etag!;
    const many = Array.from({ length: 400 }, (_, i) => `"t${i}"`).join(', ');
    const garbage = [
      '"other"',
      tag.slice(3),
      tag.slice(2, -1),
      tag.replace('W/', 'w/'),
      'W/ "x"',
      '"a" "b"',
      `${tag}, garbage`,
      `*, ${tag}`,
      '**',
      `${tag};q=1`,
      many,
      `${many}, ${tag}x`,
      '\u00ff\u00fe',
    ];
    for (const field of garbage) {
      const label = `If-None-Match: ${field.slice(0, 40)}`;
      const answer = await everywhere(
        servers,
        { path: '/pages', headers: { 'If-None-Match': field } },
        label,
      );
      assert.is(answer.status, 200, label);
      assert.is(answer.body, got.body, label);
      assert.is(answer.headers.etag, tag, label);
    }
    const listed = await everywhere(
      servers,
      { path: '/pages', headers: { 'If-None-Match': `${many}, ${tag}` } },
      'list',
    );
    notModified(listed, 'a 400-tag list holding it');
  },
);

caching(
  'HTML and JSON are two representations: two tags, each answered 304 with Vary: Accept',
  async ({ servers }) => {
    const browser = { Accept: 'text/html' };
    const page = await everywhere(servers, { path: '/pages', headers: browser }, 'HTML');
    const data = await everywhere(servers, { path: '/pages' }, 'JSON');
    assert.is(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.is.not(page.headers.etag, data.headers.etag);
    const again = await everywhere(
      servers,
      { path: '/pages', headers: { ...browser, 'If-None-Match': page.headers.etag! } },
      'HTML again',
    );
    notModified(again, 'HTML again');
    assert.is(again.headers.vary, 'Accept');
    const crossed = await everywhere(
      servers,
      { path: '/pages', headers: { 'If-None-Match': page.headers.etag! } },
      'JSON with the HTML tag',
    );
    assert.is(crossed.status, 200);
  },
);

caching('errors carry no ETag and are never a 304, * included', async ({ servers }) => {
  const star = { 'If-None-Match': '*' };
  for (const [path, status, method] of [
    ['/things/missing', 404, 'GET'],
    ['/things/invalid', 422, 'GET'],
    ['/things/broken', 500, 'GET'],
    ['/things/missing', 404, 'HEAD'],
    ['/nowhere', 404, 'GET'],
    ['/pages/1', 405, 'DELETE'],
  ] as const) {
    const answer = await everywhere(servers, { method, path, headers: star }, `${method} ${path}`);
    assert.is(answer.status, status, path);
    assert.is(answer.headers.etag, undefined, path);
    assert.is(answer.headers['cache-control'], undefined, path);
  }
});

caching('a handler’s own ETag is kept, not replaced, and compared', async ({ servers }) => {
  const got = await everywhere(servers, { path: '/pages/1/edit' }, 'edit');
  assert.is(got.headers.etag, '"v7"');
  notModified(
    await everywhere(
      servers,
      { path: '/pages/1/edit', headers: { 'If-None-Match': 'W/"v7"' } },
      'edit, weakly',
    ),
    'its tag, weakly',
  );
});

caching(
  'fresh() answers 304 before the handler renders; otherwise the page carries its validators',
  async ({ servers }) => {
    const before = renders;
    const got = await everywhere(servers, { path: '/pages/1' }, 'show');
    assert.is(renders - before, servers.length + 1, 'rendered once per adapter');
    assert.is(got.headers['last-modified'], UPDATED.toUTCString());
    assert.is(got.headers['cache-control'], 'private, max-age=60');
    const tag = got.headers.etag!;
    const conditional: Record<string, string>[] = [
      { 'If-None-Match': tag },
      { 'If-None-Match': `"x", ${tag}` },
      { 'If-Modified-Since': UPDATED.toUTCString() },
      { 'If-Modified-Since': new Date(UPDATED.getTime() + 86_400_000).toUTCString() },
    ];
    for (const headers of conditional) {
      const rendered = renders;
      const label = JSON.stringify(headers);
      const answer = await everywhere(servers, { path: '/pages/1', headers }, label);
      notModified(answer, label);
      assert.is(renders, rendered, `${label}: nothing rendered`);
      assert.is(answer.headers.etag, tag, label);
      assert.is(answer.headers['last-modified'], UPDATED.toUTCString(), label);
      assert.is(answer.headers['cache-control'], 'private, max-age=60', `${label}: the cache option's too`);
    }
    const rendered = renders;
    const older = { 'If-Modified-Since': new Date(UPDATED.getTime() - 1000).toUTCString() };
    assert.is((await everywhere(servers, { path: '/pages/1', headers: older }, 'older')).status, 200);
    const stale = { 'If-None-Match': '"x"', 'If-Modified-Since': UPDATED.toUTCString() };
    assert.is((await everywhere(servers, { path: '/pages/1', headers: stale }, 'stale tag')).status, 200);
    assert.is(renders - rendered, 2 * (servers.length + 1), 'those render');
  },
);

caching(
  'the cache option: per action, on 200s only, a handler’s own Cache-Control kept',
  async ({ servers }) => {
    const own = await everywhere(servers, { path: '/pages/1/new' }, 'new');
    assert.is(own.headers['cache-control'], 'no-store');
    const none = await everywhere(servers, { path: '/pages/1/edit' }, 'edit');
    assert.is(none.headers['cache-control'], undefined, 'edit has none');
  },
);

caching('a streamed body is sent as it is read: no ETag, never held to be hashed', async ({ servers }) => {
  const urls = [...servers.map(({ running }) => running.url), undefined];
  for (const url of urls) {
    const request = new Request(`${url ?? 'http://test.local'}/pages/stream`, {
      headers: { 'If-None-Match': '*' },
    });
    // The head arrives while the stream still waits for the test: nothing held the body back to hash it.
    const response = await (url === undefined ? fetched(request) : fetch(request));
    assert.is(response.status, 200, url ?? 'in process');
    assert.is(response.headers.get('etag'), null);
    const body = response.text();
    release();
    assert.is(await body, '[1,2]');
  }
});

caching.run();

// fresh() without etag() on a route with schemas: its 304 is not in the OpenAPI operation, and
// checkResponses says how to put it there.
test('fresh() :: a 304 on a route without etag() is reported by checkResponses with the fix', async () => {
  const reported: unknown[] = [];
  const bare = resource(
    'drafts',
    { show: (req, res) => fresh(req, res, { etag: 'v1' }) ?? { id: 1 } },
    { schemas: { show: { response: { type: 'object' } } } },
  );
  const handler = quietHandler(bare, { onError: (error) => void reported.push(error) });
  const first = await inProcess(handler, { path: '/drafts/1' });
  assert.is(first.status, 200);
  const again = await inProcess(handler, {
    path: '/drafts/1',
    headers: { 'If-None-Match': first.headers.etag! },
  });
  assert.is(again.status, 500);
  assert.match(
    String(reported[0]),
    'drafts.show answered 304, which its OpenAPI operation does not list; put the etag() hook on drafts.show',
  );
  const served = quietHandler(bare, { checkResponses: false });
  const unchecked = await inProcess(served, {
    path: '/drafts/1',
    headers: { 'If-None-Match': first.headers.etag! },
  });
  assert.is(unchecked.status, 304, 'unchecked, as in production, it is answered');
});

test.run();
