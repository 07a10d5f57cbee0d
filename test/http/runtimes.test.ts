import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite, test } from 'uvu';
import { toFetch } from '../../adapters/fetch.js';
import * as assert from 'uvu/assert';
import { serve, type Running } from '../../adapters/node.js';
import { exchange as send, parseResponse, raw, type RawRequest, type RawResponse } from '../support/http.js';
import { ANSWER_HEADERS, inProcess } from '../support/in-process.js';
import { ROOT } from '../support/paths.js';
import { runtimeApp } from '../support/runtime-apps.js';
import { EXCHANGES, MALFORMED, type Exchange } from '../support/runtime-exchanges.js';
import { needs } from '../support/needs.js';
import { needRuntimes, type Runtime } from '../support/runtimes.js';
import { start, stop, type Started } from '../support/spawn.js';

/**
 * `toFetch` on Bun and Deno answers like the node adapter: examples/posts (tsyringe controllers,
 * reflect-metadata, its schemas, error pages and page headers), served on each from the same built
 * module (test/support/runtime-apps.ts), gets one list of exchanges; status, the headers that
 * matter and the body must be the same, except for what PLATFORM_DIFFERENCES lists, each with why.
 */

/**
 * Where a runtime must answer otherwise than node:http, and why: the fields (`status`, `body`, a
 * header) and what the runtime gives for each, a value or a pattern. A difference not listed fails,
 * and so does a listed one that is gone. docs/runtimes.md "What differs" says the same.
 */
export interface PlatformDifference {
  readonly runtime: 'bun' | 'deno' | 'workerd';
  readonly exchange: string;
  readonly answer: Readonly<Record<string, string | number | undefined | RegExp>>;
  readonly why: string;
}

/** A server's own refusal: no problem+json body, no Vary, before the handler runs. */
const BARE = { body: '', 'content-type': undefined, vary: undefined } as const;

/** The same refusal by the runtime's HTTP parser for each of `exchanges`. */
function refusedBy(
  runtime: PlatformDifference['runtime'],
  why: string,
  exchanges: string[],
  answer = {},
): PlatformDifference[] {
  return exchanges.map((exchange) => ({ runtime, exchange, answer: { ...BARE, ...answer }, why }));
}

