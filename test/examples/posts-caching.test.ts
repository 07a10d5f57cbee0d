// examples/posts as its servers mount it (postsTable, with etag()): show and index carry ETags on GET and HEAD
// and answer 304 for If-None-Match; errors carry none. On every adapter, and in process.
import * as assert from 'uvu/assert';
import { postsOptions } from '../../examples/posts/app.js';
import { postsTable } from '../../examples/posts/hooks.js';
import type { RawRequest, RawResponse } from '../support/http.js';
import { inProcess, quietHandler, sameAnswer } from '../support/in-process.js';
import { deterministicPosts } from '../support/posts.js';
import { onEvery, withServers } from '../support/servers.js';

const posts = deterministicPosts();
const options = postsOptions(posts);
// Quiet, and every request named alike, so that each adapter's answer is the same bytes.
const table = postsTable({ env: { LOG_LEVEL: 'silent' } }, posts);
const handler = quietHandler(table, options);
const JSON_TYPE = { 'Content-Type': 'application/json' };
const BROWSER = { Accept: 'text/html' };

const caching = withServers('examples/posts :: caching', table, options);

// One store behind every server: the posts are written once, in process.
caching.before(async () => {
  for (const id of ['hello', 'world']) {
    const created = await inProcess(handler, {
      method: 'POST',
      path: '/posts',
      headers: JSON_TYPE,
      body: JSON.stringify({ id, title: `Hello ${id}` }),
    });
    assert.is(created.status, 201, created.body);
  }
});

async function everywhere(servers: Parameters<typeof onEvery>[0], given: RawRequest): Promise<RawResponse> {
  const request = { ...given, headers: { 'X-Request-Id': 'caching-test', ...given.headers } };
  const answer = await onEvery(servers, request);
  sameAnswer(
    await inProcess(handler, request),
    answer,
    `toFetch: ${request.method ?? 'GET'} ${request.path}`,
  );
  return answer;
}

for (const [label, path, headers] of [
  ['show', '/posts/hello', {}],
  ['show as HTML', '/posts/hello', BROWSER],
  ['index', '/posts', {}],
  ['index, a page', '/posts?limit=1', {}],
] as const) {
  caching(
    `${label}: GET and HEAD carry one ETag; with it, a list holding it, or *, a 304 with no body`,
    async ({ servers }) => {
      const got = await everywhere(servers, { path, headers });
      assert.is(got.status, 200);
      const tag = got.headers.etag!;
      assert.match(tag, /^W\/"[0-9a-z]+-[0-9a-z]+"$/);
      const head = await everywhere(servers, { method: 'HEAD', path, headers });
      assert.is(head.headers.etag, tag);
      for (const method of ['GET', 'HEAD']) {
        for (const field of [tag, `W/"stale", ${tag}`, '*']) {
          const again = await everywhere(servers, {
            method,
            path,
            headers: { ...headers, 'If-None-Match': field },
          });
          assert.is(again.status, 304, `${method} If-None-Match: ${field}`);
          assert.is(again.body, '');
          assert.is(again.headers.etag, tag);
          assert.is(again.headers['content-type'], undefined);
          assert.is(again.headers.vary, got.headers.vary, 'the Vary the 200 has');
          assert.is(again.headers.link, got.headers.link, 'and its Link to the next page');
        }
      }
      const other = await everywhere(servers, {
        path,
        headers: { ...headers, 'If-None-Match': 'W/"stale"' },
      });
      assert.is(other.status, 200);
      assert.is(other.body, got.body);
    },
  );
}

// The HTML index links to a new post under a fresh id, so each render is other bytes with another tag: it is
// asked in process only, where the adapters' shared id counter cannot make their answers differ.
caching('index as HTML: GET and HEAD carry an ETag; * is a 304 with no body', async () => {
  for (const method of ['GET', 'HEAD']) {
    const got = await inProcess(handler, { method, path: '/posts', headers: BROWSER });
    assert.is(got.status, 200);
    assert.match(got.headers.etag!, /^W\/"[0-9a-z]+-[0-9a-z]+"$/);
    const star = await inProcess(handler, {
      method,
      path: '/posts',
      headers: { ...BROWSER, 'If-None-Match': '*' },
    });
    assert.is(star.status, 304);
    assert.is(star.body, '');
    assert.is(star.headers.vary, 'Accept');
  }
});

caching('errors carry no ETag, and If-None-Match: * never makes one a 304', async ({ servers }) => {
  const star = { 'If-None-Match': '*' };
  const errors: [RawRequest, number][] = [
    [{ path: '/posts/missing', headers: star }, 404],
    [{ path: '/posts/missing', headers: { ...star, ...BROWSER } }, 404],
    [{ path: '/posts?limit=0', headers: star }, 400],
    [{ path: '/nowhere', headers: star }, 404],
    [{ method: 'PATCH', path: '/posts/hello', headers: star }, 405],
    [{ method: 'POST', path: '/posts', headers: JSON_TYPE, body: '{"title":""}' }, 422],
  ];
  for (const [request, status] of errors) {
    const answer = await everywhere(servers, request);
    assert.is(answer.status, status, request.path);
    assert.is(answer.headers.etag, undefined, request.path);
  }
});

caching('a post that changes gets a new ETag: the old one is answered in full', async ({ servers }) => {
  const before = await everywhere(servers, { path: '/posts/world' });
  const updated = await inProcess(handler, {
    method: 'PUT',
    path: '/posts/world',
    headers: JSON_TYPE,
    body: JSON.stringify({ title: 'Changed' }),
  });
  assert.is(updated.status, 200, updated.body);
  const after = await everywhere(servers, {
    path: '/posts/world',
    headers: { 'If-None-Match': before.headers.etag! },
  });
  assert.is(after.status, 200);
  assert.is.not(after.headers.etag, before.headers.etag);
  assert.match(after.body, /"title":"Changed"/);
});

caching.run();
