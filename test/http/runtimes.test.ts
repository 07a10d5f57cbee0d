import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite, test } from 'uvu';
import { toFetch } from '../../adapters/fetch.js';
import * as assert from 'uvu/assert';
import { serve, type Running } from '../../adapters/node.js';
import { exchange as send, parseResponse, raw, type RawRequest, type RawResponse } from '../support/http.js';
import { ANSWER_HEADERS } from '../support/in-process.js';
import { ROOT } from '../support/paths.js';
import { BROWSER_ACCEPT } from '../support/posts-html-contract.js';
import { RUNTIME_BODY_LIMIT, runtimeApp } from '../support/runtime-apps.js';
import { requireRuntimes, type Runtime } from '../support/runtimes.js';
import { start, stop, type Started } from '../support/spawn.js';

/**
 * `toFetch` on Bun and Deno answers like the node adapter: examples/posts (tsyringe controllers,
 * reflect-metadata, its schemas, error pages and page headers), served on each from the same built
 * module (test/support/runtime-apps.ts), gets one list of exchanges; status, the headers that
 * matter and the body must be the same, except for what PLATFORM_DIFFERENCES lists, each with why.
 */

const JSON_TYPE = { 'Content-Type': 'application/json' };
const SAME_ORIGIN = {
  Accept: BROWSER_ACCEPT,
  'Content-Type': 'application/x-www-form-urlencoded',
  'Sec-Fetch-Site': 'same-origin',
  Origin: 'http://test.local',
};

interface Exchange {
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
  {
    name: 'a Host that is no host name',
    request: 'GET /posts/first HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n',
    status: 200,
  },
  {
    name: 'a request line in absolute form',
    request: 'GET http://test.local/posts/first HTTP/1.1\r\nHost: test.local\r\nConnection: close\r\n\r\n',
    status: 200,
  },
];

/**
 * Where a runtime must answer otherwise than node:http, and why: the fields (`status`, `body`, a
 * header) and what the runtime gives for each, a value or a pattern. A difference not listed fails,
 * and so does a listed one that is gone. docs/runtimes.md "What differs" says the same.
 */
export interface PlatformDifference {
  readonly runtime: 'bun' | 'deno';
  readonly exchange: string;
  readonly answer: Readonly<Record<string, string | number | undefined | RegExp>>;
  readonly why: string;
}

/** A server's own refusal: no problem+json body, no Vary, before the handler runs. */
const BARE = { body: '', 'content-type': undefined, vary: undefined } as const;

/** The same refusal by the runtime's HTTP parser for each of `exchanges`. */
function refusedBy(
  runtime: 'bun' | 'deno',
  why: string,
  exchanges: string[],
  answer = {},
): PlatformDifference[] {
  return exchanges.map((exchange) => ({ runtime, exchange, answer: { ...BARE, ...answer }, why }));
}

