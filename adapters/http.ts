import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { bodyFormat, DEFAULT_JSON_DEPTH, parseBody, withoutBom, type BodyFormat } from '../core/body.js';
import { HttpError, STATUS_TITLES } from '../core/errors.js';
import { compile } from '../core/matcher.js';
import { originForm, splitTarget } from '../core/path.js';
import { renderError, renderMiss, renderResult, type Rendered } from '../core/render.js';
import { Reply } from '../core/reply.js';
import { IncomingRequest } from '../core/request.js';
import { tableOf, type Routable } from '../core/resource.js';
import type { Request, Route } from '../core/types.js';

/** Options shared by both adapters; docs/hardening.md explains each limit. */
export interface DispatchOptions {
  /** The largest request body accepted, in bytes; larger ones get `413`. Default 1 MiB. */
  readonly bodyLimit?: number;
  /** The deepest nesting of arrays and objects in a JSON body; deeper is `400`. Default 64. */
  readonly maxJsonDepth?: number;
  /** The longest request target accepted, in characters; longer is `414`. Default 8192. */
  readonly maxUrlLength?: number;
  /** The longest decoded path parameter accepted; longer ones get `400`. Default 1024. */
  readonly maxParamLength?: number;
  /**
   * Milliseconds an async handler may take before the client gets `503`; it cannot be turned
   * off, only raised. Default 30 000.
   */
  readonly handlerTimeout?: number;
  /**
   * Called with every error that becomes a `500` or a `503` timeout (not with `HttpError`s),
   * for logging. Default: `console.error`. The client never sees the error itself.
   */
  readonly onError?: (error: unknown, request: Request | undefined) => void;
}

/** How an adapter hands requests over, beside the user's options. */
export interface AdapterOptions {
  /**
   * Read a body's headers from node's headers object, where middleware that ran first may have
   * changed them, instead of from the raw header lines as the client sent them (default).
   */
  readonly headersObject?: boolean;
}

/** A node:http style handler; `next`, when given, receives requests no route matches. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

const DEFAULTS = Object.freeze({
  bodyLimit: 1024 * 1024,
  maxJsonDepth: DEFAULT_JSON_DEPTH,
  maxUrlLength: 8192,
  maxParamLength: 1024,
  handlerTimeout: 30_000,
});

// Rejects a body read whose client went away: there is nobody left to answer.
const ABORTED = Symbol('request aborted');

/** Set on a server by `close()`: answers from then on close their connection. */
export const DRAINING = Symbol.for('sevenfold.draining');

// Requests pipelined behind one still running wait here: they must take effect in order too.
// `null` marks a connection busy with nobody waiting, so the common case allocates nothing.
const QUEUE = Symbol.for('sevenfold.queue');
type QueuedSocket = { [QUEUE]?: Array<() => void> | null };

/** Runs the requests that waited on a connection, in order, until one of them is async again. */
function release(socket: QueuedSocket): void {
  const pending = socket[QUEUE];
  socket[QUEUE] = undefined;
  while (pending != null && pending.length > 0) {
    pending.shift()!();
    const busy = socket[QUEUE] as Array<() => void> | null | undefined;
    if (busy !== undefined) {
      if (pending.length > 0) (socket[QUEUE] = busy ?? []).push(...pending);
      return;
    }
  }
}

/** The request as handlers see it: node's headers on first use, and an abort when the client goes away. */
class NodeRequest<P> extends IncomingRequest<P> {
  constructor(
    method: string,
    url: string,
    path: string,
    search: string,
    params: P,
    route: Route,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    super(method, url, path, search, params, route);
  }

  protected override readHeaders(): IncomingMessage['headers'] {
    return this.req.headers;
  }

  protected override watch(abort: (reason: unknown) => void): void {
    const res = this.res;
    if (res.destroyed && !res.writableFinished) return abort(new Error('the client went away'));
    res.once('close', () => {
      if (!res.writableFinished) abort(new Error('the client went away'));
    });
  }
}

function positive(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) throw new TypeError(`${name} must be a whole number of at least ${min}, got ${value}`);
  return value;
}

/** An async handler under way, for the timeout sweep. */
interface Running {
  readonly request: NodeRequest<Record<string, string>>;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** When it is cut, on `performance.now()`'s clock: the sweep compares times, not its own ticks. */
  readonly expires: number;
}

