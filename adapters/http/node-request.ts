// The node:http side of one request: node's `req` and `res` behind the request path's `Exchange`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../core/errors.js';
import type { OriginHeaders } from '../../core/request/cross-site.js';
import type { Rendered } from '../../core/response/render.js';
import { ABORTED, Exchange, type BodyDone, type BodyHeaders } from '../pipeline/exchange.js';
import { BodyReader } from './body-reader.js';
import { bodyHeaders, bodyHeadersObject, countHeader } from './raw-headers.js';
import { occupy, release } from './connection.js';
import { send } from './send.js';

const NO_HOST = new HttpError(400, 'an HTTP/1.1 request needs a Host header');
const MANY_HOSTS = new HttpError(400, 'the request has more than one Host header');
const READ_ALREADY = new Error('the request body was already read by other middleware');

/**
 * The request as handlers see it (node's headers on first use, and an abort when the client
 * goes away), carrying node's `req` and `res` through the request path.
 */
export class NodeRequest extends Exchange {
  #bodyHeaders: BodyHeaders | undefined = undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly next: (() => void) | undefined,
    /** Read body headers from node's headers object, which middleware before sevenfold may have changed. */
    private readonly headersObject: boolean,
  ) {
    super(req.method ?? 'GET');
  }

  get target(): string {
    return this.req.url ?? '/';
  }

  get accept(): string | string[] | undefined {
    return this.req.headers.accept;
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

  headProblem(): HttpError | undefined {
    // Counted in rawHeaders: node keeps only the first Host, and its headers object is built lazily.
    const hosts = countHeader(this.req, 'host');
    if (hosts === 1) return undefined;
    if (hosts > 1) return MANY_HOSTS;
    return this.req.httpVersion === '1.0' ? undefined : NO_HOST;
  }

  bodyHeaders(): BodyHeaders {
    return (this.#bodyHeaders ??= this.headersObject ? bodyHeadersObject(this.req) : bodyHeaders(this.req));
  }

  originHeaders(): OriginHeaders {
    const headers = this.req.headers;
    const site = headers['sec-fetch-site'];
    return { secFetchSite: Array.isArray(site) ? site[0] : site, origin: headers.origin, host: headers.host };
  }

  readBody(headers: BodyHeaders, limit: number, done: BodyDone): void {
    const { req, res } = this;
    if (req.destroyed) return done(this, undefined, ABORTED);
    if (req.readableEnded) return done(this, undefined, READ_ALREADY);
    if (headers.expect?.toLowerCase() === '100-continue' && !res.headersSent) res.writeContinue();
    new BodyReader(this, limit, done).start();
  }

  write(out: Rendered): void {
    try {
      send(this.req, this.res, out);
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
    occupy(this.req);
  }

  release(): void {
    release(this.req);
  }

  pass(): boolean {
    if (this.next === undefined) return false;
    this.next();
    return true;
  }
}
