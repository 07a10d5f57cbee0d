import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { client, type RouteRecord } from '../../core/client/index.js';
import { watch, WatchError, type WatchEvent } from '../../core/client/watch.js';

/** Rejects once `ms` have passed, so that a test that waits for what never comes fails instead of hanging. */
function within<T>(promise: Promise<T>, what: string, ms = 2000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** One connection of the scripted server: its request, and its body, written by the test. */
interface Connection {
  readonly request: Request;
  write(text: string | Uint8Array): void;
  /** The body ends: the server closed the stream. */
  end(): void;
  /** The body fails: the connection dropped. */
  drop(): void;
  /** Resolves once the client cancelled the body. */
  readonly cancelled: Promise<void>;
}

/** What the scripted server answers the nth request (from 1) instead of an event stream, if anything. */
type Answer = (n: number, request: Request) => Response | Error | undefined;

/** A server whose every event stream the test writes, chunk by chunk: `fetch` is the client's. */
class Script {
  /** By request, from 0: none for a request answered otherwise. */
  readonly connections: Connection[] = [];
  readonly requests: Request[] = [];
  readonly #waiting = new Map<number, () => void>();

  constructor(private readonly answer: Answer = () => undefined) {}

  readonly fetch = (request: Request): Response => {
    this.requests.push(request);
    const other = this.answer(this.requests.length, request);
    this.#waiting.get(this.requests.length)?.();
    if (other instanceof Error) throw other;
    if (other !== undefined) return other;
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let cancel!: () => void;
    const cancelled = new Promise<void>((resolve) => (cancel = resolve));
    const body = new ReadableStream<Uint8Array>({
      start: (c) => void (controller = c),
      cancel: () => cancel(),
    });
    this.connections[this.requests.length - 1] = {
      request,
      write: (text) => controller.enqueue(typeof text === 'string' ? encoder.encode(text) : text),
      end: () => controller.close(),
      drop: () => controller.error(new TypeError('terminated')),
      cancelled,
    };
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };

  /** Resolves once the nth request (from 1) was made. */
  request(n: number): Promise<Request> {
    if (this.requests.length >= n) return Promise.resolve(this.requests[n - 1]!);
    return within(
      new Promise((resolve) => this.#waiting.set(n, () => resolve(this.requests[n - 1]!))),
      `request ${n}`,
    );
  }

  /** Resolves with the nth connection (from 1) once it is open. */
  async connection(n: number): Promise<Connection> {
    await this.request(n);
    return this.connections[n - 1]!;
  }
}

const EVENTS = { created: {}, updated: {}, destroyed: {}, reload: {} };
const ROUTES: readonly RouteRecord[] = [
  { resource: 'posts', action: 'index', method: 'GET', path: '/posts', events: EVENTS },
  { resource: 'posts', action: 'show', method: 'GET', path: '/posts/:post_id', events: EVENTS },
  { resource: 'posts', action: 'create', method: 'POST', path: '/posts' },
];

/** A client of the scripted server, and a watch of its index that a test ends by `stop()`. */
function watching(answer?: Answer, options: { readonly lastEventId?: string; readonly retry?: number } = {}) {
  const script = new Script(answer);
  const api = client(ROUTES, { baseUrl: 'http://test', fetch: script.fetch, headers: { 'x-app': 'a' } });
  const control = new AbortController();
  const events = watch(api.posts!.index!, { retry: 0, ...options, signal: control.signal });
  const next = async (what = 'an event') => {
    const step = await within(events.next(), what);
    assert.not.ok(step.done, `${what}: the watch ended`);
    return step.value as WatchEvent;
  };
  return { script, api, events, next, stop: () => control.abort() };
}

// prettier-ignore
const PARSING: readonly { name: string; chunks: readonly (string | number[])[]; events: readonly unknown[] }[] = [
  { name: 'LF', chunks: ['event: created\nid: 1\ndata: {"a":1}\n\n'], events: [{ event: 'created', id: '1', data: { a: 1 } }] },
  { name: 'CRLF', chunks: ['event: created\r\nid: 1\r\ndata: 1\r\n\r\n'], events: [{ event: 'created', id: '1', data: 1 }] },
  { name: 'CR', chunks: ['event: created\rid: 1\rdata: 1\r\r'], events: [{ event: 'created', id: '1', data: 1 }] },
  { name: 'a CRLF split between chunks is one line break', chunks: ['event: created\r', '\ndata: 1\r', '\n\r', '\n'], events: [{ event: 'created', data: 1 }] },
  { name: 'a CR ending a chunk ends its line at once', chunks: ['event: created\rdata: 1\r', '\revent: updated\ndata: 2\n\n'], events: [{ event: 'created', data: 1 }, { event: 'updated', data: 2 }] },
  { name: 'data lines joined with \\n', chunks: ['event: created\ndata: {"text":\ndata: "a\\nb"}\n\n'], events: [{ event: 'created', data: { text: 'a\nb' } }] },
  { name: 'comments and heartbeats ignored', chunks: [':\n\n: hello\n\nevent: created\n: inside\ndata: 1\n\n:\n\n'], events: [{ event: 'created', data: 1 }] },
  { name: 'no space after the colon, and only one space dropped', chunks: ['event:created\ndata:  "x"\n\n'], events: [{ event: 'created', data: 'x' }] },
  { name: 'fields split anywhere between chunks', chunks: ['ev', 'ent: upd', 'ated\nda', 'ta: [1,', '2]\n', '\n'], events: [{ event: 'updated', data: [1, 2] }] },
  { name: 'a byte order mark at the start', chunks: [[0xef, 0xbb, 0xbf], 'event: created\ndata: 1\n\n'], events: [{ event: 'created', data: 1 }] },
  { name: 'UTF-8 split between chunks', chunks: [[...new TextEncoder().encode('event: created\ndata: "é').slice(0, -1)], [0xa9], '"\n\n'], events: [{ event: 'created', data: 'é' }] },
  { name: 'an id kept for the events after it', chunks: ['id: 7\nevent: created\ndata: 1\n\nevent: updated\ndata: 2\n\n'], events: [{ event: 'created', id: '7', data: 1 }, { event: 'updated', id: '7', data: 2 }] },
  { name: 'an id with NUL ignored', chunks: ['id: 7\n\nid: a\0b\nevent: created\ndata: 1\n\n'], events: [{ event: 'created', id: '7', data: 1 }] },
  { name: 'an event without data is none', chunks: ['event: created\n\nevent: updated\ndata: 2\n\n'], events: [{ event: 'updated', data: 2 }] },
  { name: 'an event the route does not declare, or an unnamed one, skipped', chunks: ['event: renamed\ndata: 1\n\ndata: 2\n\nevent: reload\ndata: {"reason":"r"}\n\n'], events: [{ event: 'reload', data: { reason: 'r' } }] },
  { name: 'a field it does not know ignored', chunks: ['event: created\nfoo: bar\ndata\ndata: 1\n\n'], events: [{ event: 'created', data: 1 }] },
];

for (const { name, chunks, events } of PARSING)
  test(`watch() :: parses event streams: ${name}`, async () => {
    const { script, next, stop } = watching();
    const first = next();
    const connection = await script.connection(1);
    for (const chunk of chunks) connection.write(typeof chunk === 'string' ? chunk : new Uint8Array(chunk));
    const seen = [await first];
    while (seen.length < events.length) seen.push(await next());
    assert.equal(seen, events);
    stop();
  });

test('watch() :: asks for an event stream with the client’s headers and the call’s params', async () => {
  const script = new Script();
  const api = client(ROUTES, { baseUrl: 'http://test/v1/', fetch: script.fetch, headers: { 'x-app': 'a' } });
  const control = new AbortController();
  const events = watch(api.posts!.show!, {
    params: { post_id: 'a b' },
    query: { since: 1 },
    headers: { 'x-call': 'c', accept: 'application/json' },
    signal: control.signal,
  });
  const first = events.next();
  const { request } = await script.connection(1);
  assert.is(request.url, 'http://test/v1/posts/a%20b?since=1');
  assert.is(request.method, 'GET');
  assert.is(request.headers.get('accept'), 'text/event-stream');
  assert.is(request.headers.get('x-app'), 'a');
  assert.is(request.headers.get('x-call'), 'c');
  assert.is(request.headers.get('last-event-id'), null);
  control.abort();
  assert.equal(await within(first, 'the end'), { done: true, value: undefined });
});

test('watch() :: reconnects after the stream ends, sending the last id as Last-Event-ID', async () => {
  const { script, next, stop } = watching(undefined, { lastEventId: 'b-1' });
  const first = next();
  const one = await script.connection(1);
  assert.is(one.request.headers.get('last-event-id'), 'b-1');
  one.write('id: b-2\nevent: created\ndata: 2\n\n');
  assert.equal(await first, { event: 'created', id: 'b-2', data: 2 });
  one.end();
  const second = next();
  const two = await script.connection(2);
  assert.is(two.request.headers.get('last-event-id'), 'b-2');
  two.write('id: b-3\nevent: updated\ndata: 3\n\n');
  assert.equal(await second, { event: 'updated', id: 'b-3', data: 3 });
  stop();
});

test('watch() :: reconnects after the connection drops; an event cut off is dropped and its id unused', async () => {
  const { script, next, stop } = watching();
  const first = next();
  const one = await script.connection(1);
  one.write('id: 1\nevent: created\ndata: 1\n\nid: 2\nevent: created\ndata: 2\n');
  assert.equal(await first, { event: 'created', id: '1', data: 1 });
  one.drop();
  const second = next();
  const two = await script.connection(2);
  assert.is(two.request.headers.get('last-event-id'), '1');
  two.write('id: 2\nevent: created\ndata: 2\n\n');
  assert.equal(await second, { event: 'created', id: '2', data: 2 });
  stop();
});

test('watch() :: an id on an event with no data counts for the resume', async () => {
  const { script, next, stop } = watching();
  const first = next();
  const one = await script.connection(1);
  one.write('id: 5\n\n');
  one.end();
  const two = await script.connection(2);
  assert.is(two.request.headers.get('last-event-id'), '5');
  two.write('event: reload\ndata: {"reason":"missed"}\n\n');
  assert.equal(await first, { event: 'reload', id: '5', data: { reason: 'missed' } });
  stop();
});

test('watch() :: honours the server’s retry: a delay of 0 reconnects where the client’s own would wait a minute', async () => {
  const { script, next, stop } = watching(undefined, { retry: 60_000 });
  const first = next();
  const one = await script.connection(1);
  one.write('retry: 0\n\n');
  one.end();
  const two = await script.connection(2);
  two.write('event: created\ndata: 1\n\n');
  assert.equal(await first, { event: 'created', data: 1 });
  stop();
});

test('watch() :: a network error on a reconnection is retried; on the first connection it throws', async () => {
  const refused = new TypeError('fetch failed');
  const { script, next, stop } = watching((n) => (n === 2 || n === 3 ? refused : undefined));
  const first = next();
  (await script.connection(1)).end();
  (await script.connection(4)).write('event: created\ndata: 4\n\n');
  assert.equal(await first, { event: 'created', data: 4 });
  stop();

  const failing = watching(() => refused);
  try {
    await within(failing.events.next(), 'the first connection');
    assert.unreachable('the first connection failed');
  } catch (error) {
    assert.is(error, refused);
  }
});

const problem = (status: number, detail: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: 'about:blank', title: 'Refused', status, detail }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });

