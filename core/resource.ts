import { ACTION_NAMES, ACTIONS, isAction, type Action } from './actions.js';
import { RouteDefinitionError, suggest } from './errors.js';
import type { ContextOf, Guard } from './guards.js';
import { idParam, type IdParam } from './inflect.js';
import { NullObject } from './null-object.js';
import { checkOptions, describe, type ResourceOptions, type RouteSchemas } from './resource-options.js';
import type { Infer } from './schema/infer.js';
import { markBuilt } from './table.js';
import type { Reply } from './reply.js';
import type { Handler, Params, Query, Request, Route, RouteTable } from './types.js';

export type { ResourceOptions } from './resource-options.js';

/** The id param a resource's options give it: `options.param`, else the inflected `post_id`. */
export type ParamOf<N extends string, O> = O extends { readonly param: infer P extends string }
  ? P
  : IdParam<N>;
/** The URL segment a resource's options give it: `options.path`, else its name. */
export type SegmentOf<N extends string, O> = O extends { readonly path: infer S extends string } ? S : N;

/** The path pattern of an action: `ActionPath<'edit', 'posts', 'post_id'>` is `/posts/:post_id/edit`. */
export type ActionPath<
  A extends Action,
  Segment extends string,
  P extends string,
> = `/${Segment}${(typeof ACTIONS)[A]['member'] extends true ? `/:${P}` : ''}${(typeof ACTIONS)[A]['suffix']}`;

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

/** Path params as a params schema types them (`post_id: number`), the others as strings; all always present. */
export type ParamsFrom<Path extends string, S> = S extends { readonly params: infer X }
  ? Flat<{
      readonly [K in keyof Params<Path>]: K extends keyof Infer<X> ? Exclude<Infer<X>[K], undefined> : string;
    }>
  : Params<Path>;
/** The query as a query schema types it, else the parsed `Query`. */
export type QueryFrom<S> = S extends { readonly query: infer X } ? Infer<X> : Query;
/** The body as a body schema types it, else `unknown`. */
export type BodyFrom<S> = S extends { readonly body: infer X } ? Infer<X> : unknown;

/** The request a handler of action `A` receives, typed from its path, its schemas and its guards. */
export type RequestOf<A extends Action, Segment extends string, P extends string, O> = Request<
  ParamsFrom<ActionPath<A, Segment, P>, SchemaFor<O, A>>,
  QueryFrom<SchemaFor<O, A>>,
  BodyFrom<SchemaFor<O, A>>,
  Flat<ContextOf<GuardsFor<O, A>>>
>;

/** The handlers object of a resource: each action's handler sees its path params, schemas and guards' context. */
export type Handlers<Segment extends string, P extends string, O = {}> = {
  readonly [A in Action]?: ((req: RequestOf<A, Segment, P, O>, res: Reply) => unknown) | undefined;
};

type UnknownKeys<H> = {
  readonly [
    K in Exclude<keyof H, Action>
  ]: `'${K & string}' is not an action: use index, show, new, edit, create, update or destroy`;
};

type Only<O> = O extends { readonly only: readonly (infer A)[] } ? A : Action;
type Except<O> = O extends { readonly except: readonly (infer A)[] } ? A : never;
type Kept<H, O> = Exclude<Extract<keyof H, Action> & Only<O>, Except<O>>;

// A name the inflection rule cannot read (people2, inbox) must come with an explicit param.
type NameCheck<N extends string, O> = [ParamOf<N, O>] extends [never]
  ? { readonly 'cannot tell the singular of this name: pass options.param': N }
  : unknown;

/** A resource: its name, id parameter, URL segment and the route table it produced. */
export interface Resource<
  N extends string = string,
  P extends string = string,
  Segment extends string = string,
  A extends Action = Action,
> {
  readonly name: N;
  readonly param: P;
  readonly path: Segment;
  /** The routes in table order (index, show, new, edit, create, update, destroy). */
  readonly routes: RouteTable;
  /** The same routes keyed by action, typed by their path, for `pathFor()`. */
  readonly actions: { readonly [K in A]: Route<ActionPath<K, Segment, P>> };
}

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * Declares a resource and returns its route table as data. For `resource('posts', …)`:
 *
 *     posts.index    GET     /posts
 *     posts.show     GET     /posts/:post_id
 *     posts.new      GET     /posts/:post_id/new
 *     posts.edit     GET     /posts/:post_id/edit
 *     posts.create   POST    /posts
 *     posts.update   PUT     /posts/:post_id
 *     posts.destroy  DELETE  /posts/:post_id
 *
 * One route per action that has a handler, narrowed by `only`/`except`. Mistakes throw a
 * `RouteDefinitionError` naming the resource and the action.
 */
export function resource<
  const N extends string,
  H extends Handlers<SegmentOf<N, O>, ParamOf<N, O>, O>,
  const O extends ResourceOptions = {},
