// resource() and singular(): a name and handlers in, the frozen route records of a resource out.
import { ACTION_NAMES, ACTIONS, type Action } from './actions.js';
import { RouteDefinitionError, suggest } from '../errors.js';
import type { Guard } from './guards.js';
import { idParam } from './inflect.js';
import { extraPlace, nestOf, readsBody, sevenPlace, type Place } from './nest.js';
import { describe } from './describe.js';
import { CACHE_CONTROL } from './cache-control.js';
import { NullObject } from '../util/null-object.js';
import {
  checkOptions,
  type CheckedOptions,
  type ResourceOptions,
  type RouteSchemas,
} from './resource-options.js';
import type {
  Handlers,
  Kind,
  MissingHandlers,
  NameCheck,
  OptionsCheck,
  ParamOf,
  Resource,
  UnknownKeys,
} from './resource-types.js';
import type { ResourceOf } from './answer-types.js';
import type { Handler, HttpMethod, Route } from '../types.js';

export type { ResourceOptions } from './resource-options.js';
export type {
  ActionPath,
  BodyFrom,
  Handlers,
  ParamOf,
  ParamsFrom,
  PathOf,
  QueryFrom,
  RequestOf,
  Resource,
  SegmentOf,
} from './resource-types.js';

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The options `singular()` takes: those of `resource()` that mean something without an id. */
// Resources resource() built: their routes are valid by construction, so routes() need not check them again.
const BUILT = new WeakSet<object>();

/** Marks a resource `resource()` built: its routes are valid by construction. */
function markBuilt<R extends Resource>(made: R): R {
  BUILT.add(made);
  return made;
}

/** Whether `resource()` or `singular()` built this value. */
export function isBuilt(value: unknown): boolean {
  return typeof value === 'object' && value !== null && BUILT.has(value);
}

export type SingularOptions = Omit<ResourceOptions, 'param' | 'shallow' | 'collection' | 'newPath'>;

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
 * One route per action that has a handler, narrowed by `only`/`except`, then the extra
 * `collection` and `member` actions; `parent` nests it (`shallow` un-nests its members).
 * Mistakes throw a `RouteDefinitionError` naming the resource and the action.
 */
export function resource<
  const N extends string,
  H extends Handlers<'plural', N, O>,
  const O extends ResourceOptions = {},
>(
  name: N & NameCheck<N, O>,
  handlers: H & UnknownKeys<'plural', H, O> & MissingHandlers<H, O>,
  options?: O & OptionsCheck<'plural', O>,
): ResourceOf<'plural', N, keyof H, O>;
export function resource(name: string, handlers: object, options?: ResourceOptions): Resource {
  return build('plural', name, handlers, options);
}

/**
 * Declares a singular resource, one the client never names by id (the signed-in user's
 * profile): show, new, edit, create, update and destroy on `/profile`, `/profile/new`,
 * `/profile/edit`; no index. Nestable (`{ parent: posts }`) and a parent itself.
 */
export function singular<
  const N extends string,
  H extends Handlers<'singular', N, O>,
  const O extends SingularOptions = {},
>(
  name: N,
  handlers: H & UnknownKeys<'singular', H, O> & MissingHandlers<H, O>,
  options?: O & OptionsCheck<'singular', O>,
): ResourceOf<'singular', N, keyof H, O>;
export function singular(name: string, handlers: object, options?: SingularOptions): Resource {
  return build('singular', name, handlers, options);
}

/**
 * What resource() and singular() share (and controllers call): the checks, then one route per kept action.
 */
export function build(kind: Kind, name: string, handlers: object, options: unknown): Resource {
  const call = `${kind === 'plural' ? 'resource' : 'singular'}(${JSON.stringify(name)})`;
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
  const opts = checkOptions(call, name, options, kind);
  const given = checkHandlers(call, kind, name, handlers as Record<string, unknown>, opts);
  for (const action of opts.only ?? []) {
    if (given[action] === undefined) {
      throw new RouteDefinitionError(`${call}: ${name}#${action} is listed in "only" but has no handler`, {
        resource: name,
        action,
      });
    }
  }
  const param = kind === 'singular' ? undefined : (opts.param ?? idParam(name));
  if (kind === 'plural' && param === undefined) {
    throw new RouteDefinitionError(
      `${call}: cannot tell the singular of "${name}" to name its id parameter; pass options.param, e.g. { param: "id" }`,
      { resource: name },
    );
  }
  if (param !== undefined && opts.parent?.memberParams.includes(param)) {
    throw new RouteDefinitionError(
      `${call}: its id param "${param}" is already a param of its parent ${opts.parent.name} (${opts.parent.memberPath}); pass options.param, e.g. { param: "child_id" }`,
      { resource: name },
    );
  }
  const segment = opts.path ?? name;
  const inherited = opts.parent?.guards ?? [];
  const handed = [...new Set([...inherited, ...opts.shared])];
  const placed = nestOf(name, kind, segment, param, opts.parent, opts.shallow);
  // What children inherit rides on the nest, the one thing a parent hands them (controllers' parents too).
  const nest = handed.length === 0 ? placed : Object.freeze({ ...placed, guards: Object.freeze(handed) });
  const kept = ACTION_NAMES.filter(
    (action) =>
      given[action] !== undefined && (opts.only?.includes(action) ?? true) && !opts.except?.includes(action),
  );
  if (kept.length === 0 && opts.extras.length === 0) {
    throw new RouteDefinitionError(
      `${call}: no routes; give a handler for at least one of ${sevenOf(kind).join(', ')}`,
      { resource: name },
    );
  }
  // Valid and distinct by construction, its name, path and params checked above: routes() checks tables
  // combined.
  const table: Route[] = [];
  const add = (action: string, method: HttpMethod, place: Place, body: boolean): void => {
    table.push(actionRoute(name, action, method, place, body, given[action]!, opts, inherited));
  };
  for (const action of kept) {
    const shape = ACTIONS[action];
    const place = sevenPlace(nest, action, opts.newPath);
    add(action, shape.method, place, shape.body);
    if (action === 'update' && opts.patch) add(action, 'PATCH', place, true);
  }
  for (const extra of opts.extras) {
    add(extra.action, extra.method, extraPlace(nest, extra.action, extra.on), readsBody(extra.method));
  }
  const actions: Record<string, Route> = {};
  // The first route of an action is its entry: update on PUT when PATCH routes it too.
  for (const route of table) actions[route.action] ??= route;
  return markBuilt(
    Object.freeze({
      name,
      kind,
      param,
      path: segment,
      memberPath: nest.memberPath,
      nest,
      routes: Object.freeze(table),
      actions: Object.freeze(actions),
    }) as Resource,
  );
}