export const PLATFORM_DIFFERENCES: readonly PlatformDifference[] = [
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
  ...refusedBy('workerd', "workerd's HTTP parser answers a bare 400 itself", ['no Host on HTTP/1.1'], {
    body: 'Bad Request',
  }),
  ...refusedBy(
    'workerd',
    "workerd's HTTP parser refuses a request with no Host, HTTP/1.0 too, with a bare 400",
    ['HTTP/1.0 without Host', 'a DELETE on HTTP/1.0 without Host'],
    { status: 400, body: 'Bad Request' },
  ),
  ...refusedBy('workerd', "workerd's HTTP parser answers a bare 400 itself", ['invalid header name'], {
    body: 'ERROR: The headers sent by your client are not valid.',
    'content-type': 'text/plain',
  }),
  ...refusedBy('workerd', "workerd's HTTP parser answers a bare 501 itself", ['invalid method token'], {
    status: 501,
    body: 'ERROR: Unrecognized request method.',
    'content-type': 'text/plain',
  }),
  ...refusedBy(
    'workerd',
    "Miniflare's entry worker, in front of the app, fails on what workerd's parser lets through (500)",
    [
      'two Host headers',
      'two different Content-Lengths',
      'Content-Length not a number',
      'a request line in absolute form',
      'a Host that is no host name',
      'a Host holding a path and a query',
      'a Host holding a path and a fragment',
      'a Host holding userinfo',
    ],
    { status: 500, body: 'Internal Server Error' },
  ),
  {
    runtime: 'workerd',
    exchange: 'bad chunk size',
    answer: {
      status: 500,
      body: /^Error: The Workers runtime canceled this request/,
      'content-type': 'text/plain;charset=UTF-8',
      vary: undefined,
    },
    why: "workerd's body stream neither ends nor fails after a bad chunk, and the runtime cancels the request as hung",
  },
  {
    runtime: 'workerd',
    exchange: 'Content-Length with Transfer-Encoding',
    answer: { body: /the request body is empty/ },
    why: 'workerd lets Transfer-Encoding win and hands over the body it framed, so the app, not the parser, answers 400',
  },
  {
    runtime: 'workerd',
    exchange: 'unknown HTTP version',
    answer: { status: 200, body: /^\[\{"id":"first"/, 'content-type': 'application/json; charset=utf-8' },
    why: 'workerd serves a request line of HTTP/1.2; a Request carries no HTTP version for toFetch to refuse',
  },
];

type Fields = Record<string, string | number | undefined>;

/** One answer to a request or to raw bytes; a connection closed without an answer is status 0. */
async function ask(url: string, request: RawRequest | string): Promise<RawResponse> {
  // The first whole answer, not the close: workerd keeps a connection open after `Connection: close`.
  if (typeof request !== 'string') return raw(url, request, true);
  const first = { head: request.startsWith('HEAD ') };
  const text = await send(url, request, 5000, first).catch((error: Error) => `closed: ${error.message}`);
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

const bunDenoWorkerd = needRuntimes(
  ['bun', 'deno', 'workerd'] as const,
  'the Bun, Deno and workerd servers (test/http/runtimes.test.ts)',
);
const runtimes = needs(
  bunDenoWorkerd,
  suite<Servers>('toFetch on Bun, Deno and workerd, examples/posts', { others: [] }),
);

runtimes.before(async (context) => {
  const { source, options } = runtimeApp('posts');
  const env = { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1', POSTS_TOKEN: '' };
  const { bun, deno, workerd } = bunDenoWorkerd.found!;
  const [node, onBun, onDeno, onWorkerd] = await Promise.all([
    serve(source, { ...options, port: 0, host: '127.0.0.1' }),
    start(bun.bin, ['test/runtimes/serve-bun.js', 'posts'], env),
    start(deno.bin, ['run', '-A', '--node-modules-dir=manual', 'test/runtimes/serve-deno.js', 'posts'], env),
    // Miniflare runs workerd from Node, after bundling the app and precompiling its validators.
    start(process.execPath, ['test/runtimes/serve-workerd.js', 'posts'], env),
  ]);
  context.node = node;
  context.others = [
    { runtime: bun, started: onBun },
    { runtime: deno, started: onDeno },
    { runtime: workerd, started: onWorkerd },
  ];
});

runtimes.after(async (context) => {
  await Promise.all([context.node?.close(), ...context.others.map(({ started }) => stop(started))]);
});

const seen = new Set<string>();

runtimes(
  'every exchange: the same status, headers that matter and body as the node adapter',
  async (context) => {
    assert.equal(await compare(context, EXCHANGES, seen), []);
  },
);

runtimes(
  'malformed requests: the same answers, but for what the platform answers itself',
  async (context) => {
    assert.equal(await compare(context, MALFORMED, seen), []);
    const stale = PLATFORM_DIFFERENCES.filter((d) => !seen.has(`${d.runtime}/${d.exchange}`));
    assert.equal(stale, [], 'every PLATFORM_DIFFERENCES entry names an exchange that ran');
  },
);

runtimes('the comparison reports a header, a length or a status that differs', async (context) => {
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

test('toFetch in process :: the exchanges that are requests answered as the node adapter answers them', async () => {
  const app = runtimeApp('posts');
  const node = await serve(app.source, { ...app.options, port: 0, host: '127.0.0.1' });
  const other = runtimeApp('posts');
  const handler = toFetch(other.source, other.options);
  try {
    const problems: string[] = [];
    for (const exchange of EXCHANGES) {
      if (typeof exchange.request === 'string') continue;
      const [expected, answer] = [
        await ask(node.url, exchange.request),
        await inProcess(handler, exchange.request),
      ];
      assert.is(expected.status, exchange.status, exchange.name);
      problems.push(
        ...differences('in process', exchange, comparable(expected), comparable(answer), new Set()),
      );
    }
    assert.equal(problems, []);
  } finally {
    await node.close();
  }
});

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
