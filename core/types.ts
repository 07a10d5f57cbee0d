import type { Action } from './actions.js';
import type { Reply, Result } from './reply.js';

export type { Action } from './actions.js';

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
export type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** What a handler receives: the matched route, decoded params, query and body. */
export interface Request<P = Readonly<Record<string, string>>> {
  /** The request method as sent (`HEAD` for a HEAD served by a GET route). */
  readonly method: string;
  /** The request target in origin form, e.g. `/posts?limit=2` (an absolute-form target loses its scheme and host). */
  readonly url: string;
  /** The path part of the target, still percent-encoded. */
  readonly path: string;
  readonly headers: Headers;
  /** Decoded path parameters in an object without Object.prototype. */
  readonly params: P;
  /** The query string parsed into an object without Object.prototype (parsed on first use). */
  readonly query: Query;
  /** The parsed body (JSON or urlencoded) for routes that read one, otherwise `undefined`. */
  readonly body: unknown;
  /** The route record that matched. */
  readonly route: Route;
  /**
   * Aborted when the answer is no longer wanted: the client went away, or the handler
   * outlived `handlerTimeout`. Pass it on to fetch, database drivers and timers.
   */
  readonly signal: AbortSignal;
  /** The first of `types` the client's `Accept` header prefers, or `false` if it takes none. */
  accepts(...types: string[]): string | false;
}

/** A handler: its return value is the response (see `Result` and the `Reply` helpers). */
export type Handler<P = Readonly<Record<string, string>>> = (req: Request<P>, res: Reply) => unknown;

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), kept as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * What an action takes and gives, as JSON Schemas: documentation data that the OpenAPI
 * document and the listing are generated from. sevenfold does not validate with it.
 */
export interface ActionSchema {
  /** One line for the OpenAPI operation; a default is derived from the action. */
  readonly summary?: string;
  /** The request body (create and update): JSON or urlencoded with these fields. */
  readonly body?: JsonSchema;
  /** The success response body. */
  readonly response?: JsonSchema;
  /** An object schema whose properties are the query parameters. */
  readonly query?: JsonSchema;
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
  /** What the action takes and gives, when the resource declares it (`options.schemas`). */
  readonly schema?: ActionSchema;
  readonly handler: Handler<any>;
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
