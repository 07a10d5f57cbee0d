// `sevenfold/client/watch`: a watched route's events as a typed async iterator, resumed across reconnections.
import type { ActionApi } from '../define/response-types.js';
import type { ClientResponse, Watchable, WatchEvent, Watching, WatchOf } from './calls.js';
import { readEvents, type StreamState } from './event-stream.js';
import { answer, SENDERS, type Sender } from './request.js';

export type { Watchable, WatchedCall, WatchEvent, Watching, WatchOf, WatchOptions } from './calls.js';

/** A watch refused: the server answered something other than `200 text/event-stream`. */
export class WatchError extends Error {
  override readonly name = 'WatchError';
  /** The answer's status, e.g. `401`. */
  readonly status: number;
  /** Its body as a call reads it: the `Problem` a sevenfold server answers with, parsed. */
  readonly body: unknown;
  readonly headers: Headers;

  constructor(message: string, refused: ClientResponse) {
    super(message);
    this.status = refused.status;
    this.body = refused.body;
    this.headers = refused.headers;
  }
}

interface WatchInput {
  readonly params?: unknown;
  readonly query?: unknown;
  readonly headers?: HeadersInit;
  readonly signal?: AbortSignal;
  readonly lastEventId?: string;
  readonly retry?: number;
}

/**
 * The events of a watched index or show, as they happen: `for await (const event of watch(api.posts.index))`.
 * `Watching` says how it reconnects, resumes, fails and ends.
 */
export function watch<X extends ActionApi>(
  call: Watchable<X>,
  ...input: {} extends WatchOf<X> ? [watch?: WatchOf<X>] : [watch: WatchOf<X>]
): Watching<X['watch']>;
export function watch(call: unknown, input: WatchInput = {}): AsyncGenerator<WatchEvent, void, undefined> {
  const sender = typeof call === 'function' ? SENDERS.get(call) : undefined;
  if (sender === undefined)
    throw new TypeError('watch(): watch a call of client(), such as watch(api.posts.index)');
  const { route } = sender;
  const where = `watch(${sender.where})`;
  if (route.events === undefined)
    throw new TypeError(
      `${where}: ${route.method} ${route.path} streams no events: declare its resource with { watch } (sevenfold/live), and give client() the table or a listing that prints "events"`,
    );
  const state = { lastEventId: input.lastEventId ?? '', retry: input.retry ?? 3000 };
  if (!(state.retry >= 0)) throw new TypeError(`${where}: retry must be milliseconds, at least 0`);
  const { url, headers } = sender.prepare(input);
  headers.set('accept', 'text/event-stream');
  return watching(sender, url, headers, route.events, state, input.signal, where);
}

/** The watch itself: one connection after another, each one's events yielded, until `signal` aborts. */
async function* watching(
  sender: Sender,
  url: string,
  headers: Headers,
  names: object,
  state: StreamState,
  signal: AbortSignal | undefined,
  where: string,
): AsyncGenerator<WatchEvent, void, undefined> {
  let connected = false;
  while (!signal?.aborted) {
    if (state.lastEventId !== '') headers.set('last-event-id', state.lastEventId);
    let response: Response;
    try {
      response = await sender.send(url, { headers, signal });
    } catch (error) {
      if (signal?.aborted) return;
      // A first connection that fails is the caller's to know; a later one waits for the server to return.
      if (!connected) throw error;
      await sleep(state.retry, signal);
      continue;
    }
    connected = true;
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== 200 || !/^text\/event-stream\s*(;|$)/i.test(type)) {
      let refused: ClientResponse;
      try {
        refused = await answer(response, 'GET');
      } catch (error) {
        if (signal?.aborted) return;
        throw error;
      }
      // A server that is full or draining says when to come back: the watch outlives that.
      const wait = refused.status === 503 || refused.status === 429 ? retryAfter(refused.headers) : undefined;
      if (wait === undefined) throw new WatchError(`${where}: ${refusal(refused)}`, refused);
      await sleep(wait, signal);
      continue;
    }
    for await (const event of readEvents(response.body!, state, signal)) {
      // An event the route does not declare is skipped, so that a newer server's cannot break a `switch`.
      if (!Object.hasOwn(names, event.event)) continue;
      const data: unknown = JSON.parse(event.data);
      const { lastEventId: id } = state;
      yield (id === '' ? { event: event.event, data } : { event: event.event, id, data }) as WatchEvent;
    }
    if (signal?.aborted) return;
    await sleep(state.retry, signal);
  }
}

/** What a refusal says: its status and problem, or that a 200 was no event stream. */
function refusal({ status, headers, body }: ClientResponse): string {
  if (status === 200)
    return `answered 200 ${headers.get('content-type')}, not text/event-stream: is its resource declared with { watch }?`;
  const problem = body as { readonly title?: unknown; readonly detail?: unknown } | undefined;
  return `answered ${status}: ${String(problem?.detail ?? problem?.title ?? body)}`;
}

/** Milliseconds a `Retry-After` asks for (seconds or an HTTP date); `undefined` when it has none. */
function retryAfter(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const ms = /^\d+$/.test(value) ? +value * 1000 : Date.parse(value) - Date.now();
  return Number.isNaN(ms) ? undefined : Math.max(ms, 0);
}

/** Waits `ms` milliseconds, or until `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
}
