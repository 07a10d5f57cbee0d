// The exchanges test/http/runtimes.test.ts sends to examples/posts on every runtime, and the precompiled
// validators' test in process.
import { BROWSER_ACCEPT } from './posts-html-contract.js';
import type { RawRequest } from './http.js';
import { RUNTIME_BODY_LIMIT } from './runtime-apps.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const SAME_ORIGIN = {
  Accept: BROWSER_ACCEPT,
  'Content-Type': 'application/x-www-form-urlencoded',
  'Sec-Fetch-Site': 'same-origin',
  Origin: 'http://test.local',
};

export interface Exchange {
  readonly name: string;
  /** A request, or the raw bytes of one (for what an HTTP parser should refuse). */
  readonly request: RawRequest | string;
  /** The status the node adapter must give, so each exchange tests what its name says. */
  readonly status: number;
  /** Headers the node adapter's answer must carry (a value, or a pattern). */
  readonly headers?: Readonly<Record<string, string | RegExp>>;
  readonly body?: RegExp;
}

/** In order: the store starts empty on each server, and each sees the same writes. */
export const EXCHANGES: readonly Exchange[] = [
  { name: 'index, empty', request: { path: '/posts' }, status: 200, body: /^\[\]$/ },
  { name: 'unknown path: 404', request: { path: '/nope' }, status: 404 },
  {
    name: 'unknown path as a page: the HTML error page',
    request: { path: '/nope', headers: { Accept: BROWSER_ACCEPT } },
    status: 404,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': /default-src/ },
    body: /^<!doctype html>/,
  },
  {
    name: 'method not allowed: 405 with Allow',
    request: { method: 'DELETE', path: '/posts' },
    status: 405,
    headers: { allow: /GET, HEAD, POST/ },
  },
  { name: 'OPTIONS', request: { method: 'OPTIONS', path: '/posts' }, status: 204, headers: { allow: /GET/ } },
  {
    name: 'create: 201 with Location',
    request: {
      method: 'POST',
      path: '/posts',
      headers: JSON_TYPE,
      body: '{"id":"first","title":"Hello","body":"é ✓"}',
    },
    status: 201,
    headers: { location: '/posts/first' },
  },
  {
    name: 'create without a title: 422 with field errors',
    request: { method: 'POST', path: '/posts', headers: JSON_TYPE, body: '{"body":"no title"}' },
    status: 422,
    headers: { 'content-type': /^application\/problem\+json/ },
    body: /"title":\["is required"\]/,
  },
  {
    name: 'a generated id',
    request: { method: 'POST', path: '/posts', headers: JSON_TYPE, body: '{"title":"Second"}' },
    status: 201,
    headers: { location: '/posts/gen-1' },
  },
  { name: 'HEAD', request: { method: 'HEAD', path: '/posts/first' }, status: 200, body: /^$/ },
  { name: 'show, percent-escaped', request: { path: '/posts/fir%73t' }, status: 200, body: /"Hello"/ },
  { name: 'an escaped UTF-8 id: 404', request: { path: '/posts/caf%C3%A9' }, status: 404 },
  { name: 'a bad escape', request: { path: '/posts/%E0%A4%A' }, status: 400 },
  {
    name: 'query parsed and checked',
    request: { path: '/posts?limit=1&offset=1' },
    status: 200,
    body: /"gen-1"/,
  },
  { name: 'query refused: 400', request: { path: '/posts?limit=abc' }, status: 400 },
  {
    name: 'the page of a post (page headers)',
    request: { path: '/posts/first', headers: { Accept: BROWSER_ACCEPT } },
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'x-content-type-options': 'nosniff' },
    body: /<h1>Hello<\/h1>/,
  },
  {
    name: 'a form PUT through _method: 303',
    request: {
      method: 'POST',
      path: '/posts/first',
      headers: SAME_ORIGIN,
      body: '_method=PUT&title=Edited&body=x',
    },
    status: 303,
    headers: { location: '/posts/first' },
  },
  {
    name: 'a refused form: 422, the form again',
    request: { method: 'POST', path: '/posts', headers: SAME_ORIGIN, body: 'title=+++' },
    status: 422,
    headers: { 'content-type': 'text/html; charset=utf-8' },
  },
  {
    name: 'a cross-site form: 403',
    request: {
      method: 'POST',
      path: '/posts/first',
      headers: { ...SAME_ORIGIN, 'Sec-Fetch-Site': 'cross-site' },
      body: '_method=DELETE',
    },
    status: 403,
  },
  {
    name: 'over bodyLimit: 413',
    request: {
      method: 'POST',
      path: '/posts',
      headers: JSON_TYPE,
      body: JSON.stringify({ title: 't', body: 'b'.repeat(RUNTIME_BODY_LIMIT) }),
    },
    status: 413,
  },
  {
    name: 'unsupported media type: 415',
    request: { method: 'POST', path: '/posts', headers: { 'Content-Type': 'text/plain' }, body: 'x' },
    status: 415,
  },
  {
    name: 'malformed JSON: 400',
    request: { method: 'POST', path: '/posts', headers: JSON_TYPE, body: '{"title":' },
    status: 400,
  },
  { name: 'destroy', request: { method: 'DELETE', path: '/posts/gen-1' }, status: 204 },
  { name: 'index at the end', request: { path: '/posts' }, status: 200, body: /"Edited"/ },
];

