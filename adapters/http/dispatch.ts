import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyFormat, parseBody, type BodyFormat } from '../../core/body.js';
import { HttpError } from '../../core/errors.js';
import { compile } from '../../core/matcher/index.js';
import { wholeNumber } from '../../core/options.js';
import { originForm, splitTarget, type Target } from '../../core/path.js';
import { errorPage as errorPageOf } from '../../core/error-page.js';
import {
  isThenable,
  renderError,
  renderMiss,
  renderResult,
  type ErrorPage,
  type Rendered,
} from '../../core/render.js';
import { Reply } from '../../core/reply.js';
import { tableOf, type Routable } from '../../core/table.js';
import type { Request } from '../../core/types.js';
import { CROSS_SITE, isCrossSite, isFormType, isUrlencoded, trustedOrigins } from '../../core/forms.js';
import {
  ABORTED,
  BodyReader,
  bodyHeaders,
  bodyHeadersObject,
  tooLarge,
  utf8Text,
  type BodyHeaders,
} from './body.js';
import { isBusy, occupy, release, waitTurn } from './connection.js';
import { formReader, originHeaders } from './form.js';
import { DEFAULTS, type AdapterOptions, type DispatchOptions, type NodeHandler } from './options.js';
import { checkRequest, NodeRequest } from './request.js';
import { send, sendSafely } from './send.js';

export type { AdapterOptions, DispatchOptions, NodeHandler } from './options.js';

/** An async handler under way, for the timeout sweep. */
interface PendingHandler {
  readonly request: NodeRequest;
  /** When it is cut, on `performance.now()`'s clock: the sweep compares times, not its own ticks. */
  readonly expires: number;
}

const BAD_TARGET = new HttpError(400, 'the request target must be a path such as /posts');

/**
 * The request path both adapters share: check the request line and Host, match, read the
 * body, run the handler, write the result or the problem. Adapters only decide where
 * requests come from. A handler that answers at once is served without a promise; only
 * bodies and async handlers go async.
 */