/**
 * The request path both adapters share: check the request line and Host, match, read the
 * body, run the handler, write the result or the problem. Adapters only decide where
 * requests come from. A handler that answers at once is served without a promise; only
 * bodies and async handlers go async.
 */
export function createDispatcher(source: Routable, options: DispatchOptions = {}, adapter: AdapterOptions = {}): NodeHandler {
  const bodyLimit = positive('bodyLimit', options.bodyLimit ?? DEFAULTS.bodyLimit, 0);
  const maxJsonDepth = positive('maxJsonDepth', options.maxJsonDepth ?? DEFAULTS.maxJsonDepth, 1);
  const maxUrlLength = positive('maxUrlLength', options.maxUrlLength ?? DEFAULTS.maxUrlLength, 1);
  const handlerTimeout = positive('handlerTimeout', options.handlerTimeout ?? DEFAULTS.handlerTimeout, 1);
  const matcher = compile(tableOf(source), { maxParamLength: positive('maxParamLength', options.maxParamLength ?? DEFAULTS.maxParamLength, 1) });
  const report = options.onError ?? defaultOnError;
  // A logger that throws must not take the request path (or the timeout sweep) down with it.
  const onError = (error: unknown, request: Request | undefined): void => {
    try {
      report(error, request);
    } catch {
      // Nothing sensible is left to do with an error about an error.
    }
  };
  const slow = new HttpError(503, `the server did not answer within ${handlerTimeout} ms`);

  // One coarse sweep times out async handlers, instead of a timer per request: a handler is cut
  // at most one tick late, however busy the event loop is.
  const tick = Math.max(5, Math.min(250, Math.floor(handlerTimeout / 8)));
  const running = new Set<Running>();
  let sweeper: ReturnType<typeof setInterval> | undefined;
  function sweep(): void {
    const now = performance.now();
    for (const entry of running) {
      if (entry.expires > now) continue;
      running.delete(entry);
      const late = new Error(`${entry.request.route.name} did not answer within ${handlerTimeout} ms`);
      entry.request.abort(late);
      onError(late, entry.request);
      sendSafely(entry.req, entry.res, renderError(slow));
      release(entry.req.socket as unknown as QueuedSocket);
    }
    if (running.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  function respond(req: IncomingMessage, res: ServerResponse, request: NodeRequest<Record<string, string>>, out: unknown, reply: Reply): void {
    try {
      send(req, res, renderResult(out, reply.headers));
    } catch (error) {
      fail(req, res, request, error);
    }
  }

  function fail(req: IncomingMessage, res: ServerResponse, request: NodeRequest<Record<string, string>>, error: unknown): void {
    if (!(error instanceof HttpError)) onError(error, request);
    sendSafely(req, res, renderError(error));
  }

  /** Waits for an async handler under the timeout sweep, then answers and frees the connection's queue. */
  async function later(req: IncomingMessage, res: ServerResponse, request: NodeRequest<Record<string, string>>, pending: PromiseLike<unknown>, reply: Reply): Promise<void> {
    const entry: Running = { request, req, res, expires: performance.now() + handlerTimeout };
    running.add(entry);
    sweeper ??= setInterval(sweep, tick).unref();
    // Whoever answers releases the connection's queue: here, or the sweep on a timeout.
    let answering = true;
    try {
      const out = await pending;
      answering = running.delete(entry);
      if (answering) respond(req, res, request, out, reply);
    } catch (error) {
      answering = running.delete(entry);
      if (answering) fail(req, res, request, error);
    } finally {
      if (answering) release(req.socket as unknown as QueuedSocket);
    }
  }

  /** Runs the handler of a request whose connection is marked busy, then answers and frees it. */
  function handle(req: IncomingMessage, res: ServerResponse, request: NodeRequest<Record<string, string>>): void {
    const reply = new Reply();
    let out: unknown;
    try {
      out = request.route.handler(request, reply);
    } catch (error) {
      fail(req, res, request, error);
      return release(req.socket as unknown as QueuedSocket);
    }
    if (isThenable(out)) return void later(req, res, request, out, reply);
    respond(req, res, request, out, reply);
    release(req.socket as unknown as QueuedSocket);
  }

  /** Reads and parses the body with callbacks (no promise on this path), then handles the request. */
  function withBody(req: IncomingMessage, res: ServerResponse, request: NodeRequest<Record<string, string>>): void {
    let format: BodyFormat;
    let declared: number;
    try {
      const headers = adapter.headersObject === true ? bodyHeadersObject(req) : bodyHeaders(req);
      format = bodyFormat(headers.type, headers.encoding);
      declared = headers.length === undefined ? NaN : Number(headers.length);
      if (headers.expect?.toLowerCase() === '100-continue' && !(declared > bodyLimit) && !res.headersSent) res.writeContinue();
    } catch (error) {
      return refuse(req, res, request, error);
    }
    if (declared > bodyLimit) return refuse(req, res, request, tooLarge(bodyLimit));
    if (req.destroyed) return refuse(req, res, request, ABORTED);
    if (req.readableEnded) return refuse(req, res, request, new Error('the request body was already read by other middleware'));
    const reader = new BodyReader(req, res, request, format, bodyLimit, bodyRead);
    (req as ReadingRequest)[READER] = reader;
    req.on('data', onBodyData);
    req.on('end', onBodyEnd);
    // No 'error' listener: node emits a request's errors only to listeners, and 'close' follows every one.
    req.on('close', onBodyClose);
  }

  /** Where a body read ends: parse and handle, or refuse. */
  function bodyRead(reader: BodyReader, error: unknown): void {
    const { req, res, request } = reader;
    if (error === undefined) {
      try {
        request.body = parseBody(reader.format, utf8Text(reader.bytes()), maxJsonDepth);
      } catch (parseError) {
        return refuse(req, res, request, parseError);
      }
      return handle(req, res, request);
    }
    refuse(req, res, request, error);
  }

  /** Answers a request whose body will not be handled, unless its client went away, and frees the connection's queue. */
  function refuse(req: IncomingMessage, res: ServerResponse, request: NodeRequest<Record<string, string>>, error: unknown): void {
    if (error !== ABORTED) fail(req, res, request, error);
    release(req.socket as unknown as QueuedSocket);
  }

  return function dispatch(req, res, next) {
    const socket = req.socket as unknown as QueuedSocket;
    const waiting = socket[QUEUE];
    if (waiting !== undefined) {
      // A request whose connection closed while it waited is dropped, not run.
      return void (socket[QUEUE] = waiting ?? []).push(() => req.socket.destroyed || res.destroyed || dispatch(req, res, next));
    }
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const refused = checkRequest(req, url, maxUrlLength);
    if (refused !== undefined) return sendSafely(req, res, renderError(refused));
    let path: string;
    let search = '';
    let target = url;
    const q = url.indexOf('?');
    if (url.charCodeAt(0) === 47 /* / */ && url.indexOf('#') === -1) {
      path = q === -1 ? url : url.slice(0, q);
      if (q !== -1) {
        search = url.slice(q + 1);
        if (search === '') target = path;
      }
    } else {
      const split = splitTarget(url);
      if (split === undefined) {
        // `OPTIONS *` asks about the server as a whole; any other target must be a path.
        if (url === '*' && method === 'OPTIONS') return sendSafely(req, res, { status: 204, headers: {}, body: '' });
        return sendSafely(req, res, renderError(BAD_TARGET));
      }
      path = split.path;
      search = split.search;
      target = originForm(split);
    }
    const match = matcher.match(method, path);
    if (match.kind !== 'found') {
      if (match.kind === 'not-found' && next !== undefined) return next();
      return sendSafely(req, res, renderMiss(match, method));
    }
    const route = match.route as Route;
    const request = new NodeRequest(method, target, path, search, match.params, route, req, res);
    if (route.body) {
      socket[QUEUE] = null;
      return withBody(req, res, request);
    }
    const reply = new Reply();
    let out: unknown;
    try {
      out = route.handler(request, reply);
    } catch (error) {
      return fail(req, res, request, error);
    }
    if (isThenable(out)) {
      socket[QUEUE] = null;
      return void later(req, res, request, out, reply);
    }
    respond(req, res, request, out, reply);
  };
}

const BAD_TARGET = new HttpError(400, 'the request target must be a path such as /posts');
const NO_HOST = new HttpError(400, 'an HTTP/1.1 request needs a Host header');
const MANY_HOSTS = new HttpError(400, 'the request has more than one Host header');

/** Refusals that come before routing: an overlong target, and a missing or repeated Host. */
function checkRequest(req: IncomingMessage, url: string, maxUrlLength: number): HttpError | undefined {
  if (url.length > maxUrlLength) return new HttpError(414, `the request target is longer than ${maxUrlLength} characters`);
  // Counted in rawHeaders: node keeps only the first Host, and its headers object is built lazily.
  const hosts = count(req, 'host');
  if (hosts === 1) return undefined;
  if (hosts > 1) return MANY_HOSTS;
  return req.httpVersion === '1.0' ? undefined : NO_HOST;
}

/** How many times a header came, whatever its case. */
function count(req: IncomingMessage, lowerName: string): number {
  const raw = req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) if (isName(raw[i]!, lowerName)) seen++;
  return seen;
}

/**
 * Whether a header name is `lower` (letters and hyphens) in any case, compared in place: no
 * lower-cased copy is made. Setting bit 5 lower-cases a letter and changes no other token character into one.
 */
function isName(name: string, lower: string): boolean {
  if (name.length !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) if ((name.charCodeAt(i) | 32) !== lower.charCodeAt(i)) return false;
  return true;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}

function defaultOnError(error: unknown, request: Request | undefined): void {
  console.error(`sevenfold: ${request ? `${request.method} ${request.route.name}` : 'request'} failed:`, error);
}

/** Writes a rendered response; HEAD gets the same status and headers and no body bytes. */
export function send(req: IncomingMessage, res: ServerResponse, out: Rendered): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  const server = (res.socket as { server?: { [DRAINING]?: boolean } } | null)?.server;
  if (server?.[DRAINING] === true) res.shouldKeepAlive = false;
  const bodiless = out.status === 204 || out.status === 304;
  if (!bodiless) out.headers['Content-Length'] = String(Buffer.byteLength(out.body));
  // The phrase is passed where RFC 9110's differs from node's, and after a failed writeHead left its own behind.
  if (res.statusMessage === undefined && STATUS_CODES[out.status] !== undefined && !RENAMED.has(out.status)) res.writeHead(out.status, out.headers);
  else res.writeHead(out.status, reason(out.status), out.headers);
  res.end(bodiless || req.method === 'HEAD' ? undefined : out.body);
}