/**
 * Malformed requests, as raw bytes (from test/http/hostile-framing.test.ts), and two well-formed
 * ones in rarer framing: node:http's parser refuses the malformed and the node adapter answers its
 * problem+json 400; Bun's and Deno's servers answer some of them themselves, before the handler.
 */
export const MALFORMED: readonly Exchange[] = [
  { name: 'no Host on HTTP/1.1', request: 'GET /posts HTTP/1.1\r\nConnection: close\r\n\r\n', status: 400 },
  {
    name: 'two Host headers',
    request: 'GET /posts HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'Content-Length with Transfer-Encoding',
    request:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n',
    status: 400,
  },
  {
    name: 'two different Content-Lengths',
    request:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 20\r\nConnection: close\r\n\r\n{}',
    status: 400,
  },
  {
    name: 'bad chunk size',
    request:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    status: 400,
  },
  {
    name: 'Content-Length not a number',
    request:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\nConnection: close\r\n\r\n{}',
    status: 400,
  },
  {
    name: 'invalid method token',
    request: 'G@T /posts HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'invalid header name',
    request: 'GET /posts HTTP/1.1\r\nHost: x\r\nBad Header: v\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'unknown HTTP version',
    request: 'GET /posts HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'a chunked body',
    request:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\n{"tit\r\n9\r\nle":"ch"}\r\n0\r\n\r\n',
    status: 201,
    headers: { location: '/posts/gen-2' },
  },
  // Bun's URL is the path alone without a Host that names a host: still the same route, and the same host.
  { name: 'HTTP/1.0 without Host', request: 'GET /posts/first HTTP/1.0\r\n\r\n', status: 200 },
  { name: 'a DELETE on HTTP/1.0 without Host', request: 'DELETE /posts/none HTTP/1.0\r\n\r\n', status: 404 },
  // A Host is a host name and a port: what follows a `/ ? # @` or a space in it must never pick the route (Deno
  // builds its URL from the Host as sent).
  {
    name: 'a Host that is no host name',
    request: 'GET /posts/first HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'a Host holding a path and a query',
    request: 'GET /posts HTTP/1.1\r\nHost: 127.0.0.1:4231/healthz?\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'a Host holding a path and a fragment',
    request: 'GET /secrets HTTP/1.1\r\nHost: x/posts/first#\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'a Host holding userinfo',
    request: 'GET /posts/first HTTP/1.1\r\nHost: a@b\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'a Host that is an IPv6 literal with a port',
    request: 'GET /posts/first HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n',
    status: 200,
  },
  {
    name: 'a request line in absolute form',
    request: 'GET http://test.local/posts/first HTTP/1.1\r\nHost: test.local\r\nConnection: close\r\n\r\n',
    status: 200,
  },
];
