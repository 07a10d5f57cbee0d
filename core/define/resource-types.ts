// The types resource() computes from its name, handlers and options: paths, params, bodies, context.
import type { Action } from './actions.js';
import type { ContextOf } from './guards.js';
import type { IdParam } from './inflect.js';
import type { Nest } from './nest.js';
import type { Reply } from '../response/reply.js';
import type { Infer } from '../schema/infer.js';
import type { HandlerResultOf, ResponsesOf } from './response-types.js';
import type { Params, Query, HandlerRequest, Route, RouteTable } from '../types.js';

/**
 * The types `resource()` and `singular()` compute from their arguments, with no codegen: each
 * action's path pattern (nesting, shallow, extra actions, newPath), and from it and the
 * options' schemas and guards, the request each handler receives.
 */

/** Plural resources have an id and an index; a singular one (`/profile`) neither. */
export type Kind = 'plural' | 'singular';

/** The id param a resource's options give it: `options.param`, else the inflected `post_id`. */
export type ParamOf<N extends string, O> = O extends { readonly param: infer P extends string }
  ? P
  : IdParam<N>;
/** The URL segment a resource's options give it: `options.path`, else its name. */
export type SegmentOf<N extends string, O> = O extends { readonly path: infer S extends string } ? S : N;

// Where a child nests: its parent's member path, '' for a top-level resource.
type Base<O> = O extends { readonly parent: { readonly memberPath: infer M extends string } } ? M : '';
type CollectionPath<N extends string, O> = `${Base<O>}/${SegmentOf<N, O>}`;
type NestedMember<N extends string, O> = `${CollectionPath<N, O>}/:${ParamOf<N, O>}`;

/**
 * Where a resource's member routes live (and its children nest): `/posts/:post_id`, `/comments/:comment_id`
 * when shallow, `/profile`.
 */
export type MemberPathOf<K extends Kind, N extends string, O> = K extends 'singular'
  ? CollectionPath<N, O>
  : O extends { readonly shallow: true }
    ? `/${SegmentOf<N, O>}/:${ParamOf<N, O>}`
    : NestedMember<N, O>;

type Keys<T> = T extends object ? Extract<keyof T, string> : never;
/** The extra collection actions `O` declares. */
export type CollectionActions<O> = O extends { readonly collection: infer C } ? Keys<C> : never;
/** The extra member actions `O` declares. */
export type MemberActions<O> = O extends { readonly member: infer M } ? Keys<M> : never;
/** Every extra action `O` declares. */
export type Extras<O> = CollectionActions<O> | MemberActions<O>;

/** The path pattern of action `A`: `PathOf<'plural', 'edit', 'posts', {}>` is `/posts/:post_id/edit`. */
export type PathOf<K extends Kind, A extends string, N extends string, O> = K extends 'singular'
  ? A extends 'new' | 'edit' | MemberActions<O>
    ? `${CollectionPath<N, O>}/${A}`
    : CollectionPath<N, O>
  : A extends 'index' | 'create'
    ? CollectionPath<N, O>
    : A extends 'new'
      ? O extends { readonly newPath: 'collection' }
        ? `${CollectionPath<N, O>}/new`
        : `${NestedMember<N, O>}/new`
      : A extends 'edit'
        ? `${MemberPathOf<K, N, O>}/edit`
        : A extends 'show' | 'update' | 'destroy'
          ? MemberPathOf<K, N, O>
          : A extends CollectionActions<O>
            ? `${CollectionPath<N, O>}/${A}`
            : `${MemberPathOf<K, N, O>}/${A}`;

/**
 * The path pattern of one of the seven actions of a top-level resource: `ActionPath<'edit', 'posts',
 * 'post_id'>`.
 */
export type ActionPath<A extends Action, Segment extends string, P extends string> = PathOf<
  'plural',
  A,
  Segment,
  { readonly param: P }
>;

/** The schemas `O` declares for action `A`, or `{}`. */
export type SchemaFor<O, A extends string> = O extends { readonly schemas: infer S }
  ? A extends keyof S
    ? S[A]
    : {}
  : {};

/** The guards that run before action `A`: `before` itself when it is a list, else its entry for `A`. */
export type GuardsFor<O, A extends string> = O extends { readonly before: infer B }
  ? B extends readonly unknown[]
    ? B
    : A extends keyof B
      ? B[A]
      : []
  : [];

