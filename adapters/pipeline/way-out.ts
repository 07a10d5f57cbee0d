// The one way out of the request path: every answer, refusal and failure is rendered, checked, hooked and
// written here.
import { HttpError } from '../../core/errors.js';
import type { HookRequest } from '../../core/define/hooks.js';
import { renderError, renderResult, type HttpResponse } from '../../core/response/render.js';
import { Reply, Result } from '../../core/response/reply.js';
import type { HandlerRequest, Route } from '../../core/types.js';
import { ABORTED, type Exchange } from './exchange.js';
import { abort, knownId } from '../../core/request/request.js';
import { runSendHooks, type HookPlan } from './hook-plan.js';
import { responseMismatch, type RoutePlan } from './route-plan.js';
import type { Settings } from './settings.js';
import { unsendableHeader } from '../../core/util/headers.js';
import { isThenable } from '../../core/util/thenable.js';
import {
  EventStream,
  eventStreamHeaders,
  eventStreamOf,
  openEventStream,
} from '../../core/response/event-stream.js';
import { setHeaders } from '../../core/util/headers.js';

const INTERNAL = new HttpError(500);

/** A body of no bytes and no length, as HEAD of a stream is sent: the adapters frame it as they frame a stream. */
function emptyBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}

/** Event streams open in this process, whatever table serves them: what `maxEventStreams` bounds. */
let openStreams = 0;

/** How many event streams are open in this process now. */
export function openEventStreams(): number {
  return openStreams;
}

/** How the request path responds: a handler's value, an error, a rendered response, a step out of time. */
export interface WayOut {
  respond(x: Exchange, out: unknown, reply: Reply): void;
  fail(x: Exchange, error: unknown): void;
  send(x: Exchange, out: HttpResponse): void;
  expire(x: Exchange): void;
}

