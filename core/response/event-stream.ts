// Server-sent events as a handler's answer: the wire format (WHATWG HTML §9.2), heartbeats, backpressure, an end.
import type { HandlerRequest } from '../types.js';
import { NullObject } from '../util/null-object.js';

/** One event as data; every field is optional, and an event with none is not sent. */
export interface ServerEvent {
  /** Its name (`event:`), e.g. `created`; a client's `onmessage` gets the unnamed ones. No CR or LF. */
  readonly event?: string;
  /** Its id (`id:`), which the client sends back as `Last-Event-ID` when it reconnects. No CR, LF or NUL. */
  readonly id?: string;
  /** Its data: a string is sent as it is (a line break starts a new `data:` line), anything else as JSON. */
  readonly data?: unknown;
  /** How many milliseconds the client waits before reconnecting (`retry:`), a whole number. */
  readonly retry?: number;
}

/** How an event stream behaves; docs/live.md explains each. */
export interface EventStreamOptions {
  /** Milliseconds between comment lines that keep proxies and clients from closing an idle stream; 0 for none. Default 15 000. */
  readonly heartbeat?: number;
  /** Sent first as `retry:`, how long the client waits before reconnecting, in milliseconds. */
  readonly retry?: number;
  /**
   * Bytes queued for a client that reads slower than events come before the stream is closed (it reconnects
   * with `Last-Event-ID` and catches up): memory per stream stays bounded. An event larger than this alone is
   * still sent while no more than this waits before it. Default 1 MiB.
   */
  readonly maxBuffered?: number;
}

/** What a handler writes to its stream: `events(req, (stream) => …)`. */
export interface EventSink {
  /** The id of the last event the client saw (`Last-Event-ID`), when it is reconnecting. */
  readonly lastEventId: string | undefined;
  /** Aborted once the stream is closed: the client left, the server drains, or `close()`. */
  readonly signal: AbortSignal;
  /** Whether the stream is closed; writes then do nothing. */
  readonly closed: boolean;
  /**
   * Writes an event, or one `prepareEvent()` formatted for many streams; `false`, writing nothing, once the
   * stream is closed. Throws on a CR/LF in `event` or `id`.
   */
  send(event: ServerEvent | PreparedEvent): boolean;
  /** Writes a comment line (`: text`), which clients ignore. */
  comment(text?: string): boolean;
  /** Ends the stream: the client sees its end (and an `EventSource` reconnects). */
  close(): void;
}

const ENCODER = new TextEncoder();
const LINE_BREAK = /\r\n|\r|\n/;
// Encoded once: every stream's heartbeat writes these same bytes.
const HEARTBEAT = ENCODER.encode(':\n\n');

/** An event formatted and encoded once, so that sending it to a thousand streams encodes it once. */
export class PreparedEvent {
  readonly bytes: Uint8Array;

  constructor(event: ServerEvent) {
    this.bytes = ENCODER.encode(formatEvent(event));
  }
}

/** Formats an event once for many streams: `stream.send(prepared)` in each writes the same bytes. */
export function prepareEvent(event: ServerEvent): PreparedEvent {
  return new PreparedEvent(event);
}
const DEFAULT_HEARTBEAT = 15_000;
const DEFAULT_MAX_BUFFERED = 1024 * 1024;

/**
 * One event as the text the stream carries, ending with its blank line; `''` for an event with no field.
 * A name or id that could end its line is refused: what a client sent must not become a field of its own.
 */
export function formatEvent(event: ServerEvent): string {
  let text = '';
  if (event.event !== undefined) text += `event: ${field('event', event.event)}\n`;
  if (event.id !== undefined) {
    const id = field('id', event.id);
    // A NUL makes clients ignore the id (and keep the previous one), so it is refused like a line break.
    if (id.includes('\0')) throw new TypeError('a server-sent event id cannot contain NUL');
    text += `id: ${id}\n`;
  }
  if (event.retry !== undefined) {
    if (!Number.isSafeInteger(event.retry) || event.retry < 0)
      throw new TypeError(
        `a server-sent event's retry must be a whole number of milliseconds, got ${event.retry}`,
      );
    text += `retry: ${event.retry}\n`;
  }
  if (event.data !== undefined) {
    const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
    // JSON has no text for a function or a symbol: refused here rather than failing on `undefined` below.
    if (data === undefined)
      throw new TypeError(`a server-sent event's data must be a string or JSON, got ${typeof event.data}`);
    for (const line of data.split(LINE_BREAK)) text += `data: ${line}\n`;
  }
  return text === '' ? '' : `${text}\n`;
}

/** Comment lines (`: …`), one per line of the text: a line break in it cannot start a field. */
export function formatComment(text: string): string {
  let out = '';
  for (const line of text.split(LINE_BREAK)) out += line === '' ? ':\n' : `: ${line}\n`;
  return `${out}\n`;
}

function field(name: string, value: string): string {
  if (typeof value !== 'string')
    throw new TypeError(`a server-sent event's ${name} must be a string, got ${typeof value}`);
  if (LINE_BREAK.test(value)) throw new TypeError(`a server-sent event's ${name} cannot contain CR or LF`);
  return value;
}

/**
 * An event stream a handler answers with (`events()` makes one). It starts only once the adapter takes it,
 * so a request refused on the way out (too many streams) never runs its `start`.
 */
export class EventStream implements EventSink {
  readonly lastEventId: string | undefined;
  readonly #start: (stream: EventSink) => void | Promise<void>;
  readonly #heartbeat: number;
  readonly #retry: number | undefined;
  readonly #maxBuffered: number;
  #abort: AbortController | undefined = undefined;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined = undefined;
  #timer: ReturnType<typeof setInterval> | undefined = undefined;
  #closed = false;
  #closing: (() => void)[] = [];