/** `send`, falling back to a bare 500 and then to closing the socket if writing fails. */
export function sendSafely(req: IncomingMessage, res: ServerResponse, out: Rendered): void {
  try {
    send(req, res, out);
  } catch {
    try {
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      send(req, res, renderError(undefined));
    } catch {
      res.destroy();
    }
  }
}

/** Statuses whose reason phrase in RFC 9110 differs from the one node writes. */
const RENAMED: ReadonlySet<number> = new Set(
  Object.keys(STATUS_TITLES)
    .map(Number)
    .filter((status) => STATUS_TITLES[status] !== STATUS_CODES[status]),
);

/** The reason phrase of a status line: RFC 9110's names, as the problem titles use them. */
function reason(status: number): string {
  return STATUS_TITLES[status] ?? STATUS_CODES[status] ?? '';
}

const MANY_TYPES = new HttpError(400, 'the request has more than one Content-Type header');

const NOT_UTF8 = new HttpError(400, 'the request body is not valid UTF-8');

/** The body as text: node's native UTF-8 check and decode, faster than a fatal TextDecoder, BOM dropped alike. */
function utf8Text(bytes: Buffer): string {
  if (!isUtf8(bytes)) throw NOT_UTF8;
  return withoutBom(bytes.toString('utf8'));
}

