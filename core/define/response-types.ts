// The types of what actions answer: response schemas by status, and each action's API for a typed client.
import type {
  Extras,
  HandedOf,
  KeptKeys,
  Kind,
  MemberPathOf,
  ParamOf,
  ParamsFrom,
  PathOf,
  PathsOf,
  Resource,
  SchemaFor,
} from './resource-types.js';
import type { Result, STATUSES } from '../response/reply.js';
import type { WATCHES } from './watch.js';
import type { Infer, InferInput } from '../schema/infer.js';

/** The status a single `response` schema describes: the action's success (create `201`, else `200`). */
type SuccessOf<A extends string> = A extends 'create' ? 201 : 200;

type StatusOf<K> = K extends number ? K : K extends `${infer N extends number}` ? N : never;

/**
 * The JSON bodies action `A` answers by status, from its `response` schema(s): `{ 200: Post }`; `undefined`
 * when it declares none. A map of statuses (every key a status, at least one) rather than one schema keeps its
 * keys, written as numbers; quoted ones (`'200'`) are read as numbers.
 */
export type ResponsesOf<S, A extends string> = S extends { readonly response: infer R }
  ? [keyof R] extends [number]
    ? [keyof R] extends [never]
      ? { [K in SuccessOf<A>]: Infer<R> }
      : { -readonly [K in keyof R]: Infer<R[K]> }
    : [keyof R] extends [number | `${number}`]
      ? { -readonly [K in keyof R as StatusOf<K>]: Infer<R[K]> }
      : { [K in SuccessOf<A>]: Infer<R> }
  : undefined;

type JsonResults<M> = { [S in keyof M & number]: JsonResult<S, M[S], keyof M & number> }[keyof M & number];

/**
 * A declared JSON answer, as `json()` and `created()` make it: written out rather than as `Result`, so that
 * a wrong status or body is told by the property that differs.
 */
export interface JsonResult<S extends number, B, D extends number = S> {
  readonly kind: 'json';
  readonly status: S;
  readonly body: B;
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Every status the action declares, which `json()` reads to refuse another one at its argument. */
  readonly [STATUSES]?: D;
}

// Answers that are not JSON, which response schemas do not describe: pages, redirects, text, bytes.
type NotJson = Result<number, unknown, 'html' | 'text' | 'empty'> | Uint8Array | ReadableStream;

/**
 * What a handler may answer when its action declares response schemas: a plain value as the `200` body, a
 * `Result` of a declared status whose body matches, anything not JSON (a page, a redirect, `noContent()`,
 * text, bytes), and `undefined` where no success is declared; without response schemas, anything.
 */
export type HandlerResultOf<M> = [M] extends [undefined] ? unknown : Answer<M>;

/** What a handler of an action with response schemas `M` may answer, now or as a promise. */
export type Answer<M> = Answered<M> | PromiseLike<Answered<M>>;
type Answered<M> = (200 extends keyof M ? M[200] : never) | JsonResults<M> | NotJson | NoSuccess<M>;

// An action that declares no success may answer `undefined` (a 204, as destroy does): nothing to declare.
type NoSuccess<M> = [Extract<keyof M, 200 | 201 | 202 | 203 | 206>] extends [never]
  ? undefined | void
  : never;

/** The method of action `A`: the seven's own, an extra's as declared. */
export type MethodOf<A extends string, O> = A extends 'index' | 'show' | 'new' | 'edit'
  ? 'GET'
  : A extends 'create'
    ? 'POST'
    : A extends 'update'
      ? 'PUT'
      : A extends 'destroy'
        ? 'DELETE'
        : O extends { readonly member: { readonly [X in A]: infer M } }
          ? M
          : O extends { readonly collection: { readonly [X in A]: infer M } }
            ? M
            : string;

/**
 * One action as a client calls it: its method, path, params, query, body and answers by status, all already
 * inferred (short types, so a table's declaration stays small); for a watched index or show, what its events
 * carry.
 */
export interface ActionApi<
  M = string,
  P = string,
  Params = unknown,
  Q = unknown,
  B = unknown,
  R = unknown,
  W = unknown,
> {
  readonly method: M;
  readonly path: P;
  readonly params: Params;
  readonly query: Q;
  readonly body: B;
  readonly responses: R;
  /** What the action's events carry when its resource is watched (`WatchedApi`), else `undefined`. */
  readonly watch: W;
}

/** What a watched resource's events carry: a member as show's `200` answers it, and its id param's type. */
export interface WatchedApi<T = unknown, I = unknown> {
  readonly data: T;
  readonly id: I;
}

type Ok<R> = R extends { readonly 200: infer T } ? T : unknown;

/**
 * What the events of a resource declared with `watch` carry, read once per resource; `undefined` without it
 * (`WatchesOf` says which of index and show stream).
 */
export type WatchedOf<K extends Kind, N extends string, O> = O extends { readonly watch: object }
  ? WatchedApi<
      Ok<ResponsesOf<SchemaFor<O, 'show'>, 'show'>>,
      K extends 'singular'
        ? unknown
        : ParamsFrom<PathOf<K, 'show', N, O>, SchemaFor<O, 'show'>>[ParamOf<N, O> &
            keyof ParamsFrom<PathOf<K, 'show', N, O>, SchemaFor<O, 'show'>>]
    >
  : undefined;

/** The actions that stream, by the `watch` option's type: `changes.only('show')` is `'show'`. */
type WatchesOf<O> = O extends { readonly watch: { readonly [WATCHES]?: infer A } }
  ? Extract<A, 'index' | 'show'>
  : 'index' | 'show';

/** Every routed action of a resource as a client calls it: what it sends typed as input (defaults optional). */
export type ApiOf<K extends Kind, A extends string, N extends string, O, W = WatchedOf<K, N, O>> = {
  readonly [X in A]: ActionApi<
    MethodOf<X, O>,
    PathOf<K, X, N, O>,
    ParamsFrom<PathOf<K, X, N, O>, SchemaFor<O, X>>,
    SchemaFor<O, X> extends { readonly query: infer Q } ? InferInput<Q> : undefined,
    SchemaFor<O, X> extends { readonly body: infer B }
      ? InferInput<B>
      : X extends 'create' | 'update' | Extras<O>
        ? unknown
        : undefined,
    ResponsesOf<SchemaFor<O, X>, X>,
    X extends WatchesOf<O> ? W : undefined
  >;
};

/**
 * What `resource()` and `singular()` return, from the handlers' names (`Names`, never their types, so that a
 * declaration file stays small) and the options.
 */
export type ResourceOf<K extends Kind, N extends string, Names, O> = Resource<
  N,
  PathsOf<K, KeptKeys<Names, O>, N, O>,
  MemberPathOf<K, N, O>,
  K extends 'singular' ? undefined : ParamOf<N, O>,
  HandedOf<O>,
  ApiOf<K, KeptKeys<Names, O>, N, O>
>;