/** The way out for one table's request path: its settings, its route plans and its hooks. */
export function way(
  settings: Settings,
  plans: ReadonlyMap<Route, RoutePlan>,
  hooks: HookPlan | undefined,
): WayOut {
  const { onError } = settings;
  const slow = new HttpError(503, `the server did not answer within ${settings.handlerTimeout} ms`);
  const tooManyStreams = new HttpError(
    503,
    `this server has ${settings.maxEventStreams} event streams open, its limit (maxEventStreams); try again shortly`,
    { headers: { 'Retry-After': '5' } },
  );

  /** The handler's value rendered, checked against the documentation when asked, and sent. */
  function respond(x: Exchange, out: unknown, reply: Reply): void {
    if (out instanceof EventStream) return stream(x, out, reply);
    let rendered: HttpResponse;
    try {
      rendered = renderResult(out, reply.headers, reply.cookies, x.json);
    } catch (error) {
      return fail(x, error);
    }
    send(x, checkedResponse(x, rendered));
  }

  /**
   * An event stream: checked (`checkResponses`), sent bare to HEAD, refused past `maxEventStreams`, all before
   * it starts; else opened (its `start` runs) and sent, counted until it closes, however it closes.
   */
  function stream(x: Exchange, events: EventStream, reply: Reply): void {
    const headers = eventStreamHeaders();
    if (reply.headers !== null) setHeaders(headers, reply.headers);
    const head: HttpResponse =
      reply.cookies === null
        ? { status: 200, headers, body: '' }
        : { status: 200, headers, body: '', cookies: reply.cookies };
    // Checked before it opens, so that an answer the documentation refuses never runs its `start`.
    const checked = checkedResponse(x, head);
    if (checked !== head) return (events.close(), send(x, checked));
    // HEAD gets the head alone: a stream nobody reads is never started (nor counted).
    if (x.req.method === 'HEAD') return (events.close(), send(x, { ...head, body: emptyBody() }));
    if (openStreams >= settings.maxEventStreams) return (events.close(), fail(x, tooManyStreams));
    openStreams++;
    events.onClose(() => openStreams--);
    // Once open, the stream outlives the request path: its errors are reported with the request they served.
    const request = x.matchedRequest;
    x.events = events;
    send(x, { ...head, body: openEventStream(events, (error) => onError(error, request)) });
  }

  /**
   * The one door out for refusals and failures: a problem (or error page), and `onError` for what is not an
   * `HttpError`.
   */
  function fail(x: Exchange, error: unknown): void {
    // Nobody is left to answer.
    if (error === ABORTED) return x.release();
    // A guard that sends the client elsewhere (signedIn()'s 303), or an onRequest part that answers, throws the Result to send.
    if (error instanceof Result) return respond(x, error, new Reply());
    if (!(error instanceof HttpError)) report(x, error);
    send(x, checkedResponse(x, errorResponse(x, error)));
  }

  /**
   * With `checkResponses`, an answer its OpenAPI operation does not describe becomes a `500`, its reason
   * reported.
   */
  function checkedResponse(x: Exchange, out: HttpResponse): HttpResponse {
    if (!settings.checkResponses || x.req.route === undefined) return out;
    const mismatch = responseMismatch(x.req.route, plans.get(x.req.route), out);
    if (mismatch === undefined) return out;
    report(x, new Error(`checkResponses: ${mismatch}`));
    return errorResponse(x, INTERNAL, undefined);
  }

  /** Writes the response and frees the connection; one the platform refuses is reported and becomes a `500`. */
  function send(x: Exchange, out: HttpResponse): void {
    const final = hooks === undefined ? out : hooked(x, out);
    if (isThenable(final)) awaitHooks(x, final);
    else write(x, final);
  }

  /**
   * An onSend part that awaits (a session sealed with WebCrypto) holds the response until it settles, or until
   * `handlerTimeout`, when the answer is a `503` without the hooks, so that none can hold a connection forever.
   */
  function awaitHooks(x: Exchange, final: Promise<HttpResponse>): void {
    // Requests pipelined behind this one wait until its answer is written.
    x.hold();
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      report(x, new Error(`an onSend hook did not settle within ${settings.handlerTimeout} ms`));
      write(x, errorResponse(x, slow, undefined));
    }, settings.handlerTimeout);
    void final.then((settled) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      write(x, settled);
    });
  }

  function write(x: Exchange, out: HttpResponse): void {
    // A hook or a check that answered otherwise leaves the stream with no reader: it ends here.
    if (x.events !== undefined && eventStreamOf(out.body) !== x.events) x.events.close();
    try {
      x.write(out);
    } catch (error) {
      // The platform refused the head (a header it cannot send): the stream it was to carry has no reader.
      x.events?.close();
      report(x, error);
      try {
        x.write(errorResponse(x, INTERNAL, undefined));
      } catch {
        x.destroy();
      }
    }
    x.release();
  }

  /** The response once the hooks around the request saw it; one that throws is its error's response. */
  function hooked(x: Exchange, out: HttpResponse): HttpResponse | Promise<HttpResponse> {
    const list = x.req.route === undefined ? hooks!.miss : (hooks!.onSend.get(x.req.route) ?? hooks!.miss);
    if (list.length === 0) return out;
    // A header the platform would refuse makes the answer a 500 before the hooks see it, so a log line
    // and the headers hooks add describe the answer that is sent.
    const refused = unsendableHeader(out.headers, out.cookies);
    if (refused !== undefined) {
      report(
        x,
        new TypeError(`the response's header ${refused} cannot be sent (a character outside HTTP's)`),
      );
      out = errorResponse(x, INTERNAL);
    }
    return runSendHooks(x.req as unknown as HookRequest, list, out, (error) => {
      if (!(error instanceof HttpError)) report(x, error);
      return errorResponse(x, error);
    });
  }

  /** Answers a request whose async step outlived `handlerTimeout` with a `503`. */
  function expire(x: Exchange): void {
    const late = new Error(
      `${x.req.route?.name ?? `${x.req.method} ${x.target}`} did not answer within ${settings.handlerTimeout} ms`,
    );
    abort(x.req, late);
    report(x, late);
    send(x, errorResponse(x, slow, undefined));
  }

  /** Reports an error that made the response a `500` or `503`, and keeps the first on the request for its hooks. */
  function report(x: Exchange, error: unknown, request: HandlerRequest | undefined = x.matchedRequest): void {
    if (x.req.error === undefined) x.req.error = error;
    onError(error, request);
  }

  /** An error's response for this request: its page names the request id, if the request has one yet. */
  function errorResponse(x: Exchange, error: unknown, request = x.matchedRequest): HttpResponse {
    return renderError(error, x.accept, settings.pages, request, knownId(x.req));
  }

  return { respond, fail, send, expire };
}
