// The types of a typed client: one call per routed action, read from what each resource's type declares.
import type { ActionApi } from '../define/response-types.js';
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

/** A call to a route whose types are unknown (an untyped table or route list). */
export type UntypedCall = (
  call?: {
    readonly params?: { readonly [key: string]: string | number };
    readonly query?: QueryValues;
    readonly body?: unknown;
  } & CallOptions,
) => Promise<ClientResponse>;

/** A client of an untyped table: any resource and action, untyped calls. */
export type UntypedClient = { readonly [resource: string]: { readonly [action: string]: UntypedCall } };

// A resource whose type declares no actions (a decorated controller's) gets untyped calls, not none.
type Actions<D extends { readonly [action: string]: ActionApi }> = {} extends D
  ? { readonly [action: string]: UntypedCall }
  : { readonly [A in keyof D]: Call<D[A]> };

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