type Flat<T> = { [K in keyof T]: T[K] } & {};

/**
 * Path params as a params schema types them (`post_id: number`), the others as strings; all always present.
 */
export type ParamsFrom<Path extends string, S> = S extends { readonly params: infer X }
  ? Flat<{
      readonly [K in keyof Params<Path>]: K extends keyof Infer<X> ? Exclude<Infer<X>[K], undefined> : string;
    }>
  : Params<Path>;
/** The query as a query schema types it, else the parsed `Query`. */
export type QueryFrom<S> = S extends { readonly query: infer X } ? Infer<X> : Query;
/** The body as a body schema types it, else `unknown`. */
export type BodyFrom<S> = S extends { readonly body: infer X } ? Infer<X> : unknown;

// A parent the types cannot see into (a controller class): its params are there, as strings, unnamed.
type ParentParams<O> = O extends { readonly parent: infer R }
  ? R extends { readonly memberPath: string }
    ? {}
    : { readonly [param: string]: string }
  : {};

/** Where a resource keeps, for the types only, what each action takes and answers (no such property exists). */
export declare const DECLARED: unique symbol;

/** Where a resource keeps, for the types only, the context its children's guards inherit (no such property exists). */
export declare const INHERITED: unique symbol;

/** The context a child inherits from its parent's guards (those the parent runs for every action). */
export type InheritedOf<O> = O extends { readonly parent: { readonly [INHERITED]?: infer C } }
  ? Exclude<C, undefined> extends object
    ? Exclude<C, undefined>
    : {}
  : {};

/** The context a resource hands its children: what it inherited, and what its every-action guards add. */
export type HandedOf<O> = Flat<
  InheritedOf<O> & (O extends { readonly before: infer B extends readonly unknown[] } ? ContextOf<B> : {})
>;

/**
 * The request a handler of action `A` at `Path` receives, typed from the path, its schemas and its guards.
 */
export type RequestOf<A extends string, Path extends string, O> = HandlerRequest<
  ParamsFrom<Path, SchemaFor<O, A>> & ParentParams<O>,
  QueryFrom<SchemaFor<O, A>>,
  BodyFrom<SchemaFor<O, A>>,
  Flat<InheritedOf<O> & ContextOf<GuardsFor<O, A>>>
>;

/** The actions a kind of resource has before extras: a singular resource has no index. */
export type SevenOf<K extends Kind> = K extends 'singular' ? Exclude<Action, 'index'> : Action;

/**
 * The handlers object of a resource: each action's handler sees its path params, schemas and guards' context.
 */
export type Handlers<K extends Kind, N extends string, O = {}> = {
  readonly [A in SevenOf<K> | Extras<O>]?: HandlerOf<K, A, N, O> | undefined;
};

/** The handler of action `A`: the request its path, schemas and guards type, the answers its schemas allow. */
export type HandlerOf<K extends Kind, A extends string, N extends string, O> = (
  req: RequestOf<A, PathOf<K, A, N, O>, O>,
  res: Reply,
) => HandlerResultOf<ResponsesOf<SchemaFor<O, A>, A>>;

/**
 * The handlers object as `resource()` checks it, one property per name given (`Names`): each an action's
 * handler, a name that is no action the fix. Properties are required (`undefined` too only when some handler
 * is given as `undefined`, `V` being every value given), so that a wrong answer is reported on the handler's
 * returned expression rather than on the whole handler. A conditional type, so that a handler's contextual
 * type is read with what is inferred so far (its answer's literal types kept).
 */
export type HandlersOf<K extends Kind, N extends string, Names extends PropertyKey, V, O> = [Names] extends [
  unknown,
]
  ? Checked<K, N, Names, Extract<V, undefined>, O>
  : never;

// `U` is `never` unless some handler is `undefined`, so that the object is checked against the very type its
// handlers were read from.
type Checked<K extends Kind, N extends string, Names extends PropertyKey, U, O> = (
  | {
      readonly [A in Names]: A extends SevenOf<K> | Extras<O>
        ? HandlerOf<K, A & string, N, O> | U
        : A extends 'index'
          ? `a singular resource has no index: remove it`
          : `'${A & string}' is not an action: use one of the seven, or declare it in options.member or options.collection`;
    }
  | NoHandlers
) &
  MissingHandlers<Names, O>;

// A weak type: an object with no handler (one member of a union of handlers objects) is one, any other is not.
type NoHandlers = { readonly 'no handler'?: never };