export function createDispatcher(
  source: Routable,
  options: DispatchOptions = {},
  adapter: AdapterOptions = {},
): NodeHandler {
  const bodyLimit = wholeNumber('bodyLimit', options.bodyLimit ?? DEFAULTS.bodyLimit, 0);
  const maxJsonDepth = wholeNumber('maxJsonDepth', options.maxJsonDepth ?? DEFAULTS.maxJsonDepth, 1);
  const maxUrlLength = wholeNumber('maxUrlLength', options.maxUrlLength ?? DEFAULTS.maxUrlLength, 1);
  const handlerTimeout = wholeNumber('handlerTimeout', options.handlerTimeout ?? DEFAULTS.handlerTimeout, 1);
  const methodOverride = options.methodOverride !== false;
  const crossSiteProtection = options.crossSiteProtection !== false;
  const trusted = trustedOrigins(options.trustedOrigins);
  const table = tableOf(source);
  // compile() checks maxParamLength, as it does for every caller.
  const matcher = compile(table, { maxParamLength: options.maxParamLength ?? DEFAULTS.maxParamLength });
  const report = options.onError ?? defaultOnError;
  // A logger that throws must not take the request path (or the timeout sweep) down with it.
  const onError = (error: unknown, request: Request | undefined): void => {
    try {
      report(error, request);
    } catch {
      // Nothing sensible is left to do with an error about an error.
    }
  };
  const errorPage = guardedPage(options.errorPage, onError);
  const slow = new HttpError(503, `the server did not answer within ${handlerTimeout} ms`);
  // One coarse sweep times out async handlers, instead of a timer per request: a handler is cut
  // at most one tick late, however busy the event loop is.
  const tick = Math.max(5, Math.min(250, Math.floor(handlerTimeout / 8)));
  const pending = new Set<PendingHandler>();
  const readForm = formReader({ bodyLimit, maxJsonDepth, matched, handle, problem });
  let sweeper: ReturnType<typeof setInterval> | undefined;

  function dispatch(req: IncomingMessage, res: ServerResponse, next?: () => void): void {
    if (isBusy(req)) {
      // A request whose connection closed while it waited is dropped, not run.
      return waitTurn(req, () => req.socket.destroyed || res.destroyed || dispatch(req, res, next));
    }
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const refused = checkRequest(req, url, maxUrlLength);
    if (refused !== undefined) return sendSafely(req, res, problem(refused, req));
    const target = splitTarget(url);
    if (target === undefined) {
      // `OPTIONS *` asks about the server as a whole; any other target must be a path.
      if (url === '*' && method === 'OPTIONS')
        return sendSafely(req, res, { status: 204, headers: {}, body: '' });
      return sendSafely(req, res, problem(BAD_TARGET, req));
    }
    // Only unsafe methods can carry a form: GET and HEAD, nearly every request, skip this.
    let headers: BodyHeaders | undefined;
    if (
      method !== 'GET' &&
      method !== 'HEAD' &&
      method !== 'OPTIONS' &&
      (crossSiteProtection || methodOverride)
    ) {
      headers = readHeaders(req);
      if (headers !== undefined && isFormType(headers.type)) {
        if (crossSiteProtection && isCrossSite(originHeaders(req), trusted))
          return sendSafely(req, res, problem(CROSS_SITE, req));
        if (methodOverride && method === 'POST' && isUrlencoded(headers.type))
          return readForm({ req, res, url, target, next }, headers);
      }
    }
    const request = matched(req, res, method, url, target, next);
    if (request === undefined) return;
    if (!request.route.body) return handle(request);
    // The connection is held while the body is read, so that requests pipelined behind it wait.
    occupy(req);
    withBody(request, headers);
  }

  /** The request for the route `method` and the path match, or `undefined` once a miss is answered (or passed to `next`). */
  function matched(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: string,
    target: Target,
    next: (() => void) | undefined,
  ): NodeRequest | undefined {
    const match = matcher.match(method, target.path);
    if (match.kind !== 'found') {
      if (match.kind === 'not-found' && next !== undefined) next();
      else sendSafely(req, res, renderMiss(match, method, req.headers.accept, errorPage));
      return undefined;
    }
    return new NodeRequest(
      method,
      originUrl(url, target),
      target.path,
      target.search,
      match.params,
      match.route,
      req,
      res,
    );
  }

  /** The body's headers as the adapter reads them; `undefined` when they cannot be read (the body read says why). */
  function readHeaders(req: IncomingMessage): BodyHeaders | undefined {
    try {
      return adapter.headersObject === true ? bodyHeadersObject(req) : bodyHeaders(req);
    } catch {
      return undefined;
    }
  }

  /** Runs the handler and answers, then frees the connection; an async handler holds it until it answers. */
  function handle(request: NodeRequest): void {
    const reply = new Reply();
    let out: unknown;
    try {
      out = request.route.handler(request, reply);
    } catch (error) {
      fail(request, error);
      return release(request.req);
    }
    if (isThenable(out)) {
      occupy(request.req);
      return void later(request, out, reply);
    }
    respond(request, out, reply);
    release(request.req);
  }

  function respond(request: NodeRequest, out: unknown, reply: Reply): void {
    try {
      send(request.req, request.res, renderResult(out, reply.headers));
    } catch (error) {
      fail(request, error);
    }
  }

  function fail(request: NodeRequest, error: unknown): void {
    if (!(error instanceof HttpError)) onError(error, request);
    sendSafely(request.req, request.res, problem(error, request.req));
  }

  /** The error as the request's `Accept` prefers it: problem+json, or the error page for a browser. */
  function problem(error: unknown, req: IncomingMessage): Rendered {
    return renderError(error, req.headers.accept, errorPage);
  }

  /** Waits for an async handler under the timeout sweep, then answers and frees the connection. */
  async function later(request: NodeRequest, answer: PromiseLike<unknown>, reply: Reply): Promise<void> {
    const entry: PendingHandler = { request, expires: performance.now() + handlerTimeout };
    pending.add(entry);
    sweeper ??= setInterval(sweep, tick).unref();
    // Whoever answers frees the connection: here, or the sweep on a timeout.
    let answering = true;
    try {
      const out = await answer;
      answering = pending.delete(entry);
      if (answering) respond(request, out, reply);
    } catch (error) {
      answering = pending.delete(entry);
      if (answering) fail(request, error);
    } finally {
      if (answering) release(request.req);
    }
  }

  /** Answers every async handler past its time with a `503`, and stops once none is left. */
  function sweep(): void {
    const now = performance.now();
    for (const entry of pending) {
      if (entry.expires > now) continue;
      pending.delete(entry);
      const { request } = entry;
      const late = new Error(`${request.route.name} did not answer within ${handlerTimeout} ms`);
      request.abort(late);
      onError(late, request);
      sendSafely(request.req, request.res, problem(slow, request.req));
      release(request.req);
    }
    if (pending.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  /** Reads and parses the body with callbacks (no promise on this path), then handles the request. */
  function withBody(request: NodeRequest, known: BodyHeaders | undefined): void {
    const { req, res } = request;
    let format: BodyFormat;
    let declared: number;
    try {
      const headers = known ?? (adapter.headersObject === true ? bodyHeadersObject(req) : bodyHeaders(req));
      format = bodyFormat(headers.type, headers.encoding);
      declared = headers.length === undefined ? NaN : Number(headers.length);
      if (headers.expect?.toLowerCase() === '100-continue' && !(declared > bodyLimit) && !res.headersSent)
        res.writeContinue();
    } catch (error) {
      return refuse(request, error);
    }
    if (declared > bodyLimit) return refuse(request, tooLarge(bodyLimit));
    if (req.destroyed) return refuse(request, ABORTED);
    if (req.readableEnded)
      return refuse(request, new Error('the request body was already read by other middleware'));
    new BodyReader(request, format, bodyLimit, bodyRead).start();
  }

  /** Where a body read ends: parse and handle, or refuse. */
  function bodyRead(reader: BodyReader<NodeRequest>, error: unknown): void {
    const { request } = reader;
    if (error === undefined) {
      try {
        request.body = parseBody(reader.format, utf8Text(reader.bytes()), maxJsonDepth);
      } catch (parseError) {
        return refuse(request, parseError);
      }
      return handle(request);
    }
    refuse(request, error);
  }

  /** Answers a request whose body will not be handled, unless its client went away, and frees the connection. */
  function refuse(request: NodeRequest, error: unknown): void {
    if (error !== ABORTED) fail(request, error);
    release(request.req);
  }

  return dispatch;
}

/** The target in origin form, as handlers see it: the url itself when it already is one, so that no copy is made. */
function originUrl(url: string, target: Target): string {
  // Only a url in origin form without a fragment is exactly as long as its path, `?` and query.
  return target.search !== '' && url.length === target.path.length + target.search.length + 1
    ? url
    : originForm(target);
}

/** The app's error page, falling back to the plain one (and reporting) if it throws: an error page must not fail. */
function guardedPage(
  page: ErrorPage | undefined,
  onError: (error: unknown, request: Request | undefined) => void,
): ErrorPage | undefined {
  if (page === undefined) return undefined;
  if (typeof page !== 'function')
    throw new TypeError('errorPage must be a function from an HttpError to Html');
  return (error) => {
    try {
      return page(error);
    } catch (pageError) {
      onError(pageError, undefined);
      return errorPageOf(error);
    }
  };
}

function defaultOnError(error: unknown, request: Request | undefined): void {
  console.error(
    `sevenfold: ${request ? `${request.method} ${request.route.name}` : 'request'} failed:`,
    error,
  );
}
