// The request path every adapter shares, in the order it runs: receive, route, guard, read, check, handle,
// respond.
import { HttpError } from '../../core/errors.js';
import { compile } from '../../core/matcher/index.js';
import { isCrossSite, CROSS_SITE } from '../../core/request/cross-site.js';
import { isMultipart, isUrlencoded } from '../../core/request/method-override.js';
import { bodyFormat, NOT_MULTIPART, parseBody } from '../../core/request/parse-body.js';
import { originUrl, splitTarget } from '../../core/request/target.js';
import { knownId, locate, matched as setMatch } from '../../core/request/request.js';
import { renderMiss } from '../../core/response/render.js';
import { Reply } from '../../core/response/reply.js';
import { tableOf, type Routable } from '../../core/table/table.js';
import { tableHooks } from '../../core/table/scope.js';
import type { HookRequest } from '../../core/define/hooks.js';
import type { Route } from '../../core/types.js';
import { hookPlan, runRequestHooks } from './hook-plan.js';
import { crossOriginPlan } from './cross-origin.js';
import { way } from './way-out.js';
import { isThenable } from '../../core/util/thenable.js';
import type { AjvCompiler } from './ajv-compiler.js';
import { Deadlines } from './deadlines.js';
import type { Found } from '../../core/matcher/match.js';
import { sendsNothing, tooLarge, type BodyHeaders, type Exchange } from './exchange.js';
import { formReader, formRoutes, peekFormMethod, sharedGuards, uploadOverrides } from './form-method.js';
import { EMPTY_FORM } from '../../core/request/multipart.js';
import { beforeBody, checkBody, routePlans, runGuards, type RoutePlan } from './route-plan.js';
import { settingsOf, type DispatchOptions } from './settings.js';
import { readUploads, uploadsTooLarge, withFiles, type UploadBudget } from './upload-body.js';
import { traceHandler, type Fail, type Respond, type Tracing } from './tracing.js';

const BAD_TARGET = new HttpError(400, 'the request target must be a path such as /posts');
const EMPTY_BODY = new HttpError(
  400,
  'the request body is empty; this route takes one (application/json or application/x-www-form-urlencoded)',
);

/** The request path for one table: an I/O shell makes an `Exchange` per request and hands it to `receive`. */
export interface Pipeline {
  receive(exchange: Exchange): void;
}

/**
 * Builds the request path for a table. Each step below is named for what it does and calls the
 * next; every refusal and failure leaves through `fail`, every response through `send`. A
 * request that needs no body and whose handler answers at once is served without a promise.
 * `tracing` is what the I/O shell wants told (the node adapters: OpenTelemetry, a diagnostics channel).
 */
