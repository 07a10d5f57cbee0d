// The node:http side of one request: node's `req` and `res` behind the request path's `Exchange`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../core/errors.js';
import type { OriginHeaders } from '../../core/request/cross-site.js';
import { BAD_HOST, isHost } from '../../core/request/target.js';
import type { HttpResponse } from '../../core/response/render.js';
import { ABORTED, Exchange, type BodyDone, type BodyHeaders, type StreamDone } from '../pipeline/exchange.js';
import { BodyReader } from './body-reader.js';
import { peekBody, streamBody } from './stream-reader.js';
import { bodyHeadersObject, readHead, type Head } from './raw-headers.js';
import { occupy, release } from './connection.js';
import { send } from './send.js';

const NO_HOST = new HttpError(400, 'an HTTP/1.1 request needs a Host header');
const MANY_HOSTS = new HttpError(400, 'the request has more than one Host header');
// node keeps the first, a proxy in front may have checked the last: neither is safe to believe.
const MANY_AUTHORIZATIONS = new HttpError(400, 'the request has more than one Authorization header');
const READ_ALREADY = new Error('the request body was already read by other middleware');

/**
 * The answer to a Transfer-Encoding other than `chunked` alone, by RFC 9112: `400` when chunked is
 * not last (the body's length is unknown), `501` for a coding before it (node would read the body as plain).
 */
function transferProblem(transfer: string): HttpError | undefined {
  const codings = transfer.split(',').map((coding) => coding.trim().toLowerCase());
  if (codings.length === 1 && codings[0] === 'chunked') return undefined;
  const close = { headers: { Connection: 'close' } };
  if (codings.at(-1) !== 'chunked')
    return new HttpError(400, 'Transfer-Encoding must end with chunked: the body has no other length', close);
  return new HttpError(
    501,
    `Transfer-Encoding ${JSON.stringify(transfer)} is not supported; send the body with chunked alone`,
    close,
  );
}

/**
 * The exchange for one request on node:http: node's `IncomingMessage` and `ServerResponse` carried through
 * the request path, and what the handler's request reads from them (headers on first use, an abort when
 * the client goes away).
 */
export class NodeExchange extends Exchange {
  #head: Head | undefined = undefined;
  #bodyHeaders: BodyHeaders | undefined = undefined;

  constructor(
    readonly message: IncomingMessage,
    readonly res: ServerResponse,
    private readonly next: (() => void) | undefined,
    /** Read body headers from node's headers object, which middleware before sevenfold may have changed. */
    private readonly headersObject: boolean,
  ) {
    super(message.method ?? 'GET');
  }

  get target(): string {
    return this.message.url ?? '/';
  }

  get accept(): string | string[] | undefined {
    return this.message.headers.accept;
  }

  headers(): IncomingMessage['headers'] {
    return this.message.headers;
  }

  protected peerAddress(): string | undefined {
    return this.message.socket.remoteAddress;
  }

  watch(abort: (reason: unknown) => void): void {
    const res = this.res;
    if (res.destroyed && !res.writableFinished) return abort(new Error('the client went away'));
    res.once('close', () => {
      if (!res.writableFinished) abort(new Error('the client went away'));
    });
  }

  /**
   * The headers the request path reads, from one pass over the raw lines (node keeps only the first of some).
   */
  #readHead(): Head {
    return (this.#head ??= readHead(this.message));
  }

  headProblem(): HttpError | undefined {
    const head = this.#readHead();
    if (head.hosts !== 1 && (head.hosts > 1 || this.message.httpVersion !== '1.0'))
      return head.hosts > 1 ? MANY_HOSTS : NO_HOST;
    if (head.host !== undefined && !isHost(head.host)) return BAD_HOST;
    if (head.authorizations > 1) return MANY_AUTHORIZATIONS;
    const transfer = head.body instanceof HttpError ? undefined : head.body.transfer;
    return transfer === undefined ? undefined : transferProblem(transfer);
  }

  bodyHeaders(): BodyHeaders {
    if (this.#bodyHeaders !== undefined) return this.#bodyHeaders;
    const head = this.#readHead();
    if (this.headersObject) return (this.#bodyHeaders = bodyHeadersObject(this.message, head));
    if (head.body instanceof HttpError) throw head.body;
    return (this.#bodyHeaders = head.body);
  }

  originHeaders(): OriginHeaders {
    if (this.headersObject) {
      // Middleware before sevenfold may have changed these: read them as it left them.
      const headers = this.message.headers;
      const site = headers['sec-fetch-site'];
      return {
        secFetchSite: Array.isArray(site) ? site[0] : site,
        origin: headers.origin,
        host: headers.host,
      };
    }
    return this.#readHead();
  }

  readBody(headers: BodyHeaders, limit: number, done: BodyDone): void {
    const { message: req, res } = this;
    if (req.destroyed) return done(this, undefined, ABORTED);
    if (req.readableEnded) return done(this, undefined, READ_ALREADY);
    if (headers.expect?.toLowerCase() === '100-continue' && !res.headersSent) res.writeContinue();
    new BodyReader(this, limit, done).start();
  }

  readStream(headers: BodyHeaders, take: (chunk: Uint8Array) => void, done: StreamDone): void {
    const { message: req, res } = this;
    if (req.destroyed) return done(this, ABORTED);
    if (req.readableEnded) return done(this, READ_ALREADY);
    // A body paused by a peek (`peekBody`) had its client invited then.
    if (headers.expect?.toLowerCase() === '100-continue' && !res.headersSent && req.readableFlowing !== false)
      res.writeContinue();
    streamBody(this, req, take, done);
  }

  peekBody(headers: BodyHeaders, look: (chunk: Uint8Array) => boolean, done: StreamDone): void {
    const { message: req, res } = this;
    if (req.destroyed) return done(this, ABORTED);
    if (req.readableEnded) return done(this, READ_ALREADY);
    if (headers.expect?.toLowerCase() === '100-continue' && !res.headersSent) res.writeContinue();
    peekBody(this, req, res, look, done);
  }

  write(out: HttpResponse): void {
    try {
      send(this.message, this.res, out);
    } catch (error) {
      // A refused writeHead may leave some headers set: the next answer starts clean.
      if (!this.res.headersSent) for (const name of this.res.getHeaderNames()) this.res.removeHeader(name);
      throw error;
    }
  }

  destroy(): void {
    this.res.destroy();
  }

  closeAfter(): void {
    this.res.shouldKeepAlive = false;
  }

  hold(): void {
    occupy(this.message);
  }

  release(): void {
    release(this.message);
  }

  pass(): boolean {
    if (this.next === undefined) return false;
    this.next();
    return true;
  }
}
