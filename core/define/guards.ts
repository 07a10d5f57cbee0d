// Guards, declared with guard() and bearer(): checks that run before the body and add to `req.context`.
import { HttpError, RouteDefinitionError } from '../errors.js';
import { isThenable } from '../util/thenable.js';
import type { HandlerRequest } from '../types.js';

/** How OpenAPI describes what a guard asks for (a Security Scheme Object), under a name. */
export interface GuardSecurity {
  /** The key in `components.securitySchemes`, e.g. `bearer`. */
  readonly name: string;
  /** The Security Scheme Object, e.g. `{ type: 'http', scheme: 'bearer' }`. */
  readonly scheme: Readonly<Record<string, unknown>>;
  /** The guard lets requests without credentials through (OpenAPI lists `{}` beside the scheme). */
  readonly optional?: boolean;
  /** Other schemes the guard accepts instead (a bearer token or a session cookie): OpenAPI lists each. */
  readonly or?: readonly { readonly name: string; readonly scheme: Readonly<Record<string, unknown>> }[];
}

/**
 * A guard as a route keeps it: data for the listing and OpenAPI (its name, the statuses it
 * answers with, its security scheme) and the check that runs before the body is read. A check
 * refuses by throwing an `HttpError` (401, 403…); an object it returns is merged into
 * `req.context`, typed for the handler as `Added`.
 */
export interface Guard<Added extends object = {}> {
  readonly name: string;
  // The request is typed loosely here: a guard may read what the guards before it added.
  readonly check: (req: HandlerRequest<any, any, any, any>) => Added | void | PromiseLike<Added | void>;
  /** Statuses its refusals use, for OpenAPI; default `[401, 403]`. */
  readonly errors: readonly number[];
  readonly security?: GuardSecurity;
}

/**
 * What `before` takes: a `guard()`, or a named function `(req) => void | object` (its name is the guard's).
 */
export type GuardLike = Guard<any> | ((req: HandlerRequest<any, any, any, any>) => unknown);

/** The guards of a resource: for every action, or per action. */
export type Before = readonly GuardLike[] | { readonly [action: string]: readonly GuardLike[] | undefined };

/** The object a check's result adds to `req.context`: nothing for `void` (or a check that only throws). */
export type Added<R> = [Exclude<Awaited<R>, void | undefined | null>] extends [never]
  ? {}
  : Exclude<Awaited<R>, void | undefined | null> extends object
    ? Exclude<Awaited<R>, void | undefined | null>
    : {};

/** What a guard adds to `req.context`. */
export type AddedBy<G> = G extends Guard<infer A> ? A : G extends (req: any) => infer R ? Added<R> : {};

/** The context a list of guards builds, each one's additions together. */
export type ContextOf<L> = L extends readonly []
  ? {}
  : L extends readonly [infer G, ...infer Rest]
    ? AddedBy<G> & ContextOf<Rest>
    : L extends readonly (infer G)[]
      ? Partial<AddedBy<G>>
      : {};

export interface GuardOptions {
  readonly errors?: readonly number[];
  readonly security?: GuardSecurity;
}

/**
 * Names a check as a guard: `guard('admin', (req) => { if (!isAdmin(req)) throw new
 * HttpError(403) })`. The name is what the route listing shows.
 */
export function guard<R>(
  name: string,
  check: (req: HandlerRequest<any, any, any, any>) => R | PromiseLike<R>,
  options: GuardOptions = {},
): Guard<Added<R>> {
  if (typeof name !== 'string' || name === '')
    throw new TypeError('guard(name, check): name must be a non-empty string');
  if (typeof check !== 'function')
    throw new TypeError(`guard(${JSON.stringify(name)}): check must be a function`);
  const made = { name, check, errors: Object.freeze([...(options.errors ?? [401, 403])]) };
  return Object.freeze(
    options.security === undefined ? made : { ...made, security: options.security },
  ) as never;
}

/** A `before` entry as a route keeps it; `where` names the resource for the error. */
const FUNCTION_GUARDS = new WeakMap<Function, Guard<any>>();

