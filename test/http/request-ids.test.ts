import * as assert from 'uvu/assert';
import { HttpError, resource, scope } from '../../core/index.js';
import { requestId } from '../../core/features/logging/index.js';
import { raw, type RawRequest, type RawResponse } from '../support/http.js';
import { inProcess, quietHandler } from '../support/in-process.js';
import { onEvery, withServers } from '../support/servers.js';

// requestId() on every adapter and in process: a short, safe X-Request-Id is kept and handed to the handler,
// anything else replaced by a new UUID, and every answer (misses, refusals, failures) carries the id back.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const posts = resource('posts', {
  index: (req) => [req.id],
  show(req) {
    if (req.params.post_id === 'boom') throw new Error('the handler failed');
    if (req.params.post_id === 'gone') throw new HttpError(410, 'this post is gone');
    return { id: req.params.post_id };
  },
});
const table = scope({ hooks: [requestId()] }, posts);
const handler = quietHandler(table);
const ids = withServers('request ids', table);

/** One request answered by every socket adapter and by toFetch in process. */
async function everywhere(
  servers: Array<{ name: string; running: { url: string } }>,
  request: RawRequest,
): Promise<Array<[string, RawResponse]>> {
  const answers = await Promise.all(
    servers.map(async ({ name, running }) => [name, await raw(running.url, request)]),
  );
  return [...(answers as Array<[string, RawResponse]>), ['toFetch', await inProcess(handler, request)]];
}

ids(
  'a short, safe X-Request-Id is kept: the handler’s req.id, and the answer’s header',
  async ({ servers }) => {
    const request = { path: '/posts', headers: { 'X-Request-Id': 'abc-123' } };
    const answer = await onEvery(servers, request);
    assert.is(answer.headers['x-request-id'], 'abc-123');
    assert.is(answer.body, '["abc-123"]');
    const fetched = await inProcess(handler, request);
    assert.is(fetched.headers['x-request-id'], 'abc-123');
    assert.is(fetched.body, '["abc-123"]');
  },
);

const REPLACED: Array<[string, RawRequest]> = [
  ['over 128 characters', { path: '/posts', lines: [`X-Request-Id: ${'x'.repeat(129)}`] }],
  ['with a space', { path: '/posts', lines: ['X-Request-Id: two words'] }],
  ['sent twice', { path: '/posts', lines: ['X-Request-Id: same', 'X-Request-Id: same'] }],
  ['with a semicolon', { path: '/posts', lines: ['X-Request-Id: a;b'] }],
  ['with a tab', { path: '/posts', lines: ['X-Request-Id: a\tb'] }],
  ['non-ASCII', { path: '/posts', lines: ['X-Request-Id: café'] }],
  ['empty', { path: '/posts', lines: ['X-Request-Id:'] }],
  ['absent', { path: '/posts' }],
];

ids('a malformed, long, doubled or missing X-Request-Id is replaced by a new UUID', async ({ servers }) => {
  for (const [what, request] of REPLACED) {
    const seen = new Set<string>();
    for (const [where, answer] of await everywhere(servers, request)) {
      const id = answer.headers['x-request-id']!;
      assert.match(id, UUID, `${what} on ${where}`);
      assert.is(answer.body, JSON.stringify([id]), `${what} on ${where}: the handler saw the same id`);
      seen.add(id);
    }
    assert.is(seen.size, servers.length + 1, `${what}: every request got an id of its own`);
  }
});

ids('every answer carries the id: misses, refusals, failures, HEAD and OPTIONS', async ({ servers }) => {
  const sent = { 'X-Request-Id': 'every-1' };
  const cases: Array<[RawRequest, number]> = [
    [{ path: '/nowhere', headers: sent }, 404],
    [{ method: 'DELETE', path: '/posts', headers: sent }, 405],
    [{ method: 'OPTIONS', path: '/posts', headers: sent }, 204],
    [{ method: 'HEAD', path: '/posts/7', headers: sent }, 200],
    [{ path: '/posts/gone', headers: sent }, 410],
    [{ path: '/posts/boom', headers: sent }, 500],
    [{ path: '/posts/%zz', headers: sent }, 400],
  ];
  for (const [request, status] of cases) {
    for (const [where, answer] of await everywhere(servers, request)) {
      assert.is(answer.status, status, `${request.method ?? 'GET'} ${request.path} on ${where}`);
      assert.is(answer.headers['x-request-id'], 'every-1', `${request.path} on ${where}`);
    }
  }
});

ids('a request answered before any hook runs gets a new id all the same', async ({ servers }) => {
  const sent = { 'X-Request-Id': 'early-1' };
  for (const request of [
    { path: `/${'a'.repeat(9000)}`, headers: sent },
    { method: 'OPTIONS', path: '*', headers: sent },
  ]) {
    for (const { name, running } of servers) {
      const answer = await raw(running.url, request);
      assert.match(answer.headers['x-request-id']!, UUID, `${request.path.slice(0, 9)} on ${name}`);
    }
  }
});

ids(
  'error pages name the id for a person to quote; problem+json leaves it to the header',
  async ({ servers }) => {
    const browser = { Accept: 'text/html', 'X-Request-Id': 'page-7' };
    for (const path of ['/nowhere', '/posts/boom']) {
      const page = await onEvery(servers, { path, headers: browser });
      assert.match(page.body, '<p>Request id: <code>page-7</code></p>\n<p>Error ');
      assert.match((await inProcess(handler, { path, headers: browser })).body, '<code>page-7</code>');
    }
    const problem = await onEvery(servers, { path: '/nowhere', headers: { 'X-Request-Id': 'page-8' } });
    assert.is(problem.headers['x-request-id'], 'page-8');
    assert.is(
      problem.body,
      '{"type":"about:blank","title":"Not Found","status":404,"detail":"no route matches this path"}',
    );
  },
);

ids(
  'an id with CR or LF never gets this far: the parser refuses the request, and the server goes on',
  async ({ servers }) => {
    for (const { name, running } of servers) {
      const refused = await raw(running.url, { path: '/posts', lines: ['X-Request-Id: a\rX-Evil: 1'] });
      assert.is(refused.status, 400, name);
      assert.is(refused.headers['x-evil'], undefined, name);
      assert.is((await raw(running.url, { path: '/posts' })).status, 200, name);
    }
  },
);

ids.run();

const correlated = resource('notes', { index: (req) => [req.id] });
const named = withServers(
  'request ids :: another header',
  scope({ hooks: [requestId({ header: 'X-Correlation-Id' })] }, correlated),
);

named('requestId({ header }) reads and writes that header, and no other', async ({ servers }) => {
  const answer = await onEvery(servers, {
    path: '/notes',
    headers: { 'X-Correlation-Id': 'corr-1', 'X-Request-Id': 'ignored' },
  });
  assert.is(answer.headers['x-correlation-id'], 'corr-1');
  assert.is(answer.headers['x-request-id'], undefined);
  assert.is(answer.body, '["corr-1"]');
});

named.run();