  constructor(
    request: Pick<HandlerRequest, 'headers'>,
    start: (stream: EventSink) => void | Promise<void>,
    options: EventStreamOptions = {},
  ) {
    const last = request.headers['last-event-id'];
    this.lastEventId = typeof last === 'string' && last !== '' ? last : undefined;
    this.#start = start;
    this.#heartbeat = whole('heartbeat', options.heartbeat ?? DEFAULT_HEARTBEAT, 0);
    this.#retry = options.retry === undefined ? undefined : whole('retry', options.retry, 0);
    this.#maxBuffered = whole('maxBuffered', options.maxBuffered ?? DEFAULT_MAX_BUFFERED, 1);
  }

  get signal(): AbortSignal {
    // Made when first asked for: workerd refuses an AbortController made at a module's top level, where live()
    // makes a stream to check its options.
    if (this.#abort === undefined) {
      this.#abort = new AbortController();
      if (this.#closed) this.#abort.abort();
    }
    return this.#abort.signal;
  }

  get closed(): boolean {
    return this.#closed;
  }

  send(event: ServerEvent | PreparedEvent): boolean {
    // Formatted first, so a bad field throws at the caller even on a closed stream.
    const bytes = event instanceof PreparedEvent ? event.bytes : ENCODER.encode(formatEvent(event));
    return bytes.byteLength === 0 ? !this.#closed : this.#write(bytes);
  }

  comment(text = ''): boolean {
    return this.#write(ENCODER.encode(formatComment(text)));
  }

  close(): void {
    if (this.#closed) return;
    const controller = this.#controller;
    this.#finish();
    try {
      controller?.close();
    } catch {
      // Cancelled by the reader already: nothing is left to end.
    }
  }

  /** Runs `listener` once the stream closes, however it closes (at once when it is closed already). */
  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#closing.push(listener);
  }

  /**
   * The body the adapter writes: opening runs `start`; an error it throws or rejects with goes to `report` and
   * ends the stream. Called once.
   */
  open(report: (error: unknown) => void): ReadableStream<Uint8Array> {
    if (this.#controller !== undefined || this.#closed) throw new Error('an event stream is opened once');
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => this.#finish(),
      },
      // Counted in bytes, so `maxBuffered` is what a slow reader may hold.
      { highWaterMark: this.#maxBuffered, size: (chunk) => chunk.byteLength },
    );
    // The first bytes go out at once, so that the client has the response head before any event.
    this.#write(this.#retry === undefined ? HEARTBEAT : ENCODER.encode(`retry: ${this.#retry}\n\n`));
    if (this.#heartbeat > 0) {
      this.#timer = setInterval(() => this.#write(HEARTBEAT), this.#heartbeat);
      // A stream waiting for events must not keep a Node process alive.
      (this.#timer as { unref?: () => void }).unref?.();
    }
    let started: void | Promise<void>;
    try {
      started = this.#start(this);
    } catch (error) {
      report(error);
      this.close();
      return body;
    }
    if (started !== undefined && typeof started.then === 'function')
      started.then(undefined, (error: unknown) => {
        report(error);
        this.close();
      });
    return body;
  }

  #write(bytes: Uint8Array): boolean {
    const controller = this.#controller;
    if (this.#closed || controller === undefined) return false;
    const waiting = this.#maxBuffered - (controller.desiredSize ?? 0);
    // Past `maxBuffered` the client is not keeping up, so the queue is dropped and the connection closed; an event
    // larger than that alone goes while the queue is within it, or no client, however fast, could ever get it.
    const size = bytes.byteLength;
    if (size > this.#maxBuffered ? waiting > this.#maxBuffered : waiting + size > this.#maxBuffered) {
      this.#finish();
      controller.error(
        new Error(`the client read slower than events came (over ${this.#maxBuffered} bytes queued)`),
      );
      return false;
    }
    try {
      controller.enqueue(bytes);
    } catch {
      // The reader cancelled between our check and this write: the client is gone.
      this.#finish();
      return false;
    }
    return true;
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#abort?.abort();
    const listeners = this.#closing;
    this.#closing = [];
    for (const listener of listeners) listener();
  }
}

function whole(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min)
    throw new TypeError(`events(): ${name} must be a whole number of at least ${min}, got ${String(value)}`);
  return value;
}

/**
 * Answers with an event stream: `return events(req, (stream) => { stream.send({ event: 'tick', data: 1 }) })`.
 * `start` runs once the stream is open; keep what it subscribes to until `stream.signal` aborts.
 */
export function events(
  request: Pick<HandlerRequest, 'headers'>,
  start: (stream: EventSink) => void | Promise<void>,
  options?: EventStreamOptions,
): EventStream {
  return new EventStream(request, start, options);
}

/** The headers an event stream is sent with: not cached, not transformed (compressed), not buffered by a proxy. */
export function eventStreamHeaders(): Record<string, string> {
  const headers: Record<string, string> = new NullObject();
  headers['Content-Type'] = 'text/event-stream';
  headers['Cache-Control'] = 'no-store, no-transform';
  headers['X-Accel-Buffering'] = 'no';
  return headers;
}

/** The streams opened from a body, for the adapters that end them when the server drains. */
const OPENED = new WeakMap<ReadableStream<Uint8Array>, EventStream>();

/** Opens `stream` for an answer, remembering which body it is. */
export function openEventStream(
  stream: EventStream,
  report: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const body = stream.open(report);
  OPENED.set(body, stream);
  return body;
}

/** The event stream a response body comes from, if it is one: what a draining server ends. */
export function eventStreamOf(body: unknown): EventStream | undefined {
  return typeof body === 'object' && body !== null
    ? OPENED.get(body as ReadableStream<Uint8Array>)
    : undefined;
}