export function toGuard(given: unknown, where: { resource: string; action?: string }): Guard<any> {
  const which = `resource(${JSON.stringify(where.resource)}): a guard${where.action ? ` of ${where.resource}#${where.action}` : ''}`;
  if (typeof given === 'function') {
    if (given.name === '') {
      throw new RouteDefinitionError(
        `${which} is an anonymous function; give it a name (function auth(req) {…}) or wrap it: guard('auth', check)`,
        where,
      );
    }
    // One guard per function: routes that list the same function share it, and guards shared run once before
    // a form's body.
    let made = FUNCTION_GUARDS.get(given);
    if (made === undefined)
      FUNCTION_GUARDS.set(given, (made = guard(given.name, given as (req: HandlerRequest) => unknown)));
    return made;
  }
  if (
    given !== null &&
    typeof given === 'object' &&
    typeof (given as Guard).check === 'function' &&
    typeof (given as Guard).name === 'string'
  )
    return given as Guard<any>;
  throw new RouteDefinitionError(
    `${which} must be a function or a guard(), got ${given === null ? 'null' : typeof given}`,
    where,
  );
}

export interface BearerOptions<Added extends object> {
  /**
   * Whether the token is good: `true` or an object to add to `req.context` (the user) lets the
   * request through, `false`/`undefined` answers `401` with `error="invalid_token"`.
   */
  readonly verify: (
    token: string,
    req: HandlerRequest,
  ) => Added | boolean | undefined | PromiseLike<Added | boolean | undefined>;
  /** The realm named in `WWW-Authenticate`. */
  readonly realm?: string;
  /** The guard's name in the listing and the security scheme's in OpenAPI; default `bearer`. */
  readonly name?: string;
  /**
   * `true`: a request with no `Authorization` header passes, with nothing added to
   * `req.context` (so its fields are typed optional); a header is still checked as without it.
   * OpenAPI lists the scheme as optional. Default `false`.
   */
  readonly optional?: boolean;
}

/**
 * What a `bearer()` adds to `req.context`: `Added`, or `Partial<Added>` unless `optional` is known to be
 * false.
 */
export type BearerAdded<Added extends object, Optional extends boolean> = [Optional] extends [false]
  ? Added
  : Partial<Added>;

// A token68 (RFC 7235): what a Bearer credential may be.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * A guard for `Authorization: Bearer <token>` (RFC 6750): no credentials is `401` with
 * `WWW-Authenticate: Bearer` (or passes, with `optional: true`), a malformed header `400`, a
 * token `verify` refuses `401` with `error="invalid_token"`. OpenAPI gets an `http` `bearer`
 * security scheme.
 */
export function bearer<Added extends object = {}, Optional extends boolean = false>(
  options: BearerOptions<Added> & { readonly optional?: Optional },
): Guard<BearerAdded<Added, Optional>> {
  if (options === null || typeof options !== 'object' || typeof options.verify !== 'function')
    throw new TypeError('bearer({ verify }): verify must be a function from the token to true or the user');
  if (options.optional !== undefined && typeof options.optional !== 'boolean')
    throw new TypeError('bearer({ optional }): optional must be true or false');
  const name = options.name ?? 'bearer';
  const optional = options.optional === true;
  const realm = options.realm === undefined ? '' : ` realm=${JSON.stringify(options.realm)}`;
  const refuse = (status: 400 | 401, detail: string, error?: string): HttpError =>
    new HttpError(status, detail, {
      headers: {
        'WWW-Authenticate': `Bearer${realm}${error === undefined ? '' : `${realm ? ',' : ''} error="${error}"`}`,
      },
    });
  const admit = (verdict: Added | boolean | undefined): Added | void => {
    if (verdict === false || verdict === undefined || verdict === null)
      throw refuse(401, 'the bearer token is not valid', 'invalid_token');
    return verdict === true ? undefined : verdict;
  };
  const check = (req: HandlerRequest): Added | void | PromiseLike<Added | void> => {
    const header = req.headers.authorization;
    if (header === undefined) {
      if (optional) return undefined;
      throw refuse(401, 'this action needs an Authorization: Bearer <token> header');
    }
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    if (match === null)
      throw refuse(400, 'the Authorization header must be "Bearer <token>"', 'invalid_request');
    const verdict = options.verify(match[1]!, req);
    return isThenable(verdict) ? verdict.then(admit) : admit(verdict);
  };
  const scheme = { type: 'http', scheme: 'bearer' };
  return guard(name, check, {
    errors: [400, 401],
    security: optional ? { name, scheme, optional } : { name, scheme },
  }) as unknown as Guard<BearerAdded<Added, Optional>>;
}
