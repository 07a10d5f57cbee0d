// The one way out of the request path: every answer, refusal and failure is rendered, checked, hooked and
// written here.
import { HttpError } from '../../core/errors.js';
import type { HookRequest } from '../../core/define/hooks.js';
import { renderError, renderResult, type Rendered } from '../../core/response/render.js';
import { Reply, Result } from '../../core/response/reply.js';
import { hasSession } from '../../core/response/session.js';
import type { Request, Route } from '../../core/types.js';
import { ABORTED, type Exchange } from './exchange.js';
import { HookAnswer, runAnswerHooks, type HookPlan } from './hook-plan.js';
import { responseMismatch, type RoutePlan } from './route-plan.js';
import type { Settings } from './settings.js';
import { unsendableHeader } from '../../core/util/headers.js';
import { isThenable } from '../../core/util/thenable.js';

const INTERNAL = new HttpError(500);

/** How the request path answers: a handler's value, an error, a written answer, a step out of time. */
export interface WayOut {
  respond(x: Exchange, out: unknown, reply: Reply): void;
  fail(x: Exchange, error: unknown): void;
  answer(x: Exchange, out: Rendered): void;
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

  /** The handler's value rendered, checked against the documentation when asked, and sent. */
  function respond(x: Exchange, out: unknown, reply: Reply): void {
    if (reply.flashes !== null) {
      if (!hasSession(x))
        return fail(
          x,
          new TypeError(
            `res.flash(): ${x.route?.name ?? 'this route'} has no session to keep messages in; add session({ secret }) to its scope's hooks`,
          ),
        );
      x.flashesNext = reply.flashes;
    }
    let rendered: Rendered;
    try {
      rendered = renderResult(out, reply.headers, reply.cookies, x.json);
    } catch (error) {
      return fail(x, error);
    }
    answer(x, checkedAnswer(x, rendered));
  }

  /**
   * The one door out for refusals and failures: a problem (or error page), and `onError` for what is not an
   * `HttpError`.
   */
  function fail(x: Exchange, error: unknown): void {
    // Nobody is left to answer.
    if (error === ABORTED) return x.release();
    if (error instanceof HookAnswer) return respond(x, error.value, new Reply());
    // A guard that sends the client elsewhere (signedIn()'s 303 to the sign-in page) throws the Result to send.
    if (error instanceof Result) return respond(x, error, new Reply());
    if (!(error instanceof HttpError)) report(x, error);
    answer(x, checkedAnswer(x, errorAnswer(x, error)));
  }

  /**
   * With `checkResponses`, an answer its OpenAPI operation does not describe becomes a `500`, its reason
   * reported.
   */
  function checkedAnswer(x: Exchange, out: Rendered): Rendered {
    if (!settings.checkResponses || x.route === undefined) return out;
    const mismatch = responseMismatch(x.route, plans.get(x.route), out);
    if (mismatch === undefined) return out;
    report(x, new Error(`checkResponses: ${mismatch}`));
    return errorAnswer(x, INTERNAL, undefined);
  }

  /** Writes the answer and frees the connection; one the platform refuses is reported and becomes a `500`. */
  function answer(x: Exchange, out: Rendered): void {
    const final = hooks === undefined ? out : hooked(x, out);
    if (isThenable(final)) settle(x, final);
    else write(x, final);
  }

  /**
   * An answer part that awaits (a session sealed with WebCrypto) holds the answer until it settles, or until
   * `handlerTimeout`, when the answer is a `503` without the hooks, so that none can hold a connection forever.
   */
  function settle(x: Exchange, final: Promise<Rendered>): void {
    // Requests pipelined behind this one wait until its answer is written.
    x.hold();
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      report(x, new Error(`an answer hook did not settle within ${settings.handlerTimeout} ms`));
      write(x, errorAnswer(x, slow, undefined));
    }, settings.handlerTimeout);
    void final.then((settled) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      write(x, settled);
    });
  }

  function write(x: Exchange, out: Rendered): void {
    try {
      x.write(out);
    } catch (error) {
      report(x, error);
      try {
        x.write(errorAnswer(x, INTERNAL, undefined));
      } catch {
        x.destroy();
      }
    }
    x.release();
  }

  /** The answer once the hooks around the request saw it; one that throws is its error's answer. */
  function hooked(x: Exchange, out: Rendered): Rendered | Promise<Rendered> {
    const list = x.route === undefined ? hooks!.miss : (hooks!.answers.get(x.route) ?? hooks!.miss);
    if (list.length === 0) return out;
    // A header the platform would refuse makes the answer a 500 before the hooks see it, so a log line
    // and the headers hooks add describe the answer that is sent.
    const refused = unsendableHeader(out.headers, out.cookies);
    if (refused !== undefined) {
      report(x, new TypeError(`the answer's header ${refused} cannot be sent (a character outside HTTP's)`));
      out = errorAnswer(x, INTERNAL);
    }
    return runAnswerHooks(x as unknown as HookRequest, list, out, (error) => {
      if (!(error instanceof HttpError)) report(x, error);
      return errorAnswer(x, error);
    });
  }

  /** Answers a request whose async step outlived `handlerTimeout` with a `503`. */
  function expire(x: Exchange): void {
    const late = new Error(
      `${x.route?.name ?? `${x.method} ${x.target}`} did not answer within ${settings.handlerTimeout} ms`,
    );
    x.abort(late);
    report(x, late);
    answer(x, errorAnswer(x, slow, undefined));
  }

  /** Reports an error that made the answer a `500` or `503`, and keeps the first on the request for its hooks. */
  function report(x: Exchange, error: unknown, request: Request | undefined = x.matchedRequest): void {
    if (x.error === undefined) x.error = error;
    onError(error, request);
  }

  /** An error's answer for this request: its page names the request id, if the request has one yet. */
  function errorAnswer(x: Exchange, error: unknown, request = x.matchedRequest): Rendered {
    return renderError(error, x.accept, settings.pages, request, x.knownId);
  }

  return { respond, fail, answer, expire };
}
