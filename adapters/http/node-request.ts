import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../core/errors.js';
import { IncomingRequest } from '../../core/request/incoming.js';
import type { Route } from '../../core/types.js';

/**
 * The request as handlers see it (node's headers on first use, and an abort when the client
 * goes away), carrying node's `req` and `res` through the request path.
 */
export class NodeRequest<P = Record<string, string>> extends IncomingRequest<P> {
  constructor(
    method: string,
    url: string,
    path: string,
    search: string,
    params: P,
    route: Route,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
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

const NO_HOST = new HttpError(400, 'an HTTP/1.1 request needs a Host header');
const MANY_HOSTS = new HttpError(400, 'the request has more than one Host header');

/** Refusals that come before routing: an overlong target, and a missing or repeated Host. */
export function checkRequest(req: IncomingMessage, url: string, maxUrlLength: number): HttpError | undefined {
  if (url.length > maxUrlLength)
    return new HttpError(414, `the request target is longer than ${maxUrlLength} characters`);
  // Counted in rawHeaders: node keeps only the first Host, and its headers object is built lazily.
  const hosts = countHeader(req, 'host');
  if (hosts === 1) return undefined;
  if (hosts > 1) return MANY_HOSTS;
  return req.httpVersion === '1.0' ? undefined : NO_HOST;
}

/** How many times a header came, whatever its case. */
export function countHeader(req: IncomingMessage, lowerName: string): number {
  const raw = req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) if (isName(raw[i]!, lowerName)) seen++;
  return seen;
}

/**
 * Whether a header name is `lower` (letters and hyphens) in any case, compared in place: no
 * lower-cased copy is made. Setting bit 5 lower-cases a letter and changes no other token character into one.
 */
export function isName(name: string, lower: string): boolean {
  if (name.length !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) if ((name.charCodeAt(i) | 32) !== lower.charCodeAt(i)) return false;
  return true;
}
