// Hooks, declared with hook(): what runs around every request of a table or a resource, as named data.
import { RouteDefinitionError } from '../errors.js';
import type { HttpResponse } from '../response/render.js';
import type { Result } from '../response/reply.js';
import type { Logger } from '../util/logger.js';
import type { HandlerRequest, Route } from '../types.js';

/**
 * The request as a hook sees it. A table's hooks run before matching, so `route` may be missing (a `404`)
 * and `params`, `query` and `body` are not read yet; `id` and `log` are the hook's to set.
 */
export interface HookRequest extends Omit<
  HandlerRequest<any, any, any, any>,
  'route' | 'id' | 'log' | 'params'
> {
  readonly route: Route | undefined;
  /** The path params: empty before matching (the mounted scope's hooks run before it). */
  readonly params: Readonly<Record<string, string | undefined>>;
  /** The request id (`X-Request-Id`): generated on first read unless a hook sets it. */
  id: string;
  /** The request's logger: a no-op unless a hook (`requestLog()`) sets one. */
  log: Logger;
  /**
   * What made the response a `500` or a `503` (a thrown error, a handler out of time), as `onError` got it;
   * `undefined` for every other response, refusals (`HttpError`s) included. An `onSend` part reads it.
   */
  readonly error: unknown;
  /**
   * The methods the table's routes answer at this path (`Allow`'s list, `OPTIONS` included), none when no
   * route serves it: known to the mounted scope's hooks, which a preflight is answered from.
   */
  allowed(): readonly string[];
}

/** What a hook's `onRequest` gives: nothing to go on, or a `Result` (`text()`, `json()`, …) to answer with. */
export type HookVerdict = void | undefined | Result;

/**
 * A hook as a route keeps it: a name for the listing, and up to two functions, named as fastify
 * names its hooks. `onRequest` runs before matching when the hook is the mounted table's
 * (`scope()`), or after matching and before the guards when it is a resource's or an inner
 * scope's; returning a `Result` answers the request with it, throwing an `HttpError` refuses it.
 * `onSend` sees every response before it is sent, errors and misses included, in the reverse
 * order, and returns a replacement or nothing. A hook that throws anything but an `HttpError` is a
 * `500` reported to `onError`.
 */
export interface Hook {
  /** What it is, so that a bare function is never taken for one. */
  readonly kind: 'hook';
  readonly name: string;
  readonly onRequest?: (req: HookRequest) => HookVerdict | PromiseLike<HookVerdict>;
  readonly onSend?: (
    req: HookRequest,
    response: HttpResponse,
  ) => HttpResponse | void | PromiseLike<HttpResponse | void>;
  /** What the hook adds to the responses of the routes it is on, for the OpenAPI document. */
  readonly openapi?: HookDocs;
  /** The cross-origin policy of the routes it is on, which preflights and cross-site refusals consult. */
  readonly crossOrigin?: CrossOrigin;
}

/**
 * A cross-origin policy as the request path consults it (`sevenfold/cors` makes one; any hook may carry
 * one). A preflight never matches a route, so the request path answers it from the policies of the routes
 * at its path; a cross-site request that only a granted preflight lets a browser send is not refused as a
 * forged form.
 */
export interface CrossOrigin {
  /** Whether a page of `origin` (the request's `Origin`) may make a `method` request. */
  grants(origin: string, method: string): boolean;
  /**
   * The `204` that grants a preflight from `origin`: `granted` the path's methods it may use, `allow` all of
   * them (kept as `Allow`, as any `OPTIONS` gets), `requested` its `Access-Control-Request-Headers`.
   */
  preflight(
    origin: string,
    granted: readonly string[],
    allow: string,
    requested: string | undefined,
  ): HttpResponse;
  /** Policies with the same key answer a preflight alike, so one answer may grant the methods of each. */
  readonly key: string;
}

/**
 * What a hook adds to an operation in the OpenAPI document: headers on every response (Header Objects by
 * name), or on those of `statuses`, and responses of its own (`304` for a cache validator), on the routes of
 * `methods` (default all).
 */
export interface HookDocs {
  readonly methods?: readonly string[];
  readonly headers?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The responses `headers` are on, e.g. `['200', '304']` for a validator errors never carry; default all. */
  readonly statuses?: readonly string[];
  readonly responses?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** What `hook()` takes besides the name. */
export interface HookParts {
  readonly onRequest?: Hook['onRequest'];
  readonly onSend?: Hook['onSend'];
  readonly openapi?: HookDocs;
  readonly crossOrigin?: CrossOrigin;
}

/**
 * Names what runs around requests: `hook('timing', { onSend: (req, out) => { out.headers['Server-Timing'] =
 * … } })`. The name is what the listing shows; a scope or a resource lists hooks in the order they run.
 */
export function hook(name: string, parts: HookParts): Hook {
  if (typeof name !== 'string' || name === '')
    throw new TypeError('hook(name, parts): name must be a non-empty string');
  if (parts === null || typeof parts !== 'object')
    throw new TypeError(
      `hook(${JSON.stringify(name)}, parts): parts must be an object { onRequest, onSend }`,
    );
  const { onRequest, onSend, openapi, crossOrigin } = parts;
  for (const key of Object.keys(parts))
    if (!PARTS.has(key))
      throw new TypeError(
        `hook(${JSON.stringify(name)}): unknown part "${key}"; a hook has ${[...PARTS].join(', ')}`,
      );
  for (const [key, value] of [
    ['onRequest', onRequest],
    ['onSend', onSend],
  ] as const) {
    if (value !== undefined && typeof value !== 'function')
      throw new TypeError(`hook(${JSON.stringify(name)}): ${key} must be a function`);
  }
  if (onRequest === undefined && onSend === undefined && openapi === undefined)
    throw new TypeError(
      `hook(${JSON.stringify(name)}): give it an onRequest or an onSend function, or both (or, to document its routes only, openapi)`,
    );
  const made: { -readonly [K in keyof Hook]: Hook[K] } = { kind: 'hook', name };
  if (onRequest !== undefined) made.onRequest = onRequest;
  if (onSend !== undefined) made.onSend = onSend;
  if (openapi !== undefined) made.openapi = Object.freeze({ ...openapi });
  if (crossOrigin !== undefined) made.crossOrigin = crossOrigin;
  return Object.freeze(made);
}

// The parts a hook may have: any other key, a misspelt part, is refused with the list.
const PARTS: ReadonlySet<string> = new Set(['onRequest', 'onSend', 'openapi', 'crossOrigin']);

/** Checks a list of hooks given to `where` (a scope or a resource), naming the fix. */
export function toHooks(given: unknown, where: string): readonly Hook[] {
  if (!Array.isArray(given))
    throw new RouteDefinitionError(
      `${where}: "hooks" must be an array of hooks, e.g. [requestId(), requestLog(log)]`,
    );
  return Object.freeze(
    given.map((entry, i) => {
      if (
        entry === null ||
        typeof entry !== 'object' ||
        (entry as Hook).kind !== 'hook' ||
        typeof (entry as Hook).name !== 'string'
      )
        throw new RouteDefinitionError(
          `${where}: hooks[${i}] must be made by hook(name, { onRequest, onSend })`,
        );
      return entry as Hook;
    }),
  );
}
