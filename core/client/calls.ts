// The types of a typed client: one call per routed action, read from what each resource's type declares.
import type { ActionApi, WatchedApi } from '../define/response-types.js';
import type { Resource } from '../define/resource-types.js';
import type { ResourcesIn } from '../table/table.js';
import type { QueryValues } from '../util/encode-url.js';

export type { QueryValues };

/** Headers as `new Headers()` takes them: an object, a list of pairs, or a `Headers`. */
export type HeaderValues = ConstructorParameters<typeof Headers>[0];

/** A problem details object (RFC 9457): how a sevenfold server answers every error. */
export interface Problem {
  /** A URI naming the problem type; absent means `about:blank`. */
  readonly type?: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  /** Machine-readable details: a `422`'s messages by field, e.g. `{ title: ['is required'] }`. */
  readonly errors?: unknown;
}

/**
 * The registered client and server error statuses: an answer with one the action does not declare is a
 * problem.
 */
// prettier-ignore
export type ErrorStatus =
  | 400 | 401 | 402 | 403 | 404 | 405 | 406 | 407 | 408 | 409 | 410 | 411 | 412 | 413 | 414 | 415 | 416
  | 417 | 418 | 421 | 422 | 423 | 424 | 425 | 426 | 428 | 429 | 431 | 451
  | 500 | 501 | 502 | 503 | 504 | 505 | 506 | 507 | 508 | 510 | 511;

/** One answer: its status, whether it is a success (2xx), its body read as its type says, its headers. */
export interface ClientResponse<S extends number = number, B = unknown, Ok extends boolean = boolean> {
  readonly status: S;
  readonly ok: Ok;
  /** Parsed JSON (`application/json`, `application/problem+json`), else text; `undefined` for 204, 304, HEAD. */
  readonly body: B;
  readonly headers: Headers;
}

type OkOf<S extends number> = `${S}` extends `2${string}` ? true : false;

/**
 * What an action answers, narrowed by `status`: each declared status with its schema's body (`204` with none
 * when no success is declared), any other error status a `Problem`; without response schemas, any status
 * with an `unknown` body.
 */
export type ClientResponsesOf<R> = [R] extends [undefined]
  ? ClientResponse
  : | { [S in keyof R & number]: ClientResponse<S, R[S], OkOf<S>> }[keyof R & number]
    // An action that declares no success answers 204 (noContent(), destroy's undefined): it has no body to declare.
    | ([Extract<keyof R, 200 | 201 | 202 | 203 | 206>] extends [never]
        ? ClientResponse<204, undefined, true>
        : never)
    | ClientResponse<Exclude<ErrorStatus, keyof R>, Problem, false>;

/** What a call sends besides its params, query and body. */
export interface CallOptions {
  /** Headers for this call, over the client's. */
  readonly headers?: HeaderValues;
  readonly signal?: AbortSignal;
}

type NoParams = { readonly [key: string]: never };

// Params are text on the wire: a number is written as one, a schema's literal types are kept.
type ParamsPart<P> = [keyof P] extends [never]
  ? { readonly params?: NoParams }
  : { readonly params: { readonly [K in keyof P]: string extends P[K] ? string | number : P[K] } };

// The table types a query as its handler sees it, defaults filled in, so a caller may leave any field out.
type QueryPart<Q> = [Q] extends [undefined]
  ? { readonly query?: QueryValues }
  : { readonly query?: Partial<Q> };

// A file field is a `File` to the handler; a caller may send any `Blob`.
type Sent<B> = B extends object
  ? { [K in keyof B]: File extends B[K] ? Exclude<B[K], File> | Blob : B[K] }
  : B;

// GET and HEAD send no body, whatever an extra action's (absent) body schema leaves open.
type BodyPart<M, B> = [B] extends [undefined]
  ? { readonly body?: undefined }
  : M extends 'GET' | 'HEAD'
    ? { readonly body?: undefined }
    : unknown extends B
      ? { readonly body?: unknown }
      : { readonly body: Sent<B> };

/** What a call to an action takes: its params (when its path has any), query, body, headers and signal. */
export type CallOf<X extends ActionApi> = ParamsPart<X['params']> &
  QueryPart<X['query']> &
  BodyPart<X['method'], X['body']> &
  CallOptions;

/** One action as a function: the argument is optional when nothing in it is required. */
export type Call<X extends ActionApi> =
  {} extends CallOf<X>
    ? (call?: CallOf<X>) => Promise<ClientResponsesOf<X['responses']>>
    : (call: CallOf<X>) => Promise<ClientResponsesOf<X['responses']>>;

