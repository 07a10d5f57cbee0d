// A client of event streams for the tests: a response read as it comes, over a socket or from toFetch in process,
// every wait bounded.
import { connect, type Socket } from 'node:net';
import type { RequestListener } from 'node:http';
import * as assert from 'uvu/assert';
import polka from 'polka';
import polkaNext from 'polka-next';
import { toFetch, type FetchApp, type FetchOptions } from '../../adapters/fetch.js';
import { listen, serve, type Running, type ServeOptions } from '../../adapters/node.js';
import { mount } from '../../adapters/polka.js';
import { HttpError, type EventSink, type HandlerRequest, type Routable } from '../../core/index.js';
import { requestText, type RawRequest } from './http.js';
import { toRequest } from './in-process.js';

/** How a body ended: its last chunk came (`end`), or the connection or stream broke first (`cut`). */
export type Ending = 'end' | 'cut';

/** A response being read: its head at once, its body as it comes. */
export interface OpenStream {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body read so far, as text. */
  readonly body: string;
  /** Resolves with the body once it holds `text` (or `pattern` matches it); rejects after `ms`. */
  until(text: string | RegExp, ms?: number): Promise<string>;
  /** Resolves with how the body ended; rejects after `ms`. */
  ended(ms?: number): Promise<Ending>;
  /** Stops reading: bytes pile up on the server's side. */
  pause(): void;
  /** Reads again, and everything from now on. */
  resume(): void;
  /** The client goes away: the socket destroyed, or the body cancelled. */
  leave(): void;
}

/** One server under test for streams: an adapter on a socket, or toFetch in process. */
export interface StreamTarget {
  readonly name: string;
  /** Sends a request and resolves once the response's head has come. */
  open(request: RawRequest): Promise<OpenStream>;
  /**
   * Sends a request and goes away once `leave` resolves, before its answer: the socket destroyed, or the
   * request's signal aborted. Resolves once gone.
   */
  abandon(request: RawRequest, leave: Promise<unknown>): Promise<void>;
  /** Stops the server the way it stops in production: `running.close()`, or the handler's `drain()`. */
  close(): Promise<{ cut: number } | number>;
}

/** What waits on a stream's body: a condition and its resolution. */
interface Waiter {
  test(): boolean;
  done(): void;
}

/** The body state both kinds of client share: text, an ending, and the waits on them. */
class BodyState {
  text = '';
  ending: Ending | undefined = undefined;
  readonly #waiters = new Set<Waiter>();
  readonly #decoder = new TextDecoder();

  push(bytes: Uint8Array): void {
    this.text += this.#decoder.decode(bytes, { stream: true });
    this.#check();
  }

  finish(ending: Ending): void {
    if (this.ending !== undefined) return;
    this.text += this.#decoder.decode();
    this.ending = ending;
    this.#check();
  }

  until(what: string | RegExp, ms: number, name: string): Promise<string> {
    const has = () => (typeof what === 'string' ? this.text.includes(what) : what.test(this.text));
    return this.#wait(has, ms, () => `${name}: no ${String(what)} in the body within ${ms} ms`).then(() => {
      if (!has())
        throw new Error(
          `${name}: the body ended (${this.ending}) without ${String(what)}: ${JSON.stringify(this.text.slice(-300))}`,
        );
      return this.text;
    });
  }

  ended(ms: number, name: string): Promise<Ending> {
    return this.#wait(
      () => false,
      ms,
      () => `${name}: the body did not end within ${ms} ms`,
    ).then(() => this.ending!);
  }

  /** Resolves once `test` holds or the body ends; rejects after `ms`, saying what came so far. */
  #wait(test: () => boolean, ms: number, say: () => string): Promise<void> {
    if (test() || this.ending !== undefined) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        test,
        done: () => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`${say()}; so far: ${JSON.stringify(this.text.slice(-300))}`));
      }, ms);
      this.#waiters.add(waiter);
    });
  }

  #check(): void {
    for (const waiter of [...this.#waiters]) if (this.ending !== undefined || waiter.test()) waiter.done();
  }
}

/** A chunked body decoded as it comes: chunk data out, and whether the last chunk came. */
class Dechunker {
  #buffer = Buffer.alloc(0);
  #left = 0;
  last = false;

