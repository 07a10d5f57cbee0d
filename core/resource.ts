import { ACTION_NAMES, ACTIONS, isAction, type Action } from './actions.js';
import { RouteDefinitionError, suggest } from './errors.js';
import { idParam, type IdParam } from './inflect.js';
import { NullObject } from './null-object.js';
import { markBuilt } from './table.js';
import type { ActionSchema, Handler, Params, Route, RouteTable } from './types.js';

/** Options of `resource()`; each one changes the table, and the listing shows the result. */
export interface ResourceOptions {
  /** Route only these actions (each must have a handler). */
  readonly only?: readonly Action[];
  /** Route every action that has a handler except these. */
  readonly except?: readonly Action[];
  /** The id parameter name, e.g. `slug`; defaults to the singular of the name plus `_id`. */
  readonly param?: string;
  /** The URL segment, e.g. `blog-posts`, when it differs from the resource name. */
  readonly path?: string;
  /** JSON Schemas per action, for the OpenAPI document: `{ create: { body: PostInput, response: Post } }`. */
  readonly schemas?: { readonly [A in Action]?: ActionSchema };
}

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

/** The handlers object of a resource: each action's handler sees exactly its path params. */
export type Handlers<Segment extends string, P extends string> = {
  readonly [A in Action]?: Handler<Params<ActionPath<A, Segment, P>>> | undefined;
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
const PARAM = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SEGMENT = /^[A-Za-z0-9._~-]+$/;
const OPTION_KEYS = ['only', 'except', 'param', 'path', 'schemas'] as const;

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
  H extends Handlers<SegmentOf<N, O>, ParamOf<N, O>>,
  const O extends ResourceOptions = {},
>(
  name: N & NameCheck<N, O>,
  handlers: H & UnknownKeys<H>,
  options?: O,
): Resource<N, ParamOf<N, O>, SegmentOf<N, O>, Kept<H, O>>;
export function resource(
  name: string,
  handlers: Record<string, unknown>,
  options: ResourceOptions = {},
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
    actionRoute(name, action, segment, param, members, given[action]!, opts.schemas?.[action]),
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
  schema: ActionSchema | undefined,
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
  // Only routes with a schema are copied to take it, instead of spreading an empty object into every route.
  return Object.freeze(schema === undefined ? route : { ...route, schema });
}

const NO_PARAMS: readonly string[] = Object.freeze([]);

function checkOptions(call: string, name: string, options: unknown): ResourceOptions {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') {
    throw new RouteDefinitionError(`${call}: options must be an object`, { resource: name });
  }
  const given = options as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) {
      throw new RouteDefinitionError(
        `${call}: unknown option "${key}"${suggest(key, OPTION_KEYS)}; options are ${OPTION_KEYS.join(', ')}`,
        {
          resource: name,
        },
      );
    }
  }
  // Each option is read once: a getter could answer differently after the check, and the routes built from them are trusted.
  const opts = {
    only: given.only,
    except: given.except,
    param: given.param,
    path: given.path,
    schemas: given.schemas,
  };
  if (opts.only !== undefined && opts.except !== undefined) {
    throw new RouteDefinitionError(`${call}: use "only" or "except", not both`, { resource: name });
  }
  for (const key of ['only', 'except'] as const) {
    const list = opts[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      throw new RouteDefinitionError(
        `${call}: "${key}" must be an array of actions, e.g. ["index", "show"]`,
        { resource: name },
      );
    }
    for (const action of list) {
      if (typeof action !== 'string' || !isAction(action)) {
        throw new RouteDefinitionError(
          `${call}: "${key}" names unknown action ${JSON.stringify(action)}${typeof action === 'string' ? suggest(action, ACTION_NAMES) : ''}; actions are ${ACTION_NAMES.join(', ')}`,
          { resource: name, action: String(action) },
        );
      }
    }
  }
  if (opts.schemas !== undefined) {
    if (opts.schemas === null || typeof opts.schemas !== 'object') {
      throw new RouteDefinitionError(
        `${call}: "schemas" must be an object keyed by action, e.g. { create: { body } }`,
        { resource: name },
      );
    }
    const schemas = new NullObject() as Record<string, unknown>;
    for (const [action, schema] of Object.entries(opts.schemas)) {
      if (!isAction(action)) {
        throw new RouteDefinitionError(
          `${call}: "schemas" names unknown action "${action}"${suggest(action, ACTION_NAMES)}`,
          { resource: name, action },
        );
      }
      if (schema === null || typeof schema !== 'object') {
        throw new RouteDefinitionError(
          `${call}: the schema of ${name}#${action} must be an object such as { body, response }`,
          { resource: name, action },
        );
      }
      schemas[action] = schema;
    }
    opts.schemas = schemas;
  }
  if (opts.param !== undefined && (typeof opts.param !== 'string' || !PARAM.test(opts.param))) {
    throw new RouteDefinitionError(
      `${call}: "param" must be an identifier such as "post_id" or "slug", got ${describe(opts.param)}`,
      {
        resource: name,
      },
    );
  }
  if (
    opts.path !== undefined &&
    (typeof opts.path !== 'string' || !SEGMENT.test(opts.path) || opts.path === '.' || opts.path === '..')
  ) {
    throw new RouteDefinitionError(
      `${call}: "path" must be one URL segment of letters, digits and - . _ ~ (no slashes), got ${describe(opts.path)}`,
      { resource: name },
    );
  }
  return opts as ResourceOptions;
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : typeof value;
}