export function createPipeline(
  source: Routable,
  options: DispatchOptions,
  ajv: AjvCompiler,
  timers: 'sweep' | 'per-step' = 'sweep',
  tracing: Tracing = {},
): Pipeline {
  const settings = settingsOf(options);
  const { bodyLimit, maxJsonDepth, maxUrlLength, methodOverride, crossSiteProtection, onError, trustProxy } =
    settings;
  const table = tableOf(source);
  const matcher = compile(table, { maxParamLength: settings.maxParamLength });
  // Guards, schemas and response checks, prepared once; an empty map means no route pays a lookup.
  const compiler = options.validators === undefined ? ajv : ajv.precompiled(options.validators);
  const before = tableHooks(table);
  // Hooks with only an onSend part (cors) add nothing before matching.
  const beforeMatching = before.filter((hook) => hook.onRequest !== undefined);
  const hooks = hookPlan(table, before);
  const crossOrigin = crossOriginPlan(table, matcher, before);
  const plans = routePlans(
    table,
    compiler,
    settings.checkResponses,
    { methodOverride, crossSiteProtection },
    before,
  );
  // Where a multipart form's `_method` may reach an upload: nowhere, and no multipart POST is read early.
  const uploads: ReadonlySet<Route> = methodOverride ? uploadOverrides(table) : new Set();
  const { respond, fail, send, expire } = way(settings, plans, hooks);
  const deadlines = new Deadlines(settings.handlerTimeout, expire, timers);
  // What the uploads being received hold together, bounded by `uploads.inFlight`.
  const held: UploadBudget = { held: 0 };
  const formRead = formReader(maxJsonDepth, route, fail);
  const { matched, handlers } = tracing;

  /** 1. A request arrives: what its head alone refuses, then the mounted scope's hooks. */
  function receive(x: Exchange): void {
    const url = x.target;
    if (url.length > maxUrlLength)
      return fail(x, new HttpError(414, `the request target is longer than ${maxUrlLength} characters`));
    if (trustProxy !== 0) x.trustProxy = trustProxy;
    const refused = x.headProblem();
    if (refused !== undefined) return fail(x, refused);
    const target = splitTarget(url);
    if (target === undefined) {
      // `OPTIONS *` asks about the server as a whole; any other target must be a path.
      if (url === '*' && x.req.method === 'OPTIONS') return send(x, { status: 204, headers: {}, body: '' });
      return fail(x, BAD_TARGET);
    }
    locate(x.req, originUrl(url, target), target.path, target.search);
    // What `req.allowed()` asks, wherever a hook or a handler asks it.
    x.matcher = matcher;
    if (beforeMatching.length === 0) return arrived(x);
    x.hold();
    deadlines.step(
      x,
      () => runRequestHooks(x.req as unknown as HookRequest, beforeMatching),
      () => arrived(x),
      (error) => fail(x, error),
    );
  }

  /** Then cross-site forms, then method override, before matching. */
  function arrived(x: Exchange): void {
    const method = x.req.method;
    // Safe methods change nothing, so neither rule concerns them: GET and HEAD, nearly every request, skip
    // this.
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      // Whatever the body, or none (a beacon, a no-cors fetch): another site's page may not change anything
      // here, unless CORS granted it (JSON, PUT…: what a browser sends only after a preflight).
      if (
        crossSiteProtection &&
        isCrossSite(x.originHeaders(), settings.trustedOrigins) &&
        (crossOrigin === undefined || !crossOrigin.granted(x, method))
      )
        return fail(x, CROSS_SITE);
      if (methodOverride && method === 'POST') {
        const type = x.contentType();
        if (isUrlencoded(type)) return readForm(x, false);
        if (uploads.size > 0 && isMultipart(type)) return readForm(x, true);
      }
    }
    route(x, method);
  }

  /**
   * 2. Method override: a urlencoded POST to a path that has routes is read before matching (a multipart one,
   * where `_method` may reach an upload, its first part alone), so that its `_method` field picks the method
   * (and a `405`'s Allow is that method's).
   */
  function readForm(x: Exchange, multipart: boolean): void {
    const reachable = formRoutes(matcher, x.req.path);
    // A path no form can reach is answered (or passed on to the app) with its body unread: it may be the
    // app's.
    if (reachable.length === 0) return route(x, 'POST');
    // A multipart POST is read early only where its `_method` may reach an upload: elsewhere it is a POST.
    if (multipart && !reachable.some((found) => uploads.has(found.route))) return route(x, 'POST');
    const shared = sharedGuards(reachable);
    // Hooks that run after matching come before any guard, so a form that may reach one waits for its match.
    if (shared.length === 0 || reachable.some((found) => plans.get(found.route)?.hooks.length))
      return openForm(x, multipart);
    // The guards every route the form may reach runs come first, so that a refusal never invites the body.
    const [first] = reachable as [Found, ...Found[]];
    setMatch(x.req, 'POST', first.route, first.params);
    x.hold();
    deadlines.step(
      x,
      () => runGuards(x.req, shared),
      () => ((x.guardsRun = shared.length), openForm(x, multipart)),
      (error) => (x.closeAfter(), fail(x, error)),
    );
  }

  function openForm(x: Exchange, multipart: boolean): void {
    const headers = x.bodyHeaders();
    // A form sends a closing boundary at least, so a body of no bytes is no form, however it was framed.
    if (multipart && sendsNothing(headers)) return fail(x, EMPTY_FORM);
    if (!openBody(x, headers, multipart)) return;
    if (multipart) peekFormMethod(x, headers, settings.uploads, route, fail);
    else x.readBody(headers, bodyLimit, formRead);
  }

  /** 3. Match: a miss is answered (or passed to the app behind), a hit gets its route and its plan. */
  function route(x: Exchange, method: string): void {
    const match = matcher.match(method, x.req.path);
    if (match.kind !== 'found') {
      if (match.kind === 'not-found' && !x.bodyRead && x.pass()) return x.release();
      // A CORS preflight is answered from the policies of the path's routes, which it never matches.
      const grant =
        crossOrigin !== undefined && method === 'OPTIONS' && match.kind === 'method-not-allowed'
          ? crossOrigin.preflight(x, match.allow)
          : undefined;
      return send(x, grant ?? renderMiss(match, method, x.accept, settings.pages, knownId(x.req)));
    }
    // A route that takes no body (DELETE) gets none, as it would without the override.
    if (!match.route.body) x.req.body = undefined;
    if (matched !== undefined) matched(match.route, x.req.method);
    setMatch(x.req, method, match.route, match.params);
    const plan = plans.size === 0 ? undefined : plans.get(match.route);
    if (plan === undefined) return readBody(x, undefined);
    x.json = plan.json;
    checkHead(x, plan);
  }

  /** 4. Guards, then the params and query checks: all before a byte of the body is read. */
  function checkHead(x: Exchange, plan: RoutePlan): void {
    x.hold();
    deadlines.step(
      x,
      () => beforeBody(x.req, plan, x.guardsRun),
      () => readBody(x, plan),
      (error) => {
        // The unread body is never read, so the connection closes after the answer.
        if (x.req.route.body && !x.bodyRead) x.closeAfter();
        fail(x, error);
      },
    );
  }

  /** 5. The body, for a route that takes one: its headers checked, then read in full under the limit. */
  function readBody(x: Exchange, plan: RoutePlan | undefined): void {
    if (!x.req.route.body || x.bodyRead) return checkRequestBody(x, plan);
    let headers: BodyHeaders;
    try {
      headers = x.bodyHeaders();
    } catch (error) {
      return fail(x, error);
    }
    // Zero bytes are no body, whatever their Content-Type says (many clients send one on every call).
    if (sendsNothing(headers)) return noBody(x, plan);
    if (!openBody(x, headers, plan !== undefined && plan.files.length > 0)) return;
    if (x.format !== 'multipart') return x.readBody(headers, bodyLimit, bodyRead);
    readUploads(x, headers, plan!.files, settings.uploads, held, (x) => checkRequestBody(x, plan), fail);
  }

  /** A request that sent no body: `undefined` for a route with no body schema, else a `400` that says so. */
  function noBody(x: Exchange, plan: RoutePlan | undefined): void {
    if (x.req.route.schema?.body !== undefined) return fail(x, EMPTY_BODY);
    x.req.body = undefined;
    checkRequestBody(x, plan);
  }

  function bodyRead(x: Exchange, text: string | undefined, error: unknown): void {
    if (error === undefined && text === '')
      return noBody(x, plans.size === 0 ? undefined : plans.get(x.req.route));
    try {
      if (error !== undefined) throw error;
      x.req.body = parseBody(x.format as 'json' | 'form', text!, maxJsonDepth);
      x.bodyRead = true;
    } catch (refusal) {
      return fail(x, refusal);
    }
    checkRequestBody(x, plans.size === 0 ? undefined : plans.get(x.req.route));
  }

  /**
   * Whether the body may be read: its format is known, or it is refused (its type, its encoding, a declared
   * length over the limit).
   */
  function openBody(x: Exchange, headers: BodyHeaders, takesFiles = false): boolean {
    try {
      x.format = bodyFormat(headers.type, headers.encoding, takesFiles);
    } catch (error) {
      return (fail(x, error), false);
    }
    const limit = x.format === 'multipart' ? settings.uploads.total : bodyLimit;
    if (headers.length !== undefined && Number(headers.length) > limit)
      return (fail(x, x.format === 'multipart' ? uploadsTooLarge(limit) : tooLarge(limit)), false);
    // The connection is held while the body is read, so that requests pipelined behind it wait.
    x.hold();
    return true;
  }

  /** 6. The body against its schema (urlencoded bodies are text, coerced by the schema's types). */
  function checkRequestBody(x: Exchange, plan: RoutePlan | undefined): void {
    if (plan?.checks?.body === undefined) return runHandler(x);
    // A urlencoded form read before matching (method override) cannot carry the files this route takes.
    if (plan.files.length > 0 && x.format !== 'multipart') return fail(x, NOT_MULTIPART);
    deadlines.step(
      x,
      () => checkBody(x.req, plan, x.format !== 'json'),
      () => (withFiles(x), runHandler(x)),
      (error) => fail(x, error),
    );
  }

  /** 7. The handler: its value now, or once its promise settles under the time limit; traced when watched. */
  function runHandler(x: Exchange): void {
    if (handlers === undefined || !handlers.listened()) return callHandler(x, respond, fail);
    traceHandler(handlers.channel, x, (traced, failed) => callHandler(x, traced, failed), respond, fail);
  }

  function callHandler(x: Exchange, respond: Respond, fail: Fail): void {
    const reply = new Reply();
    let out: unknown;
    try {
      out = x.req.route.handler(x.req, reply);
    } catch (error) {
      return fail(x, error);
    }
    if (!isThenable(out)) return respond(x, out, reply);
    x.hold();
    deadlines.wait(
      x,
      out,
      (value) => respond(x, value, reply),
      (error) => fail(x, error),
    );
  }

  return { receive };
}