for (const status of [401, 403, 404, 500, 503])
  test(`watch() :: a ${status} throws a WatchError with its status and problem`, async () => {
    const { events } = watching(() => problem(status, `no watching (${status})`));
    try {
      await within(events.next(), 'the refusal');
      assert.unreachable('refused');
    } catch (error) {
      assert.instance(error, WatchError);
      const refused = error as WatchError;
      assert.is(refused.name, 'WatchError');
      assert.is(refused.status, status);
      assert.equal(refused.body, {
        type: 'about:blank',
        title: 'Refused',
        status,
        detail: `no watching (${status})`,
      });
      assert.is(refused.headers.get('content-type'), 'application/problem+json');
      assert.is(refused.message, `watch(client().posts.index): answered ${status}: no watching (${status})`);
    }
  });

test('watch() :: a 200 that is no event stream throws, naming the watch option', async () => {
  const { events } = watching(() => Response.json([{ id: '1' }]));
  try {
    await within(events.next(), 'the refusal');
    assert.unreachable('refused');
  } catch (error) {
    assert.instance(error, WatchError);
    assert.is((error as WatchError).status, 200);
    assert.equal((error as WatchError).body, [{ id: '1' }]);
    assert.match(
      (error as Error).message,
      /not text\/event-stream: is its resource declared with \{ watch \}\?/,
    );
  }
});

