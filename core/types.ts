// The types every stage shares: a route record, a table, a match, the request a handler receives.
import type { Cookies } from './request/cookies.js';
import type { Action } from './define/actions.js';
import type { Guard } from './define/guards.js';
import type { Reply, Result } from './response/reply.js';
import type { StandardSchemaV1 } from './schema/standard.js';
import type { Hook } from './define/hooks.js';
import type { Logger } from './util/logger.js';

export type { Action } from './define/actions.js';

/** HTTP methods a route can answer. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** The parameter names in a path pattern: `ParamKeys<'/posts/:post_id/edit'>` is `'post_id'`. */
export type ParamKeys<Path extends string> = string extends Path
  ? string
  : Path extends `${string}:${infer Name}/${infer Rest}`
    ? Name | ParamKeys<`/${Rest}`>
    : Path extends `${string}:${infer Name}`
      ? Name
      : never;

/** The decoded path parameters of a path pattern, as the handler sees them. */
export type Params<Path extends string> = { readonly [K in ParamKeys<Path>]: string };

/** The parsed query string: a repeated key gives an array, in order. */
export type Query = Readonly<Record<string, string | string[] | undefined>>;

/** Request headers, lower-cased, as node:http reports them. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * What a handler receives: the matched route, decoded params, query and body, typed from the
 * route's schemas when it declares them (`P`, `Q`, `B`), and what its guards added (`C`).
 */
export interface HandlerRequest<P = Readonly<Record<string, string>>, Q = Query, B = unknown, C = {}> {
  /** The request method as sent (`HEAD` for a HEAD served by a GET route). */
  readonly method: string;
  /**
   * The request target in origin form, e.g. `/posts?limit=2` (an absolute-form target loses its scheme and
   * host).
   */
  readonly url: string;
  /** The path part of the target, still percent-encoded. */
  readonly path: string;
  readonly headers: RequestHeaders;
  /**
   * Decoded path parameters in an object without Object.prototype (checked and coerced by a params schema).
   */
  readonly params: P;
  /**
   * The query string parsed into an object without Object.prototype (parsed on first use; checked by a query
   * schema).
   */
  readonly query: Q;
  /**
   * The parsed body (JSON or urlencoded) for routes that read one, checked by a body schema; otherwise
   * `undefined`.
   */
  readonly body: B;
  /** What the route's guards added, e.g. `{ user }`; an empty object when none did. */
  readonly context: C;
  /** The route record that matched. */
  readonly route: Route;
  /**
   * Aborted when the answer is no longer wanted: the client went away, or the handler
   * outlived `handlerTimeout`. Pass it on to fetch, database drivers and timers.
   */
  readonly signal: AbortSignal;
  /**
   * The client's address: the connection's peer as the runtime gives it (node's socket, Bun's
   * `requestIP`, Deno's `remoteAddr`), or, with `trustProxy: n`, the address `n` proxies in front
   * put in `X-Forwarded-For`. `undefined` where the runtime tells none (a `Request` made in process).
   */
  readonly ip: string | undefined;
  /**
   * The request id: the client's `X-Request-Id` when `requestId()` kept it, else a random UUID made on first
   * read. Logs and error reports name it.
   */
  readonly id: string;
  /** A logger for this request: a child of the app's with the request id when `requestLog()` runs, else a no-op. */
  readonly log: Logger;
  /**
   * The request's cookies by name, from its `Cookie` header (read on first use): values percent-decoded, in an
   * object without `Object.prototype`; malformed pairs are left out and the first of a name wins.
   */
  readonly cookies: Cookies;
  /** The first of `types` the client's `Accept` header prefers, or `false` if it takes none. */
  accepts(...types: string[]): string | false;
}

/** A handler: its return value is the result, rendered as the response (see `Result` and the `Reply` helpers). */
export type Handler<P = Readonly<Record<string, string>>, Q = Query, B = unknown, C = {}> = (
  req: HandlerRequest<P, Q, B, C>,
  res: Reply,
) => unknown;

/** Response schemas by status, as an action declares them: `{ 200: Post, 404: Missing }`. */
export type ResponseSchemas<S = SchemaLike> = { readonly [status: number]: S };

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), kept as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * What a schema can be written as: plain JSON Schema, or a Standard Schema value (zod 4, valibot, arktype).
 */
export type SchemaLike = JsonSchema | StandardSchemaV1;

