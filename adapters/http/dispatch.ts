import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseBody } from '../../core/request/parse-body.js';
import { HttpError } from '../../core/errors.js';
import { compile } from '../../core/matcher/index.js';
import { wholeNumber } from '../../core/util/whole-number.js';
import { originUrl, splitTarget, type Target } from '../../core/request/target.js';
import { renderError, renderMiss, renderResult, type Rendered } from '../../core/response/render.js';
import { isThenable } from '../../core/util/thenable.js';
import { Reply } from '../../core/response/reply.js';
import { tableOf, type Routable } from '../../core/table/table.js';
import { CROSS_SITE, isCrossSite, isFormType, trustedOrigins } from '../../core/request/cross-site.js';
import { isUrlencoded } from '../../core/request/method-override.js';
import {
  ABORTED,
  BodyReader,
  headersOf,
  openBody,
  readHeaders,
  utf8Text,
  type BodyHeaders,
} from './body-reader.js';
import { isBusy, occupy, release, waitTurn } from './connection.js';
import { Deadlines } from './deadlines.js';
import { formReader, originHeaders } from './form.js';
import { beforeBody, checkBody, responseMismatch, routePlans, type RoutePlan } from './plan.js';
import {
  DEFAULTS,
  defaultOnError,
  guardedPage,
  safeOnError,
  type AdapterOptions,
  type DispatchOptions,
  type NodeHandler,
} from './settings.js';
import { checkRequest, NodeRequest } from './node-request.js';
import { send, sendSafely } from './send.js';