for (const status of [503, 429])
  test(`watch() :: a ${status} with Retry-After is waited out and tried again`, async () => {
    const { script, next, stop } = watching((n) =>
      n === 1 ? problem(status, 'full', { 'retry-after': '0' }) : undefined,
    );
    const first = next();
    (await script.connection(2)).write('event: created\ndata: 1\n\n');
    assert.equal(await first, { event: 'created', data: 1 });
    assert.is(script.requests.length, 2);
    stop();
  });

test('watch() :: abort ends the loop with no error and cancels the body; an aborted watch fetches nothing', async () => {
  const { script, events, next, stop } = watching();
  const first = next();
  const one = await script.connection(1);
  one.write('event: created\ndata: 1\n\n');
  await first;
  const pending = events.next();
  stop();
  assert.equal(await within(pending, 'the end'), { done: true, value: undefined });
  await within(one.cancelled, 'the body cancelled');
  assert.equal(await events.next(), { done: true, value: undefined });
  assert.is(script.requests.length, 1);

  const script2 = new Script();
  const api = client(ROUTES, { baseUrl: 'http://test', fetch: script2.fetch });
  const events2 = watch(api.posts!.index!, { signal: AbortSignal.abort() });
  assert.equal(await within(events2.next(), 'the end'), { done: true, value: undefined });
  assert.is(script2.requests.length, 0);
});

