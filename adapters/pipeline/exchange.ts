// What an I/O shell (node:http, or a Web-standard runtime) gives the request path for one request: headers,
// body, the response's way out.
import type { OriginHeaders } from '../../core/request/cross-site.js';
import { HttpError } from '../../core/errors.js';
import { IncomingRequest, type RequestSource } from '../../core/request/request.js';
import type { RequestHeaders } from '../../core/types.js';
import type { BodyFormat } from '../../core/request/parse-body.js';
import type { Matcher } from '../../core/matcher/index.js';
import type { JsonWriter, HttpResponse } from '../../core/response/render.js';
import type { EventStream } from '../../core/response/event-stream.js';

/** The headers that decide how a body is read. */
export interface BodyHeaders {
  readonly type: string | undefined;
  readonly encoding: string | undefined;
  readonly length: string | undefined;
  readonly expect: string | undefined;
  readonly transfer: string | undefined;
}

/** Whether a request's headers say its body has no bytes at all: no length, or a length of zero. */
export function sendsNothing(headers: BodyHeaders): boolean {
  return headers.transfer === undefined && (headers.length === undefined || headers.length === '0');
}

/** Where a body read ends: its UTF-8 text, or why there is none (`ABORTED` when the client went away). */
export type BodyDone = (exchange: Exchange, text: string | undefined, error: unknown) => void;

/** Where a streamed body read ends: `undefined` once every byte was taken, else why it stopped. */
export type StreamDone = (exchange: Exchange, error: unknown) => void;

/** The outcome of a body read whose client went away: there is nobody left to answer. */
export const ABORTED = Symbol('request aborted');

/** The `413` for a body over `limit` bytes. */
export function tooLarge(limit: number): HttpError {
  // The rest of an oversized body is never read, so the connection cannot be reused.
  return new HttpError(413, `the request body is larger than ${limit} bytes`, {
    headers: { Connection: 'close' },
  });
}

/**
 * One request as the request path sees it: the handler's `req` (an `IncomingRequest` it owns), the path's
 * own state, and what only the I/O shell can do. The path calls these in order and never touches the
 * platform; the handler sees `req` alone, which reads this exchange only through its private source.
 */
export abstract class Exchange implements RequestSource {
  /** The request handlers, guards and hooks receive. */
  readonly req: IncomingRequest<any>;
  /** The body is read and parsed (before matching, for a form with `_method`): nobody reads it again. */
  bodyRead = false;
  /** How many proxies in front of the server to believe in `X-Forwarded-For` (`trustProxy`). */
  trustProxy = 0;
  /**
   * How many of its route's guards ran already (those every route a form may reach shares, before its body).
   */
  guardsRun = 0;
  /** How the body is parsed, once its headers are checked. */
  format: BodyFormat | undefined = undefined;
  /** The body's first part is the `_method` field the request was routed by: the upload's parser drops it. */
  methodPart = false;
  /** An upload's files, set apart while the schema checks its text fields. */
  files: Record<string, File | File[]> | undefined = undefined;
  /** The table's matcher, which `allowed()` asks. */
  matcher: Matcher | undefined = undefined;
  /** How the matched route writes its JSON answers, when it declares response schemas. */
  json: JsonWriter | undefined = undefined;
  /** The event stream the answer carries, once one is opened. */
  events: EventStream | undefined = undefined;

  constructor(method: string) {
    this.req = new IncomingRequest(method, this);
  }

  /**
   * The methods the table's routes answer at this request's path (`['GET', 'HEAD', 'POST', 'OPTIONS']`),
   * none for a path no route serves: what a hook answers a preflight from.
   */
  allowed(): readonly string[] {
    const match = this.matcher?.match('OPTIONS', this.req.path);
    if (match === undefined || match.kind === 'not-found' || match.kind === 'bad-request') return [];
    return match.kind === 'found' ? [match.route.method, 'OPTIONS'] : match.allow.split(', ');
  }

  ip(): string | undefined {
    const peer = this.peerAddress();
    if (this.trustProxy === 0) return peer;
    return forwardedAddress(this.headers()['x-forwarded-for'], peer, this.trustProxy);
  }

  /** The request headers, lower-cased. */
  abstract headers(): RequestHeaders;

  /** The address of the connection's other end. */
  protected abstract peerAddress(): string | undefined;

  /** Calls `abort` when the client goes away. */
  abstract watch(abort: (reason: unknown) => void): void;

  /** The request target exactly as the client sent it. */
  abstract readonly target: string;

  /** The request's `Accept`, which picks problem+json or an HTML page for an error. */
  abstract readonly accept: string | string[] | undefined;

  /**
   * A refusal that the request's head alone decides and only the shell can see (a missing or repeated Host).
   */
  abstract headProblem(): HttpError | undefined;

  /** The body's headers; throws an `HttpError` when they cannot be read (two Content-Types). */
  abstract bodyHeaders(): BodyHeaders;

  /** The headers the cross-site decision reads. */
  abstract originHeaders(): OriginHeaders;

  /** The Content-Type, or `undefined` when there is none or the headers cannot be read. */
  contentType(): string | undefined {
    try {
      return this.bodyHeaders().type;
    } catch {
      // Two Content-Types: the body read refuses it, with the route's answer.
      return undefined;
    }
  }

  /** The request as handlers and `onError` see it: only once it has a route. */
  get matchedRequest(): IncomingRequest<any> | undefined {
    return this.req.route === undefined ? undefined : this.req;
  }

  /**
   * Reads the whole body, at most `limit` bytes (a `413` past it, the rest unread), inviting a
   * `100-continue` client first; `done` gets it once.
   */
  abstract readBody(headers: BodyHeaders, limit: number, done: BodyDone): void;

  /**
   * Reads the body chunk by chunk into `take`; a throw from `take` stops the read (the rest unread) and is
   * `done`'s error. Invites a `100-continue` client first.
   */
  abstract readStream(headers: BodyHeaders, take: (chunk: Uint8Array) => void, done: StreamDone): void;

  /**
   * Reads the start of the body into `look` until it returns `true`, then stops and puts every byte it read
   * back: the next `readStream` reads the body from its first byte, and an answer that reads no further has
   * the rest drained (or left to the runtime). A throw from `look` stops the read as in `readStream`; `done`
   * has no error once `look` had enough, or when the body ended first. Invites a `100-continue` client first.
   */
  abstract peekBody(headers: BodyHeaders, look: (chunk: Uint8Array) => boolean, done: StreamDone): void;

  /** Writes the answer; throws when the platform refuses it (a header value with CR/LF). */
  abstract write(out: HttpResponse): void;

  /** Gives up on a request that could not even be answered: closes its connection. */
  abstract destroy(): void;

  /** The connection closes after this answer: the request's unread body cannot be skipped. */
  abstract closeAfter(): void;

  /**
   * Holds the connection while the request is answered asynchronously, so that requests pipelined behind it
   * wait.
   */
  abstract hold(): void;

  /** Frees the connection: requests that waited behind this one run. */
  abstract release(): void;

  /** Hands a request no route matches to the app behind sevenfold; `false` when there is none. */
  abstract pass(): boolean;
}

/**
 * The client's address behind `hops` trusted proxies: each appends the address it was called from
 * to `X-Forwarded-For`, so the one `hops` from the right end (the peer being the last) is the
 * first that no trusted proxy wrote; a shorter list gives its first entry.
 */
export function forwardedAddress(
  forwarded: string | string[] | undefined,
  peer: string | undefined,
  hops: number,
): string | undefined {
  const list = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (peer !== undefined) list.push(peer);
  return list[Math.max(0, list.length - 1 - hops)];
}