/** The headers that decide how a body is read, from one pass over `rawHeaders`. */
interface BodyHeaders {
  type: string | undefined;
  encoding: string | undefined;
  length: string | undefined;
  expect: string | undefined;
}

/**
 * The body's headers, found in `rawHeaders` without building node's headers object; repeated
 * Content-Encoding and Expect values are joined as node joins them, and a second Content-Type is a `400`.
 */
function bodyHeaders(req: IncomingMessage): BodyHeaders {
  const found: BodyHeaders = { type: undefined, encoding: undefined, length: undefined, expect: undefined };
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (isName(name, 'content-type')) {
      if (found.type !== undefined) throw MANY_TYPES;
      found.type = raw[i + 1]!;
    } else if (isName(name, 'content-length')) found.length ??= raw[i + 1]!;
    else if (isName(name, 'content-encoding')) found.encoding = found.encoding === undefined ? raw[i + 1]! : `${found.encoding}, ${raw[i + 1]!}`;
    else if (isName(name, 'expect')) found.expect = found.expect === undefined ? raw[i + 1]! : `${found.expect}, ${raw[i + 1]!}`;
  }
  return found;
}

/** The body's headers from node's headers object, as middleware before sevenfold left them. */
function bodyHeadersObject(req: IncomingMessage): BodyHeaders {
  if (count(req, 'content-type') > 1) throw MANY_TYPES;
  const { 'content-type': type, 'content-encoding': encoding, 'content-length': length, expect } = req.headers;
  return { type, encoding, length, expect };
}

