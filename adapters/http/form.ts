import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyFormat, parseBody } from '../../core/request/parse-body.js';
import type { OriginHeaders } from '../../core/request/cross-site.js';
import { overriddenMethod } from '../../core/request/method-override.js';
import type { Target } from '../../core/request/target.js';
import type { Rendered } from '../../core/response/render.js';
import { ABORTED, BodyReader, tooLarge, utf8Text, type BodyHeaders } from './body-reader.js';
import { occupy, release } from './connection.js';
import type { NodeRequest } from './node-request.js';
import { sendSafely } from './send.js';

/** A urlencoded POST whose body is read before it is matched. */
export interface PendingForm {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: string;
  readonly target: Target;
  readonly next: (() => void) | undefined;
}

/** What the form read needs of its dispatcher. */
export interface FormDispatch {
  readonly bodyLimit: number;
  readonly maxJsonDepth: number;
  /** The request for a route, or `undefined` once a miss is answered (or passed on). */
  matched(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: string,
    target: Target,
    next: (() => void) | undefined,
  ): NodeRequest | undefined;
  /** Goes on with a request whose body is read (`formRead`): its guards and checks, the handler, the answer. */
  proceed(request: NodeRequest, headers: BodyHeaders | undefined, formRead: boolean): void;
  /** The error as the request's `Accept` prefers it. */
  problem(error: unknown, req: IncomingMessage): Rendered;
}

/**
 * Method override's half of the request path: a urlencoded POST has its body read and parsed
 * before matching, so that `_method` decides the method the route is matched with (and 405/Allow
 * are those of that method).
 */
export function formReader(dispatch: FormDispatch): (form: PendingForm, headers: BodyHeaders) => void {
  const { bodyLimit, maxJsonDepth } = dispatch;

  function refuse(form: PendingForm, error: unknown): void {
    if (error !== ABORTED) sendSafely(form.req, form.res, dispatch.problem(error, form.req));
    release(form.req);
  }

  /** Where the body read ends: the method it asks for, then the route. */
  function read(reader: BodyReader<PendingForm>, error: unknown): void {
    const form = reader.request;
    if (error !== undefined) return refuse(form, error);
    let body: Record<string, unknown>;
    try {
      body = parseBody('form', utf8Text(reader.bytes()), maxJsonDepth) as Record<string, unknown>;
    } catch (parseError) {
      return refuse(form, parseError);
    }
    const { req, res, url, target, next } = form;
    const method = overriddenMethod(body) ?? 'POST';
    const request = dispatch.matched(req, res, method, url, target, next);
    // The connection was held for the body: a miss is answered first, then requests behind it run.
    if (request === undefined) return release(req);
    // A route that takes no body (DELETE) gets none, as it would without the override.
    if (request.route.body) request.body = body;
    dispatch.proceed(request, undefined, true);
  }

  return (form, headers) => {
    const { req, res } = form;
    occupy(req);
    const declared = headers.length === undefined ? NaN : Number(headers.length);
    try {
      if (bodyFormat(headers.type, headers.encoding) !== 'form') throw new Error('not a form');
    } catch (error) {
      return refuse(form, error);
    }
    if (declared > bodyLimit) return refuse(form, tooLarge(bodyLimit));
    if (headers.expect?.toLowerCase() === '100-continue' && !res.headersSent) res.writeContinue();
    if (req.readableEnded)
      return refuse(form, new Error('the request body was already read by other middleware'));
    new BodyReader(form, 'form', bodyLimit, read).start();
  };
}

/** The headers the cross-site decision reads, from node's headers object (built only for form posts). */
export function originHeaders(req: IncomingMessage): OriginHeaders {
  const site = req.headers['sec-fetch-site'];
  return {
    secFetchSite: Array.isArray(site) ? site[0] : site,
    origin: req.headers.origin,
    host: req.headers.host,
  };
}