>(
  name: N & NameCheck<N, O>,
  handlers: H & UnknownKeys<H>,
  options?: O,
): Resource<N, ParamOf<N, O>, SegmentOf<N, O>, Kept<H, O>>;
export function resource(
  name: string,
  handlers: Record<string, unknown>,
  options?: ResourceOptions,
): Resource {
  const call = `resource(${JSON.stringify(name)})`;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new RouteDefinitionError(
      `${call}: invalid resource name; use letters, digits and _ starting with a letter, e.g. "posts" or "blog_posts" (set options.path for the URL)`,
      { resource: String(name) },
    );
  }
  if (handlers === null || typeof handlers !== 'object') {
    throw new RouteDefinitionError(`${call}: handlers must be an object such as { index, show }`, {
      resource: name,
    });
  }
  const opts = checkOptions(call, name, options);
  // Each handler is read once, as each option is: what was checked is what the routes get.
  const given: Partial<Record<Action, Handler>> = new NullObject();
  for (const key of Object.keys(handlers)) {
    if (!isAction(key)) {
      throw new RouteDefinitionError(
        `${call}: unknown action "${key}"${suggest(key, ACTION_NAMES)}; actions are ${ACTION_NAMES.join(', ')}`,
        { resource: name, action: key },
      );
    }
    const handler = handlers[key];
    if (handler !== undefined && typeof handler !== 'function') {
      throw new RouteDefinitionError(
        `${call}: the handler for ${name}#${key} must be a function, got ${describe(handler)}`,
        {
          resource: name,
          action: key,
        },
      );
    }
    given[key] = handler as Handler | undefined;
  }
  for (const action of opts.only ?? []) {
    if (given[action] === undefined) {
      throw new RouteDefinitionError(`${call}: ${name}#${action} is listed in "only" but has no handler`, {
        resource: name,
        action,
      });
    }
  }
  const param = opts.param ?? idParam(name);
  if (param === undefined) {
    throw new RouteDefinitionError(
      `${call}: cannot tell the singular of "${name}" to name its id parameter; pass options.param, e.g. { param: "id" }`,
      { resource: name },
    );
  }
  const segment = opts.path ?? name;
  const actions = ACTION_NAMES.filter(
    (action) =>
      given[action] !== undefined && (opts.only?.includes(action) ?? true) && !opts.except?.includes(action),
  );
  if (actions.length === 0) {
    throw new RouteDefinitionError(
      `${call}: no routes; give a handler for at least one of ${ACTION_NAMES.join(', ')}`,
      { resource: name },
    );
  }
  // Valid and distinct by construction, its name, path and param checked above: routes() checks tables combined.
  // One frozen params list for every member route of the resource: five routes, one object.
  const members = Object.freeze([param]);
  const table = actions.map((action) =>
    actionRoute(
      name,
      action,
      segment,
      param,
      members,
      given[action]!,
      opts.schemas[action],
      opts.guards[action],
    ),
  );
  return markBuilt(
    Object.freeze({
      name,
      param,
      path: segment,
      routes: Object.freeze(table),
      actions: Object.freeze(Object.fromEntries(table.map((route) => [route.action, route]))),
    }) as Resource,
  );
}

function actionRoute(
  name: string,
  action: Action,
  segment: string,
  param: string,
  members: readonly string[],
  handler: Handler,
  schemas: RouteSchemas | undefined,
  guards: readonly Guard<any>[] | undefined,
): Route {
  const shape = ACTIONS[action];
  const path = `/${segment}${shape.member ? `/:${param}` : ''}${shape.suffix}`;
  const route: Route = {
    resource: name,
    action,
    method: shape.method,
    path,
    params: shape.member ? members : NO_PARAMS,
    name: `${name}.${action}`,
    body: shape.body,
    handler,
  };
  if (schemas?.schema.params !== undefined)
    checkParamsSchema(name, action, route.params, schemas.schema.params);
  // Only routes with schemas or guards are copied to take them: routes without keep the plain shape.
  if (schemas === undefined && (guards === undefined || guards.length === 0)) return Object.freeze(route);
  const extended: { -readonly [K in keyof Route]: Route[K] } = { ...route };
  if (schemas !== undefined) extended.schema = schemas.schema;
  if (schemas?.standard !== undefined) extended.standard = schemas.standard;
  if (guards !== undefined && guards.length > 0) extended.guards = guards;
  return Object.freeze(extended);
}

/** A params schema may describe only the params the path has: anything else could never be sent. */
function checkParamsSchema(name: string, action: Action, params: readonly string[], schema: object): void {
  const properties = (schema as { properties?: unknown }).properties;
  if (properties === null || typeof properties !== 'object') return;
  for (const key of Object.keys(properties)) {
    if (!params.includes(key)) {
      throw new RouteDefinitionError(
        `resource(${JSON.stringify(name)}): the params schema of ${name}#${action} describes "${key}", which is not a param of its path (${params.length === 0 ? 'it has none' : params.join(', ')})`,
        { resource: name, action },
      );
    }
  }
}

const NO_PARAMS: readonly string[] = Object.freeze([]);