function tooLarge(limit: number): HttpError {
  // The rest of an oversized body is never read, so the connection cannot be reused.
  return new HttpError(413, `the request body is larger than ${limit} bytes`, { headers: { Connection: 'close' } });
}

/** Set on a request while its body is read: its reader, for listeners shared by every request. */
const READER = Symbol('sevenfold.reader');
type ReadingRequest = IncomingMessage & { [READER]: BodyReader };

/**
 * One body being read: its state, and the outcome reported once to `done`, which the dispatcher
 * owns. Its listeners are module functions that find it on the request, so reading allocates no closures.
 */
class BodyReader {
  private first: Buffer | undefined = undefined;
  private rest: Buffer[] | undefined = undefined;
  size = 0;
  private settled = false;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly request: NodeRequest<Record<string, string>>,
    readonly format: BodyFormat,
    readonly limit: number,
    private readonly done: (reader: BodyReader, error: unknown) => void,
  ) {}

  add(chunk: Buffer): void {
    if (this.first === undefined) this.first = chunk;
    else (this.rest ??= [this.first]).push(chunk);
  }

  /** The body read so far, in one buffer. */
  bytes(): Buffer {
    if (this.rest !== undefined) return Buffer.concat(this.rest, this.size);
    return this.first ?? Buffer.alloc(0);
  }

  /** Reports the first outcome only: the end, a refusal, or the client going away. */
  settle(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.done(this, error);
  }
}

function onBodyData(this: ReadingRequest, chunk: Buffer): void {
  const reader = this[READER];
  reader.size += chunk.length;
  if (reader.size > reader.limit) {
    this.off('data', onBodyData);
    this.resume();
    reader.settle(tooLarge(reader.limit));
  } else reader.add(chunk);
}

function onBodyEnd(this: ReadingRequest): void {
  this[READER].settle(undefined);
}

function onBodyClose(this: ReadingRequest): void {
  // After 'end' this changes nothing; before it, the rest of the body is never coming.
  this[READER].settle(ABORTED);
}

// What node's HTTP parser reports, in words a client can act on.
const PARSE_ERRORS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: 'the request headers are too large',
  HPE_INVALID_METHOD: 'the request method is not valid',
  HPE_INVALID_URL: 'the request target is not valid',
  HPE_INVALID_VERSION: 'the HTTP version is not valid',
  HPE_INVALID_HEADER_TOKEN: 'a request header is not valid',
  HPE_INVALID_CONTENT_LENGTH: 'the Content-Length header is not valid',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length conflicts with Transfer-Encoding or is repeated',
  HPE_INVALID_TRANSFER_ENCODING: 'the Transfer-Encoding header is not valid',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size in the body is not valid',
  HPE_CR_EXPECTED: 'a line of the request does not end with CRLF',
  HPE_LF_EXPECTED: 'a line of the request does not end with CRLF',
  ERR_HTTP_REQUEST_TIMEOUT: 'the request was not received in time',
};

/** The status for a protocol-level error: 431 for headers too large, 408 for time-outs, else 400. */
function clientErrorStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** Writes a problem straight to a socket node has no response object for, then closes it. */
export function writeProblem(socket: Duplex, error: HttpError): void {
  const out = renderError(error);
  const head = [`HTTP/1.1 ${error.status} ${reason(error.status)}`, `Date: ${new Date().toUTCString()}`];
  for (const [name, value] of Object.entries(out.headers)) head.push(`${name}: ${value}`);
  head.push(`Content-Length: ${Buffer.byteLength(out.body)}`, 'Connection: close');
  socket.end(`${head.join('\r\n')}\r\n\r\n${out.body}`);
  socket.once('finish', () => socket.destroy());
}

/**
 * The `clientError` listener `listen()` installs: requests node's parser rejects get the same
 * problem+json answer as everything else, then the connection closes (its framing is lost).
 */
export function onClientError(error: Error & { code?: string }, socket: Duplex): void {
  const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || (current != null && current.headersSent)) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(error.code);
  writeProblem(socket, new HttpError(status, PARSE_ERRORS[error.code ?? ''] ?? 'the request is not valid HTTP/1.1'));
}