function sevenOf(kind: Kind): readonly Action[] {
  return kind === 'singular' ? ACTION_NAMES.filter((action) => action !== 'index') : ACTION_NAMES;
}

/** Each handler read once, as each option is: what was checked is what the routes get. */
function checkHandlers(
  call: string,
  kind: Kind,
  name: string,
  handlers: Record<string, unknown>,
  opts: CheckedOptions,
): Record<string, Handler | undefined> {
  const known = [...sevenOf(kind), ...opts.extras.map((extra) => extra.action)];
  const given: Record<string, Handler | undefined> = new NullObject();
  for (const key of Object.keys(handlers)) {
    if (!known.includes(key)) {
      const fix =
        kind === 'singular' && key === 'index'
          ? 'a singular resource has no index; remove it'
          : `declare it in options.member (e.g. { member: { ${key}: 'POST' } }) or options.collection, or use one of ${known.join(', ')}`;
      throw new RouteDefinitionError(`${call}: unknown action "${key}"${suggest(key, known)}; ${fix}`, {
        resource: name,
        action: key,
      });
    }
    const handler = handlers[key];
    if (handler !== undefined && typeof handler !== 'function') {
      throw new RouteDefinitionError(
        `${call}: the handler for ${name}#${key} must be a function, got ${describe(handler)}`,
        { resource: name, action: key },
      );
    }
    given[key] = handler as Handler | undefined;
  }
  for (const extra of opts.extras) {
    if (given[extra.action] === undefined) {
      throw new RouteDefinitionError(
        `${call}: ${name}#${extra.action} is declared in options.${extra.on} but has no handler; add ${extra.action} to the handlers or remove the declaration`,
        { resource: name, action: extra.action },
      );
    }
  }
  return given;
}

function actionRoute(
  name: string,
  action: string,
  method: HttpMethod,
  place: Place,
  body: boolean,
  handler: Handler,
  opts: CheckedOptions,
  inherited: readonly Guard<any>[],
): Route {
  const schemas: RouteSchemas | undefined = opts.schemas[action];
  const own = opts.guards[action];
  // A parent's guards first; one the child lists again runs once, where the parent put it.
  const guards: readonly Guard<any>[] | undefined =
    inherited.length === 0 ? own : Object.freeze([...new Set([...inherited, ...(own ?? [])])]);
  const cacheControl = method === 'GET' ? opts.cache[action] : undefined;
  // The cache hook goes innermost, so it sees the handler's answer first, whatever hooks are around it.
  const hooks =
    cacheControl === undefined ? opts.hooks : Object.freeze([...(opts.hooks ?? []), CACHE_CONTROL]);
  const route: Route = {
    resource: name,
    action,
    method,
    path: place.path,
    params: place.params,
    name: `${name}.${action}`,
    body,
    handler,
  };
  if (schemas?.schema.params !== undefined)
    checkParamsSchema(name, action, route.params, schemas.schema.params);
  // Only routes with schemas, guards or hooks are copied to take them: routes without keep the plain shape.
  if (schemas === undefined && (guards === undefined || guards.length === 0) && hooks === undefined)
    return Object.freeze(route);
  const extended: { -readonly [K in keyof Route]: Route[K] } = { ...route };
  if (schemas !== undefined) extended.schema = schemas.schema;
  if (guards !== undefined && guards.length > 0) extended.guards = guards;
  if (hooks !== undefined && hooks.length > 0) extended.hooks = hooks;
  if (cacheControl !== undefined) extended.cacheControl = cacheControl;
  // Not enumerable: the record stays data, so JSON.stringify(route) never prints a library's internals.
  if (schemas?.standard !== undefined)
    Object.defineProperty(extended, 'standard', { value: schemas.standard });
  return Object.freeze(extended);
}

/** A params schema may describe only the params the path has: anything else could never be sent. */
function checkParamsSchema(name: string, action: string, params: readonly string[], schema: object): void {
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