/**
 * One event of a watched route, told apart by `event`: a member `created` or `updated` (its JSON as show's
 * `200` answers it), `destroyed` (its id), or `reload`: events were missed, fetch afresh. `id` is where a
 * later watch resumes from (`lastEventId`): the latest id the stream gave, as `EventSource` keeps it.
 */
export type WatchEvent<T = unknown, I = unknown> =
  // Two members rather than one of two names, so that `event !== 'created'` leaves out created alone.
  | { readonly event: 'created'; readonly id: string; readonly data: T }
  | { readonly event: 'updated'; readonly id: string; readonly data: T }
  | { readonly event: 'destroyed'; readonly id: string; readonly data: { readonly id: I } }
  | { readonly event: 'reload'; readonly id?: string; readonly data: { readonly reason: string } };

/** What a watch sends besides its params and query, and where it starts. */
export interface WatchOptions {
  /** Headers for every connection, over the client's (`Accept` and `Last-Event-ID` are the watch's own). */
  readonly headers?: HeaderValues;
  /** Aborting it ends the watch: the loop ends, with no error, and the connection is closed. */
  readonly signal?: AbortSignal;
  /** Resume after this event id (a previous watch's last `event.id`) rather than from now. */
  readonly lastEventId?: string;
  /** Milliseconds to wait before reconnecting, until the server sends its own (`retry:`). Default 3 000. */
  readonly retry?: number;
}

type UntypedParts = {
  readonly params?: { readonly [key: string]: string | number };
  readonly query?: QueryValues;
};

/** What a watch of an action takes: its params (when its path has any), its query, and `WatchOptions`. */
export type WatchOf<X extends ActionApi> = (unknown extends X['params']
  ? UntypedParts
  : ParamsPart<X['params']> & QueryPart<X['query']>) &
  WatchOptions;

/**
 * A watch's events, as an async iterator. It reconnects once the retry delay has passed after a connection
 * ends or drops (a network error, a server that restarts or drains), sending the last event's id as
 * `Last-Event-ID`, so that the server resumes after it: nothing missed, nothing twice; a `reload` is yielded,
 * for the caller to fetch afresh. A network error on the first connection throws; on a later one it waits and
 * tries again. An answer other than `200 text/event-stream` throws a `WatchError` carrying its `status` and
 * problem `body`, except a `503` or `429` with `Retry-After` (a server full or draining): that is waited out
 * and tried again. It ends when `signal` aborts or the loop `break`s, which closes the connection; to stop it
 * from elsewhere while it waits for an event, abort the signal.
 */
export type Watching<W> = AsyncGenerator<
  W extends WatchedApi<infer T, infer I> ? WatchEvent<T, I> : WatchEvent,
  void,
  undefined
>;

/** Where a watched call keeps, for the types only, what its events carry (no such property exists). */
export declare const WATCHED: unique symbol;

/** What `watch()` takes: a call whose resource is declared with `watch`. */
export interface Watchable<X extends ActionApi> {
  readonly [WATCHED]: X;
}

/** A watched index or show: a call, and what `watch()` takes. */
export type WatchedCall<X extends ActionApi> = Call<X> & Watchable<X>;

/** A call to a route whose types are unknown (an untyped table or route list), which `watch()` takes too. */
export type UntypedCall = ((
  call?: UntypedParts & { readonly body?: unknown } & CallOptions,
) => Promise<ClientResponse>) &
  Watchable<ActionApi>;

/** A client of an untyped table: any resource and action, untyped calls. */
export type UntypedClient = { readonly [resource: string]: { readonly [action: string]: UntypedCall } };

// A resource whose type declares no actions (a decorated controller's) gets untyped calls, not none.
type Actions<D extends { readonly [action: string]: ActionApi }> = {} extends D
  ? { readonly [action: string]: UntypedCall }
  : { readonly [A in keyof D]: D[A]['watch'] extends undefined ? Call<D[A]> : WatchedCall<D[A]> };

// Names and declarations are read from Resource's own type arguments: inferring them from the properties
// instead costs some eighty times more instantiations on a table of 200 resources.
type ClientOf<R> = [R] extends [never]
  ? UntypedClient
  : unknown extends R
    ? UntypedClient
    : {
        readonly [X in R as X extends Resource<infer N, any, any, any, any, any> ? N : never]: Actions<
          X extends Resource<
            any,
            any,
            any,
            any,
            any,
            infer D extends { readonly [action: string]: ActionApi }
          >
            ? D
            : never
        >;
      };

/**
 * A client of table (or resource) `T`: `api.posts.show({ params: { post_id } })`, one call per routed action
 * of each resource, typed from `T` alone.
 */
export type Client<T> = 0 extends 1 & T ? UntypedClient : ClientOf<ResourcesIn<T>>;