  /** The data in `bytes`, as far as it goes. */
  take(bytes: Buffer): Buffer[] {
    this.#buffer = Buffer.concat([this.#buffer, bytes]);
    const out: Buffer[] = [];
    for (;;) {
      if (this.last) return out;
      if (this.#left > 0) {
        const part = this.#buffer.subarray(0, this.#left);
        if (part.length === 0) return out;
        out.push(part);
        this.#left -= part.length;
        this.#buffer = this.#buffer.subarray(part.length);
        if (this.#left > 0) return out;
        // The CRLF after the chunk's data is read with the next size line.
        continue;
      }
      const text = this.#buffer.toString('latin1');
      const start = text.startsWith('\r\n') ? 2 : 0;
      const line = text.indexOf('\r\n', start);
      if (line === -1) return out;
      const size = parseInt(text.slice(start, line), 16);
      if (size === 0) {
        this.last = true;
        return out;
      }
      this.#left = size;
      this.#buffer = this.#buffer.subarray(line + 2);
    }
  }
}

/** Opens `request` on a raw socket to `url` and resolves once the response head came. */
export function openOnSocket(url: string, request: RawRequest, name: string, ms = 5000): Promise<OpenStream> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  const state = new BodyState();
  const head = request.method === 'HEAD';
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    let opened: OpenStream | undefined;
    let dechunk: Dechunker | undefined;
    let length: number | undefined;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${name}: no response head within ${ms} ms`));
    }, ms);
    const body = (bytes: Buffer): void => {
      if (dechunk !== undefined) {
        for (const part of dechunk.take(bytes)) state.push(part);
        if (dechunk.last) state.finish('end');
        return;
      }
      state.push(bytes);
      if (length !== undefined && Buffer.byteLength(state.text) >= length) state.finish('end');
    };
    socket.on('data', (chunk: Buffer) => {
      if (opened !== undefined) return body(chunk);
      received = Buffer.concat([received, chunk]);
      const split = received.indexOf('\r\n\r\n');
      if (split === -1) return;
      const lines = received.subarray(0, split).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!)?.[1]);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      clearTimeout(timer);
      if (headers['transfer-encoding'] === 'chunked') dechunk = new Dechunker();
      else if (headers['content-length'] !== undefined) length = Number(headers['content-length']);
      opened = {
        status,
        headers,
        get body() {
          return state.text;
        },
        until: (text, wait = 5000) => state.until(text, wait, name),
        ended: (wait = 5000) => state.ended(wait, name),
        pause: () => socket.pause(),
        resume: () => socket.resume(),
        leave: () => socket.destroy(),
      };
      if (head || status === 204 || status === 304 || length === 0) state.finish('end');
      body(received.subarray(split + 4));
      resolve(opened);
    });
    socket.on('error', () => state.finish('cut'));
    // A body the close ends (no length, not chunked) ends whole; any other ends cut.
    socket.on('close', () => {
      clearTimeout(timer);
      if (opened === undefined) reject(new Error(`${name}: the connection closed before a response head`));
      state.finish(dechunk === undefined && length === undefined ? 'end' : 'cut');
    });
    socket.write(requestText(request));
  });
}

/** Opens `request` on a fetch handler in process; the body is read as it comes, unless paused. */
export async function openInProcess(
  handler: (request: Request) => Response | Promise<Response>,
  request: RawRequest,
  name: string,
): Promise<OpenStream> {
  const response = await handler(toRequest(request));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  const state = new BodyState();
  const reader = response.body?.getReader();
  let paused = false;
  let reading = false;
  const pump = async (): Promise<void> => {
    if (reader === undefined || reading) return;
    reading = true;
    try {
      while (!paused && state.ending === undefined) {
        const { done, value } = await reader.read();
        if (done) return state.finish('end');
        state.push(value);
      }
    } catch {
      state.finish('cut');
    } finally {
      reading = false;
    }
  };
  if (reader === undefined) state.finish('end');
  else void pump();
  return {
    status: response.status,
    headers,
    get body() {
      return state.text;
    },
    until: (text, wait = 5000) => state.until(text, wait, name),
    ended: (wait = 5000) => state.ended(wait, name),
    pause: () => void (paused = true),
    resume: () => {
      paused = false;
      void pump();
    },
    leave: () => {
      paused = true;
      void reader?.cancel().catch(() => {});
      state.finish('cut');
    },
  };
}

/** A started node server as a stream target. */
function onSocket(name: string, running: Running): StreamTarget {
  return {
    name,
    open: (request) => openOnSocket(running.url, request, name),
    abandon: async (request, leave) => {
      const { hostname, port } = new URL(running.url);
      const socket = connect(Number(port), hostname);
      socket.on('error', () => {});
      socket.write(requestText(request));
      await leave;
      socket.destroy();
    },
    close: () => within(running.close(), 10_000, `${name}: close()`),
  };
}

/** The fetch handler as a stream target: its `drain()` is its close. */
function inProcessTarget(name: string, app: FetchApp): StreamTarget {
  return {
    name,
    open: (request) => openInProcess(app, request, name),
    abandon: async (request, leave) => {
      const gone = new AbortController();
      // The answer, when it comes, is never read: the client is gone.
      void app(new Request(toRequest(request), { signal: gone.signal }));
      await leave;
      gone.abort();
    },
    close: () => Promise.resolve(app.drain()),
  };
}

/** Options every target serves with: nothing logged unless a test asks, answers checked against their routes. */
const QUIET = { onError: () => {}, checkResponses: true } as const;

/** How each target starts: the node adapter, polka 0.5 and 1.0, and toFetch in process. */
export const STREAM_TARGETS: ReadonlyArray<{
  readonly name: string;
  start(source: Routable, options?: ServeOptions & FetchOptions): Promise<StreamTarget>;
}> = [
  {
    name: 'node',
    start: async (source, options) => onSocket('node', await serve(source, { ...QUIET, ...options })),
  },
  {
    name: 'polka@0.5',
    start: async (source, options) => {
      const app = mount(polka(), source, { ...QUIET, ...options });
      return onSocket('polka@0.5', await listen(app.handler as RequestListener, options));
    },
  },
  {
    name: 'polka@1.0-next',
    start: async (source, options) => {
      const app = mount(polkaNext(), source, { ...QUIET, ...options });
      return onSocket('polka@1.0-next', await listen(app.handler as RequestListener, options));
    },
  },
  {
    name: 'toFetch',
    start: async (source, options) => inProcessTarget('toFetch', toFetch(source, { ...QUIET, ...options })),
  },
];

/**
 * Starts `source` on every target, runs `check` on each at once, closes them all, and throws the first failure
 * with its target's name.
 */
export async function onEveryTarget(
  source: Routable,
  options: (ServeOptions & FetchOptions) | undefined,
  check: (target: StreamTarget) => Promise<void>,
): Promise<void> {
  const targets = await Promise.all(STREAM_TARGETS.map((target) => target.start(source, options)));
  const settled = await Promise.allSettled(targets.map((target) => check(target)));
  await Promise.all(targets.map((target) => target.close()));
  settled.forEach((result, i) => {
    if (result.status === 'fulfilled') return;
    const error = result.reason as Error;
    error.message = `[${targets[i]!.name}] ${error.message}`;
    throw error;
  });
}

/** `promise`, or a rejection naming `what` after `ms`: a close that hangs fails its test instead. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Resolves once `condition` holds, checking every few milliseconds; rejects after `ms`, naming `what`. */
export async function eventually(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The `X-Probe` header every request of a stream test carries, and the sinks its handlers keep by it, for the
 * test to find a stream from outside.
 */
export function probes() {
  const sinks = new Map<string, EventSink>();
  return {
    /** The sink each request's `start` got, by its `X-Probe` header. */
    sinks,
    /** The request's `X-Probe` header; a request without one is a mistake of the test, answered 400. */
    probe(req: HandlerRequest): string {
      const key = req.headers['x-probe'];
      if (typeof key !== 'string') throw new HttpError(400, 'every request here has an X-Probe header');
      return key;
    },
    /** The sink of the request sent with `X-Probe: key`, once its `start` ran. */
    async sinkOf(key: string): Promise<EventSink> {
      await eventually(() => sinks.has(key), `the stream of ${key} started`);
      return sinks.get(key)!;
    },
  };
}

/** One event as a client dispatches it (WHATWG HTML §9.2.6): its type, its data, the last event id then. */
export interface ParsedEvent {
  readonly event: string;
  readonly data: string;
  readonly lastEventId: string;
}

/** What an `EventSource` makes of a stream's text: the events it dispatches and the retry times it is told. */
export function parseEventStream(text: string): { events: ParsedEvent[]; retries: number[] } {
  const events: ParsedEvent[] = [];
  const retries: number[] = [];
  let type = '';
  let data = '';
  let lastEventId = '';
  // A line break at the very end ends the last line; what follows it is an unfinished line, never dispatched.
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop();
  for (const line of lines) {
    if (line === '') {
      if (data !== '') events.push({ event: type || 'message', data: data.slice(0, -1), lastEventId });
      type = '';
      data = '';
      continue;
    }
    if (line.startsWith(':')) continue;
    const [field, value] = fieldOf(line);
    if (field === 'event') type = value;
    else if (field === 'data') data += `${value}\n`;
    else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retries.push(Number(value));
  }
  return { events, retries };
}

/** A field line's name and value: what follows its first colon, less one leading space (WHATWG HTML §9.2.6). */
function fieldOf(line: string): [field: string, value: string] {
  const colon = line.indexOf(':');
  if (colon === -1) return [line, ''];
  const value = line.slice(colon + 1);
  return [line.slice(0, colon), value.startsWith(' ') ? value.slice(1) : value];
}

/** One event block as it was sent: its `event` and `id` fields as they came (or absent), its data lines joined. */
export interface ServerSentEvent {
  readonly event: string | undefined;
  readonly id: string | undefined;
  readonly data: string;
}

/** One block of a stream (the text between blank lines) as an event, or `undefined` for comments and `retry:` alone. */
export function parseEventBlock(block: string): ServerSentEvent | undefined {
  let event: string | undefined;
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const [field, value] = fieldOf(line);
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  if (event === undefined && id === undefined && data.length === 0) return undefined;
  return { event, id, data: data.join('\n') };
}

/** How an `EventReader` checks its response and how long each of its reads may wait. */
export interface EventReaderOptions {
  /** The status the response must have; unchecked when absent. */
  readonly status?: number;
  /** How long one read waits before the test fails (5 s). */
  readonly ms?: number;
  /** Whether `close()` passes over a body that already broke (a socket the server closed), instead of rejecting. */
  readonly closeBroken?: boolean;
}

/** A `text/event-stream` response's events, read one bounded read at a time, so that a missing event fails. */
export class EventReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  readonly #ms: number;
  readonly #closeBroken: boolean;
  #buffer = '';

  constructor(
    readonly response: Response,
    { status, ms = 5000, closeBroken = false }: EventReaderOptions = {},
  ) {
    if (status !== undefined) assert.is(response.status, status);
    assert.is(response.headers.get('content-type'), 'text/event-stream', 'the answer is an event stream');
    this.#reader = response.body!.getReader();
    this.#ms = ms;
    this.#closeBroken = closeBroken;
  }

  /** The next event (comments and `retry:` alone are none), or an error when the stream ends first. */
  async next(): Promise<ServerSentEvent> {
    for (;;) {
      const end = this.#buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        const event = parseEventBlock(block);
        if (event !== undefined) return event;
        continue;
      }
      const chunk = await within(this.#reader.read(), this.#ms, 'the next event');
      if (chunk.done) throw new Error(`the stream ended before an event (${JSON.stringify(this.#buffer)})`);
      this.#buffer += this.#decoder.decode(chunk.value, { stream: true });
    }
  }

  /** The next `count` events. */
  async take(count: number): Promise<ServerSentEvent[]> {
    const got: ServerSentEvent[] = [];
    while (got.length < count) got.push(await this.next());
    return got;
  }

  /** Reads to the end, which must come with no event before it. */
  async ended(): Promise<void> {
    for (;;) {
      const chunk = await within(this.#reader.read(), this.#ms, 'the end of the stream');
      if (chunk.done) break;
      this.#buffer += this.#decoder.decode(chunk.value, { stream: true });
    }
    const events = this.#buffer
      .split('\n\n')
      .map(parseEventBlock)
      .filter((event) => event !== undefined);
    assert.equal(events, [], 'no event before the end');
  }

  /** The client goes away: the body cancelled. */
  close(): Promise<void> {
    const cancelled = this.#reader.cancel();
    return this.#closeBroken ? cancelled.catch(() => {}) : cancelled;
  }
}
