// The Web-standard side of one request: a `Request` in, a `Response` out, behind the request path's `Exchange`.
import { HttpError } from '../../core/errors.js';
import type { OriginHeaders } from '../../core/request/cross-site.js';
import { NOT_UTF8, withoutBom } from '../../core/request/parse-body.js';
import { BAD_HOST, isHost } from '../../core/request/target.js';
import type { HttpResponse } from '../../core/response/render.js';
import type { RequestHeaders } from '../../core/types.js';
import { NullObject } from '../../core/util/null-object.js';
import {
  ABORTED,
  Exchange,
  tooLarge,
  type BodyDone,
  type BodyHeaders,
  type StreamDone,
} from '../pipeline/exchange.js';
import { peekWebBody, streamWebBody } from './stream-body.js';
import { eventStreamOf } from '../../core/response/event-stream.js';
import type { OpenStreams } from '../pipeline/open-streams.js';

// As the node adapter words it (adapters/http/node-exchange.ts).
const MANY_HOSTS = new HttpError(400, 'the request has more than one Host header');
const READ_ALREADY = new Error('the request body was already read');
// An http(s) URL's scheme and authority (RFC 3986 §3.2): up to the first `/`, `?` or `#` after `//`.
const AUTHORITY = /^https?:\/\/[^/?#]*/i;

/** How the client's address is found: from the request and what the runtime passed beside it. */
export type ClientAddress = (request: Request, ...platform: unknown[]) => string | undefined;

/**
 * The exchange for one request on a Web-standard runtime: the `Request` in, the `Response` out, and what
 * the handler's request reads from them (headers lower-cased on first use, an abort when the runtime aborts
 * its signal).
 */
export class FetchExchange extends Exchange {
  readonly target: string;
  #headers: RequestHeaders | undefined = undefined;
  #bodyHeaders: BodyHeaders | undefined = undefined;
  #responded = false;
  /** The response, once written before anyone waits for it. */
  #response: Response | undefined = undefined;
  /** Who waits for a response that was not ready at once. */
  #resolve: ((response: Response) => void) | undefined = undefined;
  /** The bytes a peek read (a multipart form's first part), handed first to the read that continues it. */
  #ahead: Uint8Array | undefined = undefined;

  constructor(
    readonly request: Request,
    /** What the runtime passed beside the request (Bun's server, Deno's connection info). */
    private readonly platform: unknown[],
    /** Looked up only when a handler asks for `req.ip`. */
    private readonly clientAddress: ClientAddress,
    /** Where the event streams this handler writes are kept. */
    private readonly streams?: OpenStreams,
  ) {
    super(request.method);
    const url = request.url;
    // Bun gives the path alone when the Host is missing (HTTP/1.0) or is no host name; anything else is absolute.
    if (url.charCodeAt(0) === 47 /* / */) this.target = url;
    else {
      // The origin form of an absolute URL: what follows its authority, which ends at a `/`, `?` or `#`; a URL
      // of another scheme is kept as it is, for the request path to refuse.
      const authority = AUTHORITY.exec(url);
      const rest = authority === null ? undefined : url.slice(authority[0].length);
      this.target = rest === undefined ? url : rest.charCodeAt(0) === 47 /* / */ ? rest : `/${rest}`;
    }
  }

  get accept(): string | undefined {
    return this.request.headers.get('accept') ?? undefined;
  }

  headers(): RequestHeaders {
    if (this.#headers !== undefined) return this.#headers;
    const headers: Record<string, string> = new NullObject();
    this.request.headers.forEach((value, name) => (headers[name] = value));
    return (this.#headers = headers);
  }

  protected peerAddress(): string | undefined {
    return this.clientAddress(this.request, ...this.platform);
  }

  /**
   * The response: the `Response` itself when the request path wrote it at once, so that the runtime need not
   * wait on a promise, else a promise of it.
   */
  response(): Response | Promise<Response> {
    return this.#response ?? new Promise((resolve) => (this.#resolve = resolve));
  }

  /** Hands the response over, the first one only (a late handler after a `503` has nobody to answer). */
  private handOver(response: Response): void {
    if (this.#resolve !== undefined) this.#resolve(response);
    else this.#response ??= response;
  }

  watch(abort: (reason: unknown) => void): void {
    const signal = this.request.signal;
    if (signal.aborted) return abort(new Error('the client went away'));
    // Some runtimes abort a request's signal once its response is done: that is no client going away.
    const gone = () => this.#responded || abort(new Error('the client went away'));
    signal.addEventListener('abort', gone, { once: true });
  }

  // The runtime checked the request line and joined repeated headers: Bun joins repeated Host values with `, `,
  // which no host name holds. Deno builds the URL the target is read from out of the Host as sent, so a Host
  // that is no host name is refused before anything routes by that URL.
  headProblem(): HttpError | undefined {
    const host = this.request.headers.get('host');
    if (host === null) return undefined;
    if (host.includes(',')) return MANY_HOSTS;
    return isHost(host) ? undefined : BAD_HOST;
  }

  bodyHeaders(): BodyHeaders {
    // A form's method override reads them before the body does: each read is a call into the runtime.
    if (this.#bodyHeaders !== undefined) return this.#bodyHeaders;
    const headers = this.request.headers;
    const length = headers.get('content-length') ?? undefined;
    return (this.#bodyHeaders = {
      type: headers.get('content-type') ?? undefined,
      encoding: headers.get('content-encoding') ?? undefined,
      length,
      // `Expect: 100-continue` is for the runtime's server to answer: nothing here reads it.
      expect: undefined,
      // Bun and Deno refuse a declared length with Transfer-Encoding (in process it changes nothing read), so
      // only a body of none is asked; one of no length at all (a Request made in process) is sent chunked.
      transfer:
        length !== undefined
          ? undefined
          : (headers.get('transfer-encoding') ?? (this.request.body !== null ? 'chunked' : undefined)),
    });
  }

  originHeaders(): OriginHeaders {
    const headers = this.request.headers;
    return {
      secFetchSite: headers.get('sec-fetch-site') ?? undefined,
      origin: headers.get('origin') ?? undefined,
      host: headers.get('host') ?? authority(this.request.url),
    };
  }

  readBody(headers: BodyHeaders, limit: number, done: BodyDone): void {
    const request = this.request;
    if (request.bodyUsed) return done(this, undefined, READ_ALREADY);
    const read = (bytes: Uint8Array | undefined) => {
      if (bytes === undefined) return done(this, undefined, tooLarge(limit));
      const text = decodeUtf8(bytes);
      if (text === undefined) return done(this, undefined, NOT_UTF8);
      done(this, text, undefined);
    };
    const aborted = () => done(this, undefined, ABORTED);
    // A declared length is checked against the limit already: read it whole, without a stream's callbacks.
    if (headers.length !== undefined && headers.transfer === undefined)
      request
        .arrayBuffer()
        .then((buffer) => read(buffer.byteLength > limit ? undefined : new Uint8Array(buffer)), aborted);
    else if (request.body === null) read(new Uint8Array(0));
    else readLimited(request.body.getReader(), limit).then(read, aborted);
  }

  readStream(_headers: BodyHeaders, take: (chunk: Uint8Array) => void, done: StreamDone): void {
    const ahead = this.#ahead;
    // A body peeked at is used already, by the peek, which handed back what it read.
    if (ahead === undefined && this.request.bodyUsed) return done(this, READ_ALREADY);
    this.#ahead = undefined;
    void streamWebBody(this, this.request.body, take, done, ahead);
  }

  // The runtime owns the connection: a body peeked at and read no further is its to drain or close.
  peekBody(_headers: BodyHeaders, look: (chunk: Uint8Array) => boolean, done: StreamDone): void {
    if (this.request.bodyUsed) return done(this, READ_ALREADY);
    const keep = (bytes: Uint8Array) => (this.#ahead = bytes);
    void peekWebBody(this, this.request.body, look, keep, done);
  }

  write(out: HttpResponse): void {
    const noContent = out.status === 204 || out.status === 304;
    const body = out.body;
    const bodiless = noContent || this.req.method === 'HEAD';
    const stream = typeof body === 'string' || body instanceof Uint8Array ? undefined : body;
    // A stream nobody reads (HEAD's, or one whose client left while the handler ran) is let go: an event stream
    // closes.
    const dropped = stream !== undefined && (bodiless || this.request.signal.aborted);
    if (dropped) void stream.cancel().catch(() => {});
    else if (stream !== undefined && this.streams !== undefined) this.track(stream);
    // No body at all rather than an empty one, which the Response constructor would give a Content-Type.
    const empty = body === '' || (body instanceof Uint8Array && body.byteLength === 0);
    // The runtime frames a body the Response carries (a header more costs Deno its fast path); the length of
    // one it does not carry (HEAD's, an empty one) goes in with the headers, counted rather than encoded.
    if ((bodiless || empty) && !noContent && stream === undefined)
      out.headers['Content-Length'] = String(
        typeof body === 'string' ? utf8Length(body) : (body as Uint8Array).byteLength,
      );
    this.#responded = true;
    const headers = out.cookies === undefined ? responseHeaders(out.headers) : headersWithCookies(out);
    this.handOver(
      new Response(
        bodiless || empty || dropped ? null : (body as BodyInit),
        headers === undefined ? { status: out.status } : { status: out.status, headers },
      ),
    );
  }

  /**
   * Keeps an event stream for `drain()`, and closes it when the request's signal aborts; one written while
   * draining ends at once (its queued bytes still go).
   */
  private track(body: ReadableStream<Uint8Array>): void {
    const events = eventStreamOf(body);
    if (events === undefined) return;
    this.streams!.keep(events);
    if (events.closed) return;
    // workerd never cancels a body whose client left, it aborts the request's signal (enable_request_signal):
    // without this, the stream would count as open for the isolate's life.
    const signal = this.request.signal;
    const gone = () => events.close();
    signal.addEventListener('abort', gone, { once: true });
    events.onClose(() => signal.removeEventListener('abort', gone));
  }

  destroy(): void {
    this.handOver(Response.error());
  }

  // The runtime owns the connection: an unread body is its to drain or close.
  closeAfter(): void {}

  hold(): void {}

  release(): void {}

  pass(): boolean {
    return false;
  }
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// Drops a leading BOM as `withoutBom` does, and replaces what is not UTF-8 rather than throwing.
const LENIENT = new TextDecoder();

/** The text without a leading BOM, or `undefined` when the bytes are not UTF-8. */
function decodeUtf8(bytes: Uint8Array): string | undefined {
  // The lenient decoder is the runtimes' fast one (Deno's strict one is much slower); only a text
  // holding U+FFFD, which it writes for what is not UTF-8, may hide an error, so only that one is decoded again.
  const text = LENIENT.decode(bytes);
  if (!text.includes('\uFFFD')) return text;
  try {
    return withoutBom(STRICT_UTF8.decode(bytes));
  } catch {
    return undefined;
  }
}

/** The whole stream, or `undefined` once it passes `limit` bytes (the rest is cancelled, never read). */
async function readLimited(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) (bytes.set(chunk, at), (at += chunk.byteLength));
  return bytes;
}

/** The host of a serialized absolute URL (as `new URL(url).host`, unparsed), or `undefined` for a path alone. */
function authority(url: string): string | undefined {
  const from = url.indexOf('//');
  if (from === -1) return undefined;
  const to = url.indexOf('/', from + 2);
  return url.slice(from + 2, to === -1 ? url.length : to);
}

/** The UTF-8 length of a string, counted without encoding it (a lone surrogate counts three, as U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c <= 0xdbff && c >= 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

// The headers a Response is made with: as cheap as each runtime reads them, Set-Cookie a line per cookie.
// Bun copies a `Headers` natively but converts a record one property at a time; Deno and undici iterate a
// `Headers` (sorted) slower than they read a record.
const SHARE_HEADERS = typeof (globalThis as { Bun?: unknown }).Bun === 'object';

/** On Bun, a `Headers` for each Content-Type a response has alone, made once: most responses are one of a few. */
const TYPED = new Map<string, Headers>();
const MAX_TYPED = 32;

/** The response's headers with a Set-Cookie line per cookie, which a record cannot hold. */
export function headersWithCookies(out: HttpResponse): Headers {
  const headers = new Headers(out.headers);
  for (const line of out.cookies!) headers.append('Set-Cookie', line);
  return headers;
}

/**
 * The headers a response's Response is made with: none for none (the runtimes read even an empty record),
 * and on Bun a shared `Headers` for a Content-Type alone (the Response gets its own copy either way).
 */
export function responseHeaders(headers: Record<string, string>): HeadersInit | undefined {
  let type: string | undefined;
  for (const name in headers) {
    if (!SHARE_HEADERS || type !== undefined || name !== 'Content-Type') return headers;
    type = headers[name]!;
  }
  if (type === undefined) return undefined;
  let shared = TYPED.get(type);
  if (shared === undefined) {
    // Handlers may name types without end: past a few, the record is used as it is.
    if (TYPED.size >= MAX_TYPED) return headers;
    TYPED.set(type, (shared = new Headers({ 'Content-Type': type })));
  }
  return shared;
}