test('watch() :: abort while waiting to reconnect ends the loop', async () => {
  const { script, events, stop } = watching(undefined, { retry: 60_000 });
  const pending = events.next();
  (await script.connection(1)).end();
  stop();
  assert.equal(await within(pending, 'the end'), { done: true, value: undefined });
  assert.is(script.requests.length, 1);
});

test('watch() :: break in for await cancels the body and fetches no more', async () => {
  const { script, events } = watching();
  const got: unknown[] = [];
  const loop = (async () => {
    for await (const event of events) {
      got.push(event);
      break;
    }
  })();
  const one = await script.connection(1);
  one.write('event: created\ndata: 1\n\nevent: created\ndata: 2\n\n');
  await within(loop, 'the loop');
  await within(one.cancelled, 'the body cancelled');
  assert.equal(got, [{ event: 'created', data: 1 }]);
  assert.equal(await events.next(), { done: true, value: undefined });
  assert.is(script.requests.length, 1);
});

test('watch() :: data that is not JSON throws, and the body is cancelled', async () => {
  const { script, events } = watching();
  const first = events.next();
  const one = await script.connection(1);
  one.write('event: created\ndata: {not json\n\n');
  try {
    await within(first, 'the event');
    assert.unreachable('not JSON');
  } catch (error) {
    assert.instance(error, SyntaxError);
  }
  await within(one.cancelled, 'the body cancelled');
});

test('watch() :: refuses what it cannot watch before fetching anything', () => {
  const script = new Script();
  const api = client(ROUTES, { baseUrl: 'http://test', fetch: script.fetch });
  assert.throws(
    () => watch(api.posts!.create!),
    (error: Error) =>
      error instanceof TypeError &&
      error.message ===
        'watch(client().posts.create): POST /posts streams no events: declare its resource with { watch } (sevenfold/live), and give client() the table or a listing that prints "events"',
  );
  assert.throws(
    () => watch((() => {}) as never),
    /^watch\(\): watch a call of client\(\), such as watch\(api\.posts\.index\)$/,
  );
  assert.throws(() => watch(api.posts!.show!), /^client\(\)\.posts\.show: missing value for :post_id/);
  assert.throws(() => watch(api.posts!.index!, { retry: -1 }), /retry must be milliseconds, at least 0/);
  assert.is(script.requests.length, 0);
});

test.run();
