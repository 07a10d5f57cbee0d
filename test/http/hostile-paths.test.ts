import * as assert from 'uvu/assert';
import { call, expectProblem, get, send } from '../support/http.js';
import { addCases, closes, hostileSuite, JSON_T, noBody, status, type Case } from '../support/hostile.js';

// Hostile request lines and headers, from raw sockets on every adapter: routing, paths no route
// may take, targets and headers past the limits.
const CASES: Case[] = [
  // Routing
  { name: 'GET unknown path: 404', bytes: get('/nowhere'), check: expectProblem(404) },
  ...['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND'].map((m) => ({
    name: `${m} unknown path: 404`,
    bytes: call(m, '/nowhere'),
    check: expectProblem(404),
  })),
  { name: 'HEAD unknown path: 404 without body', bytes: call('HEAD', '/nowhere'), check: noBody(404) },
  {
    name: 'PATCH /posts: 405 with Allow',
    bytes: call('PATCH', '/posts'),
    check: (r) => {
      expectProblem(405)(r);
      assert.is(r.headers.allow, 'GET, HEAD, POST, OPTIONS');
    },
  },
  { name: 'DELETE /posts: 405', bytes: call('DELETE', '/posts'), check: expectProblem(405) },
  {
    name: 'POST member path: 405 with Allow',
    bytes: send('POST', '/posts/x', JSON_T, '{}'),
    check: (r) => {
      expectProblem(405)(r);
      assert.is(r.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
    },
  },
  {
    name: 'OPTIONS /posts: 204 with Allow',
    bytes: call('OPTIONS', '/posts'),
    check: (r) => {
      noBody(204)(r);
      assert.is(r.headers.allow, 'GET, HEAD, POST, OPTIONS');
    },
  },
  {
    name: 'OPTIONS edit path: 204 with Allow',
    bytes: call('OPTIONS', '/posts/x/edit'),
    check: (r) => assert.is(r.headers.allow, 'GET, HEAD, OPTIONS'),
  },
  {
    name: 'HEAD /posts: 200, Content-Length, no body',
    bytes: call('HEAD', '/posts'),
    check: (r) => {
      noBody(200)(r);
      assert.is(r.headers['content-length'], '2');
    },
  },
  { name: 'HEAD absent post: 404 without body', bytes: call('HEAD', '/posts/absent'), check: noBody(404) },
  { name: 'absolute-form target: routed by path', bytes: get('http://x/posts'), check: status(200) },
  {
    name: 'absolute-form https target with query',
    bytes: get('https://x/posts?limit=1'),
    check: status(200),
  },
  { name: 'trailing slash: ignored', bytes: get('/posts/'), check: status(200) },
  { name: 'OPTIONS *: 204', bytes: call('OPTIONS', '*'), check: noBody(204) },
  { name: 'GET *: 400', bytes: get('*'), check: expectProblem(400) },
  // Paths
  {
    name: 'truncated UTF-8 escape: 400',
    bytes: get('/posts/%E0%A4%A'),
    check: expectProblem(400, /percent-encoding/),
  },
  { name: 'overlong UTF-8 (%C0%AE): 400', bytes: get('/posts/%C0%AE'), check: expectProblem(400) },
  { name: 'non-hex escape: 400', bytes: get('/posts/%ZZ'), check: expectProblem(400) },
  { name: 'lone percent: 400', bytes: get('/posts/%'), check: expectProblem(400) },
  { name: 'encoded NUL: 400', bytes: get('/posts/a%00b'), check: expectProblem(400, /control/) },
  {
    name: 'encoded CRLF: 400',
    bytes: get('/posts/a%0D%0ASet-Cookie:x'),
    check: expectProblem(400, /control/),
  },
  {
    name: 'raw NUL in the target: 400, closed',
    bytes: get('/posts/a\0b'),
    check: closes(expectProblem(400)),
  },
  {
    name: 'raw space smuggled in the target: 400',
    bytes: 'GET /posts/a b HTTP/1.1\r\nHost: x\r\n\r\n',
    check: expectProblem(400),
  },
  {
    name: 'dot-dot traversal: 400',
    bytes: get('/posts/../etc/passwd'),
    check: expectProblem(400, /dot segments/),
  },
  { name: 'encoded dot-dot: 400', bytes: get('/posts/%2e%2e/edit'), check: expectProblem(400) },
  {
    name: 'dot-dot under a path no route knows: 400, not 404',
    bytes: get('/files/../etc/passwd'),
    check: expectProblem(400, /dot segments/),
  },
  { name: 'dot segment after a miss: 400', bytes: get('/nowhere/./x'), check: expectProblem(400) },
  {
    name: 'encoded slashes traversal: 404',
    bytes: get('/posts/..%2f..%2fetc%2fpasswd'),
    check: expectProblem(404),
  },
  { name: 'backslash traversal: 404', bytes: get('/posts/..%5c..%5cwin.ini'), check: expectProblem(404) },
  {
    name: 'id __proto__: 404 like any missing id',
    bytes: get('/posts/__proto__'),
    check: expectProblem(404),
  },
  { name: 'id constructor: 404', bytes: get('/posts/constructor'), check: expectProblem(404) },
  { name: 'id prototype: 404', bytes: get('/posts/prototype'), check: expectProblem(404) },
  {
    name: 'edit __proto__: 404',
    bytes: get('/posts/__proto__/edit', ['Accept: application/json']),
    check: expectProblem(404),
  },
  {
    name: 'update __proto__: 404',
    bytes: send('PUT', '/posts/__proto__', JSON_T, '{"title":"x"}'),
    check: expectProblem(404),
  },
  {
    name: 'destroy constructor: 404',
    bytes: call('DELETE', '/posts/constructor'),
    check: expectProblem(404),
  },
  {
    name: 'id of 300 characters: the app answers (404)',
    bytes: get(`/posts/${'a'.repeat(300)}`),
    check: expectProblem(404),
  },
  {
    name: 'new with an id of 300 characters: 400',
    bytes: get(`/posts/${'a'.repeat(300)}/new`, ['Accept: application/json']),
    check: expectProblem(400),
  },
  {
    name: 'param of 1 100 characters: 400',
    bytes: get(`/posts/${'a'.repeat(1100)}`),
    check: expectProblem(400, /longer than 1024/),
  },
  {
    name: 'target of 9 000 characters: 414',
    bytes: get(`/posts?q=${'a'.repeat(9000)}`),
    check: expectProblem(414),
  },
  {
    name: 'target of 20 000 characters: 431, closed',
    bytes: get(`/posts?q=${'a'.repeat(20_000)}`),
    check: closes(expectProblem(431)),
  },
  {
    name: 'headers of 20 KB: 431, closed',
    bytes: get('/posts', [`X-Big: ${'a'.repeat(20_000)}`]),
    check: closes(expectProblem(431)),
  },
  {
    name: '2 000 small headers: 431 or served',
    bytes: get(
      '/posts',
      Array.from({ length: 2000 }, (_, i) => `X-H${i}: v`),
    ),
    check: (r) => assert.ok(r.status === 431 || r.status === 200),
  },
];

const hostile = hostileSuite('hostile: routing and paths');
addCases(hostile, CASES);
hostile.run();
