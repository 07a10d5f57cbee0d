// Hooks, declared with hook(): what runs around every request of a table or a resource, as named data.
import { RouteDefinitionError } from '../errors.js';
import type { Rendered } from '../response/render.js';
import type { Result } from '../response/reply.js';
import type { Logger } from '../util/logger.js';
import type { Request, Route } from '../types.js';

/**
 * The request as a hook sees it. A table's hooks run before matching, so `route` may be missing (a `404`)
 * and `params`, `query` and `body` are not read yet; `id` and `log` are the hook's to set.
 */
export interface HookRequest extends Omit<Request<any, any, any, any>, 'route' | 'id' | 'log' | 'params'> {
  readonly route: Route | undefined;
  /** The path params: empty before matching (the mounted scope's hooks run before it). */
  readonly params: Readonly<Record<string, string | undefined>>;
  /** The request id (`X-Request-Id`): generated on first read unless a hook sets it. */
  id: string;
  /** The request's logger: a no-op unless a hook (`requestLog()`) sets one. */
  log: Logger;
  /**
   * What made the answer a `500` or a `503` (a thrown error, a handler out of time), as `onError` got it;
   * `undefined` for every other answer, refusals (`HttpError`s) included. An answer part reads it.
   */
  readonly error: unknown;
  /**
   * The methods the table's routes answer at this path (`Allow`'s list, `OPTIONS` included), none when no
   * route serves it: known to the mounted scope's hooks, which a preflight is answered from.
   */
  allowed(): readonly string[];
}

/** What a hook's request part gives: nothing to go on, or a `Result` (`text()`, `json()`, …) to answer with. */
export type HookVerdict = void | undefined | Result;

/** An answer as hooks see it, before it is sent: headers may be changed in place, or a new answer returned. */
export type Answer = Rendered;

/**
 * A hook as a route keeps it: a name for the listing, and up to two functions. `request` runs
 * before matching when the hook is the mounted table's (`scope()`), or after matching and before
 * the guards when it is a resource's or an inner scope's; returning a value (a `Result`, or any
 * handler value) answers the request with it, throwing an `HttpError` refuses it. `answer` sees
 * every answer before it is sent, errors and misses included, in the reverse order, and returns
 * a replacement or nothing. A hook that throws anything but an `HttpError` is a `500` reported to
 * `onError`.
 */
export interface Hook {
  /** What it is, so that a bare function is never taken for one. */
  readonly kind: 'hook';
  readonly name: string;
  readonly request?: (req: HookRequest) => HookVerdict | PromiseLike<HookVerdict>;
  readonly answer?: (req: HookRequest, answer: Answer) => Answer | void | PromiseLike<Answer | void>;
  /** What the hook adds to the answers of the routes it is on, for the OpenAPI document. */
  readonly openapi?: HookDocs;
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
  readonly request?: Hook['request'];
  readonly answer?: Hook['answer'];
  readonly openapi?: HookDocs;
}

/**
 * Names what runs around requests: `hook('timing', { answer: (req, out) => { out.headers['Server-Timing'] =
 * … } })`. The name is what the listing shows; a scope or a resource lists hooks in the order they run.
 */
export function hook(name: string, parts: HookParts): Hook {
  if (typeof name !== 'string' || name === '')
    throw new TypeError('hook(name, parts): name must be a non-empty string');
  if (parts === null || typeof parts !== 'object')
    throw new TypeError(`hook(${JSON.stringify(name)}, parts): parts must be an object { request, answer }`);
  const { request, answer, openapi } = parts;
  for (const [key, value] of [
    ['request', request],
    ['answer', answer],
  ] as const) {
    if (value !== undefined && typeof value !== 'function')
      throw new TypeError(`hook(${JSON.stringify(name)}): ${key} must be a function`);
  }
  if (request === undefined && answer === undefined)
    throw new TypeError(`hook(${JSON.stringify(name)}): give it a request or an answer function, or both`);
  const made: { -readonly [K in keyof Hook]: Hook[K] } = { kind: 'hook', name };
  if (request !== undefined) made.request = request;
  if (answer !== undefined) made.answer = answer;
  if (openapi !== undefined) made.openapi = Object.freeze({ ...openapi });
  return Object.freeze(made);
}

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
          `${where}: hooks[${i}] must be made by hook(name, { request, answer })`,
        );
      return entry as Hook;
    }),
  );
}