export const PLATFORM_DIFFERENCES: readonly PlatformDifference[] = [
  {
    runtime: 'bun',
    exchange: 'malformed JSON: 400',
    answer: { body: /"detail":"malformed JSON body: JSON Parse error: / },
    why: "the detail quotes the engine's JSON.parse message, which JavaScriptCore words otherwise than V8",
  },
  ...refusedBy('bun', "Bun's HTTP parser answers a bare 400 itself", [
    'no Host on HTTP/1.1',
    'Content-Length with Transfer-Encoding',
    'two different Content-Lengths',
    'bad chunk size',
    'Content-Length not a number',
    'invalid method token',
    'invalid header name',
  ]),
  ...refusedBy('bun', "Bun's HTTP parser answers a bare 505 itself", ['unknown HTTP version'], {
    status: 505,
  }),
  ...refusedBy('deno', "Deno's HTTP parser (hyper) answers a bare 400 itself", [
    'two Host headers',
    'Content-Length with Transfer-Encoding',
    'two different Content-Lengths',
    'Content-Length not a number',
    'invalid method token',
    'invalid header name',
    'unknown HTTP version',
  ]),
  ...refusedBy('deno', 'Deno closes the connection without an answer', ['bad chunk size'], { status: 0 }),
  {
    runtime: 'deno',
    exchange: 'no Host on HTTP/1.1',
    answer: { status: 200, body: /^\[\{"id":"first"/, 'content-type': 'application/json; charset=utf-8' },
    why:
      'Deno serves an HTTP/1.1 request without Host, its URL on localhost; a Request carries no HTTP version, ' +
      'so toFetch cannot tell it from `new Request(url)` in a test',
  },
];

type Fields = Record<string, string | number | undefined>;

/** One answer to a request or to raw bytes; a connection closed without an answer is status 0. */
async function ask(url: string, request: RawRequest | string): Promise<RawResponse> {
  if (typeof request !== 'string') return raw(url, request);
  const text = await send(url, request).catch((error: Error) => `closed: ${error.message}`);
  return text.startsWith('HTTP/') ? parseResponse(text) : { status: 0, headers: {}, body: text, wire: text };
}

/** Whether a compared value is the one expected: equal, or matched by a pattern. */
function fits(value: string | number | undefined, expected: string | number | undefined | RegExp): boolean {
  return expected instanceof RegExp ? expected.test(String(value ?? '')) : value === expected;
}

/** What is compared of an answer. */
function comparable(response: RawResponse): Fields {
  const fields: Fields = { status: response.status, body: response.body };
  for (const name of ANSWER_HEADERS) fields[name] = response.headers[name];
  return fields;
}

/** Checks an answer's framing: a length that matches the body, or chunks; never both. */
function framingProblem(response: RawResponse, head: boolean): string | undefined {
  const length = response.headers['content-length'];
  const chunked = response.headers['transfer-encoding'] === 'chunked';
  if (length !== undefined && chunked) return 'both Content-Length and chunked';
  if (chunked || head || length === undefined) return undefined;
  const bytes = Buffer.byteLength(response.body);
  return Number(length) === bytes ? undefined : `Content-Length ${length} for ${bytes} bytes`;
}

/** What differs between node's answer and a runtime's beyond what PLATFORM_DIFFERENCES allows. */
function differences(
  runtime: string,
  exchange: Exchange,
  want: Fields,
  got: Fields,
  seen: Set<string>,
): string[] {
  const allowed = PLATFORM_DIFFERENCES.find((d) => d.runtime === runtime && d.exchange === exchange.name);
  if (allowed !== undefined) seen.add(`${allowed.runtime}/${allowed.exchange}`);
  return Object.keys(want).flatMap((field) => {
    const say = (what: string) => [
      `${runtime} · ${exchange.name} · ${field}: ${what}: node ${JSON.stringify(want[field])}, ${runtime} ${JSON.stringify(got[field])}`,
    ];
    if (allowed !== undefined && field in allowed.answer) {
      const value = allowed.answer[field];
      return fits(got[field], value) && !fits(want[field], value)
        ? []
        : say(`PLATFORM_DIFFERENCES says ${String(value)}`);
    }
    return got[field] === want[field] ? [] : say('differs');
  });
}

interface Servers {
  node?: Running;
  others: Array<{ runtime: Runtime; started: Started }>;
  found?: { bun: Runtime; deno: Runtime };
}

/** Sends `exchanges` in order to node and the other runtimes; what differs beyond PLATFORM_DIFFERENCES. */
async function compare(
  servers: Servers,
  exchanges: readonly Exchange[],
  seen: Set<string>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const exchange of exchanges) {
    const [expected, ...answers] = await Promise.all([
      ask(servers.node!.url, exchange.request),
      ...servers.others.map(({ started }) => ask(started.url, exchange.request)),
    ]);
    // The node adapter's answer is what the exchange says it tests.
    assert.is(expected!.status, exchange.status, `${exchange.name} on node: ${expected!.wire.slice(0, 400)}`);
    for (const [name, value] of Object.entries(exchange.headers ?? {})) {
      const actual = expected!.headers[name];
      assert.ok(fits(actual, value), `${exchange.name} on node: ${name}: ${actual}`);
    }
    if (exchange.body !== undefined)
      assert.match(expected!.body, exchange.body, `${exchange.name} on node: body`);
    const head = typeof exchange.request !== 'string' && exchange.request.method === 'HEAD';
    servers.others.forEach(({ runtime }, i) => {
      const answer = answers[i]!;
      const framing = framingProblem(answer, head);
      if (framing !== undefined) problems.push(`${runtime.name} · ${exchange.name}: ${framing}`);
      problems.push(...differences(runtime.name, exchange, comparable(expected!), comparable(answer), seen));
    });
  }
  return problems;
}

const runtimes = suite<Servers>('toFetch on Bun and Deno, examples/posts', { others: [] });

runtimes.before(async (context) => {
  context.found = requireRuntimes(
    ['bun', 'deno'] as const,
    'the Bun and Deno servers (test/http/runtimes.test.ts)',
  );
  if (context.found === undefined) return;
  const { source, options } = runtimeApp('posts');
  const env = { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1', POSTS_TOKEN: '' };
  const { bun, deno } = context.found;
  const [node, onBun, onDeno] = await Promise.all([
    serve(source, { ...options, port: 0, host: '127.0.0.1' }),
    start(bun.bin, ['test/runtimes/serve-bun.js', 'posts'], env),
    start(deno.bin, ['run', '-A', '--node-modules-dir=manual', 'test/runtimes/serve-deno.js', 'posts'], env),
  ]);
  context.node = node;
  context.others = [
    { runtime: bun, started: onBun },
    { runtime: deno, started: onDeno },
  ];
});

runtimes.after(async (context) => {
  await Promise.all([context.node?.close(), ...context.others.map(({ started }) => stop(started))]);
});

const seen = new Set<string>();

runtimes(
  'every exchange: the same status, headers that matter and body as the node adapter',
  async (context) => {
    if (context.found === undefined) return;
    assert.equal(await compare(context, EXCHANGES, seen), []);
  },
);

runtimes(
  'malformed requests: the same answers, but for what the platform answers itself',
  async (context) => {
    if (context.found === undefined) return;
    assert.equal(await compare(context, MALFORMED, seen), []);
    const stale = PLATFORM_DIFFERENCES.filter((d) => !seen.has(`${d.runtime}/${d.exchange}`));
    assert.equal(stale, [], 'every PLATFORM_DIFFERENCES entry names an exchange that ran');
  },
);

runtimes('the comparison reports a header, a length or a status that differs', async (context) => {
  if (context.found === undefined) return;
  const answer = await raw(context.node!.url, { path: '/posts' });
  const exchange = { name: 'index', request: { path: '/posts' }, status: 200 };
  const want = comparable(answer);
  const problems = differences(
    'bun',
    exchange,
    want,
    { ...want, vary: 'Accept, Origin', status: 500 },
    new Set(),
  );
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.match(problems[0]!, /status: differs: node 200, bun 500/);
  const bytes = Buffer.byteLength(answer.body);
  const longer = { ...answer, headers: { 'content-length': String(bytes + 1) } };
  assert.is(framingProblem(longer, false), `Content-Length ${bytes + 1} for ${bytes} bytes`);
});

runtimes.run();

test('toFetch :: a Host joined from two (Bun serves `Host: a, b`) is refused as the node adapter refuses two', async () => {
  const { source, options } = runtimeApp('posts');
  const handler = toFetch(source, options);
  const joined = await handler(new Request('http://x/posts', { headers: { host: 'a, b' } }));
  assert.is(joined.status, 400);
  assert.match(await joined.text(), /more than one Host header/);
  const one = await handler(new Request('http://x/posts', { headers: { host: 'a:8080' } }));
  assert.is(one.status, 200);
});

test('docs/runtimes.md :: "What differs" names every PLATFORM_DIFFERENCES entry', () => {
  const page = readFileSync(join(ROOT, 'docs', 'runtimes.md'), 'utf8');
  const section = page.slice(page.indexOf('## What differs'));
  assert.ok(section.length < page.length, 'docs/runtimes.md has a "What differs" section');
  const names = new Set(PLATFORM_DIFFERENCES.map((d) => d.exchange.replace(/: \d{3}$/, '')));
  assert.equal(
    [...names].filter((name) => !section.toLowerCase().includes(name.toLowerCase())),
    [],
  );
});

test.run();