/**
 * What an action takes and gives. `params`, `query` and `body` are enforced before the handler
 * runs (`400` for params and query, `422` for the body, with `errors` per field) and type
 * `req`; all of it is the data the listing and the OpenAPI document are generated from. A
 * route record keeps JSON Schema only (`S` is `JsonSchema` there): Standard Schema values are
 * converted when the resource is defined.
 */
export interface ActionSchema<S = SchemaLike> {
  /** One line for the OpenAPI operation; a default is derived from the action. */
  readonly summary?: string;
  /** An object schema whose properties are the path parameters (text, coerced by their types). */
  readonly params?: S;
  /** An object schema whose properties are the query parameters (text, coerced by their types). */
  readonly query?: S;
  /** The request body (create and update): JSON as it is, urlencoded coerced by the schema's types. */
  readonly body?: S;
  /**
   * What the action answers, as JSON: one schema for its success status (`200`, create's `201`), or schemas
   * by status (`{ 200: Post, 404: Missing }`). Handlers' answers are typed by them, only their declared fields
   * are sent, OpenAPI documents them, and `checkResponses` validates them in development.
   */
  readonly response?: S | ResponseSchemas<S>;
  /** Statuses the handler answers with a problem besides the framework's own, e.g. `[409, 422]`. */
  readonly errors?: readonly number[];
  /**
   * The action answers browsers too: its success is also a `text/html` page (negotiated, see
   * `negotiate()`), and its problems the form again for a person to correct. `'default'` when
   * HTML is what a client that takes anything gets (a form page such as new or edit).
   */
  readonly html?: boolean | 'default';
  /**
   * After a successful browser form submission (`isFormSubmission()`), the action answers
   * `303 See Other` with a `Location`; this says where, e.g. `'the post's page'`.
   */
  readonly seeOther?: string;
}

/** An action's schemas as a route record keeps them: JSON Schema only, responses by status. */
export interface RouteSchema extends Omit<ActionSchema<JsonSchema>, 'response'> {
  readonly response?: { readonly [status: string]: JsonSchema };
}

/** A route record: plain data plus the handler that serves it. */
export interface Route<Path extends string = string> {
  /** The resource the route belongs to, e.g. `posts`. */
  readonly resource: string;
  /** The action it serves: one of the seven for `resource()` routes. */
  readonly action: Action | (string & {});
  readonly method: HttpMethod;
  /** The path pattern, e.g. `/posts/:post_id/edit`. */
  readonly path: Path;
  /** The names of the path parameters, in path order. */
  readonly params: readonly string[];
  /** A stable name for the route, e.g. `posts.edit`. */
  readonly name: string;
  /** Whether the request body is read and parsed before the handler runs. */
  readonly body: boolean;
  /**
   * What the action takes and gives, as JSON Schema, when the resource declares it (`options.schemas`); its
   * responses by status (`{ "200": … }`), a single `response` given kept under the action's success status.
   */
  readonly schema?: RouteSchema;
  /**
   * Standard Schema values that validate parts of this route with their own library (their JSON
   * Schema is in `schema`); not enumerable, so `JSON.stringify(route)` leaves them out.
   */
  readonly standard?: { readonly [P in 'params' | 'query' | 'body']?: StandardSchemaV1 };
  /** Guards that run, in order, before the body is read (`options.before`). */
  readonly guards?: readonly Guard<any>[];
  /**
   * Hooks around the route's requests, outermost first (a scope's, then the resource's): see `hook()`. Those of
   * the mounted table run before matching.
   */
  readonly hooks?: readonly Hook[];
  /**
   * The `Cache-Control` its successful `GET` and `HEAD` answers carry unless the handler sets one (the resource's
   * `cache` option).
   */
  readonly cacheControl?: string;
  /**
   * The events the route streams to a client that asks for `text/event-stream` (a watched resource's index and
   * show), by name, each with the JSON Schema of its `data` when it has one: what the listing and OpenAPI show.
   */
  readonly events?: RouteEvents;
  readonly handler: Handler<any, any, any, any>;
}

/** The events a route streams, by name: `{ created: { data: Post }, destroyed: { data: { … } } }`. */
export interface RouteEvents {
  readonly [event: string]: { readonly data?: JsonSchema; readonly description?: string };
}

/** A frozen list of routes: what adapters mount and listings print. */
export type RouteTable = readonly Route[];

/** What the matcher says about a method and a path. */
export type Match =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allow: string }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'bad-request'; readonly detail: string };

export type { Result };