type Misnamed<K extends Kind, O, T> = {
  readonly [
    A in Exclude<keyof T, SevenOf<K> | Extras<O>>
  ]: `'${A & string}' is not an action of this resource`;
};
type GetsOf<T> = T extends object ? { [A in keyof T]: T[A] extends 'GET' ? A : never }[keyof T] : never;
/** The actions of a resource that answer `GET`: index (plural only), show, new, edit, and `GET` extras. */
export type GetActions<K extends Kind, O> =
  | Extract<SevenOf<K>, 'index' | 'show' | 'new' | 'edit'>
  | (O extends { readonly member: infer M } ? GetsOf<M> : never)
  | (O extends { readonly collection: infer C } ? GetsOf<C> : never);

// Each wrong key's type is an object naming the fix, as a string literal would meet the value's and vanish.
type NotCached<K extends Kind, O, T> = {
  readonly [A in Exclude<keyof T, GetActions<K, O>>]: A extends SevenOf<K> | Extras<O>
    ? { readonly [F in `'${A & string}' does not answer GET: Cache-Control is for GET actions`]: A }
    : { readonly [F in `'${A & string}' is not an action of this resource`]: A };
};

/**
 * Keys of `schemas`, `before` and `cache` that name no action of the resource (or, in `cache`, one that does not
 * answer GET): each one's type is the fix.
 */
export type OptionsCheck<K extends Kind, O> = (O extends { readonly schemas: infer S }
  ? { readonly schemas: Misnamed<K, O, S> }
  : unknown) &
  (O extends { readonly before: infer B }
    ? [B] extends [readonly unknown[]]
      ? unknown
      : { readonly before: Misnamed<K, O, B> }
    : unknown) &
  (O extends { readonly cache: infer C }
    ? [C] extends [string]
      ? unknown
      : { readonly cache: NotCached<K, O, C> }
    : unknown);

/**
 * Extra actions declared with no handler: required here, so the handlers object fails to compile without
 * them.
 */
export type MissingHandlers<Names, O> = {
  readonly [Key in Exclude<Extras<O>, Names>]: (req: never, res: never) => unknown;
};

type Only<O> = O extends { readonly only: readonly (infer A)[] } ? A : Action;
type Except<O> = O extends { readonly except: readonly (infer A)[] } ? A : never;
/** The actions that get routes: the seven with handlers narrowed by only/except, and every extra. */
export type Kept<H, O> = KeptKeys<keyof H, O>;
/** `Kept` from the handlers' names alone, so a declaration names them, not the handlers' types. */
export type KeptKeys<Names, O> = Exclude<Extract<Names, Action> & Only<O>, Except<O>> | (Extras<O> & Names);

// A name the inflection rule cannot read (people2, inbox) must come with an explicit param.
export type NameCheck<N extends string, O> = [ParamOf<N, O>] extends [never]
  ? { readonly 'cannot tell the singular of this name: pass options.param': N }
  : unknown;

/** The path pattern of every action a resource routes, by action. */
export type PathsOf<K extends Kind, A extends string, N extends string, O> = {
  readonly [X in A]: PathOf<K, X, N, O>;
};

/** A resource: its name, where it nests, and the route table it produced. */
export interface Resource<
  N extends string = string,
  R extends { readonly [action: string]: string } = { readonly [action: string]: string },
  M extends string = string,
  P extends string | undefined = string | undefined,
  C extends object = {},
  D = {},
> {
  /** The context its children's handlers inherit from its guards: a type only. */
  readonly [INHERITED]?: C;
  /** What each action takes and answers, for `client()`: a type only. */
  readonly [DECLARED]?: D;
  readonly name: N;
  readonly kind: Kind;
  /** The id param (`post_id`); `undefined` for a singular resource. */
  readonly param: P;
  /** Its own URL segment, e.g. `posts`. */
  readonly path: string;
  /** Where its member routes live and its children nest, e.g. `/posts/:post_id`. */
  readonly memberPath: M;
  /** Its paths as data, for `parent:` and controllers. */
  readonly nest: Nest;
  /** The routes in table order (the seven's order, then collection and member extras). */
  readonly routes: RouteTable;
  /** The same routes keyed by action, typed by their path, for `pathFor()` and `paths()`. */
  readonly actions: { readonly [A in keyof R]: Route<R[A]> };
}