export type { AdapterOptions, DispatchOptions, NodeHandler } from './settings.js';

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
  const onError = safeOnError(options.onError ?? defaultOnError);
  const errorPage = guardedPage(options.errorPage, onError);
  const slow = new HttpError(503, `the server did not answer within ${handlerTimeout} ms`);
  const deadlines = new Deadlines(handlerTimeout, expire);
  const checkResponses = options.checkResponses === true;
  const headersObject = adapter.headersObject === true;
  // Guards, schemas and response checks, prepared once; an empty map means no route pays a lookup.
  const plans = routePlans(table, checkResponses, { methodOverride, crossSiteProtection });
  const readForm = formReader({ bodyLimit, maxJsonDepth, matched, proceed, problem });

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
      headers = readHeaders(req, headersObject);
      if (headers !== undefined && isFormType(headers.type)) {
        if (crossSiteProtection && isCrossSite(originHeaders(req), trusted))
          return sendSafely(req, res, problem(CROSS_SITE, req));
        if (methodOverride && method === 'POST' && isUrlencoded(headers.type))
          return readForm({ req, res, url, target, next }, headers);
      }
    }
    const request = matched(req, res, method, url, target, next);
    if (request !== undefined) proceed(request, headers, false);
  }

  /**
   * From a matched request to its handler: guards and the params and query checks, then the body
   * (unless a form read it already) and its check. A route with none of these goes straight on.
   */
  function proceed(request: NodeRequest, headers: BodyHeaders | undefined, formRead: boolean): void {
    const plan = plans.size === 0 ? undefined : plans.get(request.route);
    if (plan === undefined) {
      if (formRead || !request.route.body) return handle(request);
      // The connection is held while the body is read, so that requests pipelined behind it wait.
      occupy(request.req);
      return withBody(request, headers, bodyRead, () => handle(request));
    }
    occupy(request.req);
    const next = (): void => {
      if (!request.route.body) return handle(request);
      if (formRead) return checked(request, plan, true);
      const read = (reader: BodyReader<NodeRequest>, error: unknown): void => {
        if (parsed(reader, error)) checked(request, plan, reader.format === 'form');
      };
      withBody(request, headers, read, () => checked(request, plan, false));
    };
    step(
      request,
      () => beforeBody(request, plan),
      next,
      (error) => refuseUnread(request, error, formRead),
    );
  }

  /** Checks a read body against its schema, then handles the request. */
  function checked(request: NodeRequest, plan: RoutePlan, text: boolean): void {
    step(
      request,
      () => checkBody(request, plan, text),
      () => handle(request),
      (error) => refuse(request, error),
    );
  }

  /** Runs a step of the request path, then `next`; a promised step waits under the time limit, a failed one is `refused`. */
  function step(
    request: NodeRequest,
    run: () => void | Promise<void>,
    next: () => void,
    refused: (error: unknown) => void,
  ): void {
    let pending: void | Promise<void>;
    try {
      pending = run();
    } catch (error) {
      return refused(error);
    }
    if (pending === undefined) return next();
    deadlines.wait(request, pending, next, refused);
  }

  /** A refusal before the body was read: the unread body is never read, so the connection closes after the answer. */
  function refuseUnread(request: NodeRequest, error: unknown, formRead: boolean): void {
    if (request.route.body && !formRead) request.res.shouldKeepAlive = false;
    refuse(request, error);
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
      const done = (): void => release(request.req);
      return deadlines.wait(
        request,
        out,
        (value) => (respond(request, value, reply), done()),
        (error) => (fail(request, error), done()),
      );
    }
    respond(request, out, reply);
    release(request.req);
  }

  function respond(request: NodeRequest, out: unknown, reply: Reply): void {
    try {
      send(request.req, request.res, checkedResponse(request, renderResult(out, reply.headers)));
    } catch (error) {
      fail(request, error);
    }
  }

  function fail(request: NodeRequest, error: unknown): void {
    if (!(error instanceof HttpError)) onError(error, request);
    sendSafely(request.req, request.res, checkedResponse(request, problem(error, request.req, request)));
  }

  /** With `checkResponses`, an answer its OpenAPI operation does not describe becomes a reported `500`. */
  function checkedResponse(request: NodeRequest, out: Rendered): Rendered {
    if (!checkResponses) return out;
    const mismatch = responseMismatch(request.route, plans.get(request.route), out);
    if (mismatch === undefined) return out;
    onError(new Error(`checkResponses: ${mismatch}`), request);
    return problem(
      new HttpError(500, 'the response does not match the API documentation (checkResponses)'),
      request.req,
    );
  }

  /** The error as the request's `Accept` prefers it: problem+json, or the error page for a browser. */
  function problem(error: unknown, req: IncomingMessage, request?: NodeRequest): Rendered {
    return renderError(error, req.headers.accept, errorPage, request);
  }

  /** Answers a request whose async step outlived `handlerTimeout` with a `503`, and frees the connection. */
  function expire(request: NodeRequest): void {
    const late = new Error(`${request.route.name} did not answer within ${handlerTimeout} ms`);
    request.abort(late);
    onError(late, request);
    sendSafely(request.req, request.res, problem(slow, request.req));
    release(request.req);
  }

  /** Reads the body with callbacks (no promise on this path); `done` parses it and goes on. */
  function withBody(
    request: NodeRequest,
    known: BodyHeaders | undefined,
    done: (reader: BodyReader<NodeRequest>, error: unknown) => void,
    nothing: () => void,
  ): void {
    let opened: ReturnType<typeof openBody>;
    try {
      const headers = known ?? headersOf(request.req, headersObject);
      opened = openBody(
        request.req,
        request.res,
        headers,
        bodyLimit,
        request.route.schema?.body === undefined,
      );
    } catch (error) {
      return refuse(request, error);
    }
    if (opened === undefined) return nothing();
    if (typeof opened !== 'string') return refuse(request, opened.refused);
    new BodyReader(request, opened, bodyLimit, done).start();
  }

  /** Where a body read ends for a route with nothing to check: parse and handle, or refuse. */
  function bodyRead(reader: BodyReader<NodeRequest>, error: unknown): void {
    if (parsed(reader, error)) handle(reader.request);
  }

  /** Whether the body was read and parsed into `request.body`; if not, the refusal is sent. */
  function parsed(reader: BodyReader<NodeRequest>, error: unknown): boolean {
    const { request } = reader;
    if (error !== undefined) return (refuse(request, error), false);
    try {
      request.body = parseBody(reader.format, utf8Text(reader.bytes()), maxJsonDepth);
    } catch (parseError) {
      return (refuse(request, parseError), false);
    }
    return true;
  }

  /** Answers a request whose body will not be handled, unless its client went away, and frees the connection. */
  function refuse(request: NodeRequest, error: unknown): void {
    if (error !== ABORTED) fail(request, error);
    release(request.req);
  }

  return dispatch;
}
