// resource() and singular(): a name and handlers in, the frozen route records of a resource out.
import { ACTION_NAMES, ACTIONS, isAction, type Action } from './actions.js';
import { RouteDefinitionError, suggest } from '../errors.js';
import { toGuard, type Before, type Guard } from './guards.js';
import { toHooks, type Hook } from './hooks.js';
import { idParam } from './inflect.js';
import {
  checkExtras,
  checkFlag,
  checkNewPath,
  checkParent,
  checkShallow,
  extraPlace,
  nestOf,
  readsBody,
  sevenPlace,
  type Nest,
  type NewPath,
  type Place,
} from './nest.js';
import { byAction, describe } from './describe.js';
import { CACHE_CONTROL, checkCache, type CacheOption } from './cache-control.js';
import { checkWatch, watchedRoutes, type Watcher } from './watch.js';
import { checkSchemas } from './schema-options.js';
import { NullObject } from '../util/null-object.js';
import type { HandlersOf, Kind, NameCheck, OptionsCheck, ParamOf, Resource } from './resource-types.js';
import type { ResourceOf } from './response-types.js';
import type { ActionSchema, Handler, HttpMethod, JsonSchema, Route, RouteSchema } from '../types.js';

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
  Names extends PropertyKey,
  V,
  const O extends ResourceOptions = {},
>(
  name: N & NameCheck<N, O>,
  handlers: HandlersOf<'plural', N, Names, V, O>,
  options?: O & OptionsCheck<'plural', O>,
): ResourceOf<'plural', N, Names, O>;
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
  Names extends PropertyKey,
  V,
  const O extends SingularOptions = {},
>(
  name: N,
  handlers: HandlersOf<'singular', N, Names, V, O>,
  options?: O & OptionsCheck<'singular', O>,
): ResourceOf<'singular', N, Names, O>;
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
  const routes =
    opts.watch === undefined
      ? Object.freeze(table)
      : watchedRoutes(call, opts.watch, { name, param, routes: table });
  const actions: Record<string, Route> = {};
  // The first route of an action is its entry: update on PUT when PATCH routes it too.
  for (const route of routes) actions[route.action] ??= route;
  return markBuilt(
    Object.freeze({
      name,
      kind,
      param,
      path: segment,
      memberPath: nest.memberPath,
      nest,
      routes,
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

// The options of resource() and singular(), checked at definition with an error that names the fix.
/** Methods an extra action may take. */
export type ExtraMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Anything that can be a parent: a resource (its `nest`), or what a controller class resolves to. */
export interface Nestable {
  readonly nest: Nest;
}

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
  /**
   * Schemas per action, enforced before the handler and typing its `req`:
   * `{ create: { body: PostInput, response: Post } }` (JSON Schema `as const`, or zod/valibot/arktype).
   */
  readonly schemas?: { readonly [action: string]: ActionSchema | undefined };
  /** Guards run before the body is read: `[auth]` for every action, or `{ create: [auth] }` per action. */
  readonly before?: Before;
  /**
   * Hooks around this resource's requests, after matching and before the guards (see `hook()`); a scope's
   * come first.
   */
  readonly hooks?: readonly Hook[];
  /**
   * The resource this one nests under: `{ parent: posts }` gives `/posts/:post_id/comments`. The guards the
   * parent runs for every action (`before: [auth]`) run first for each of its children's.
   */
  readonly parent?: Nestable;
  /**
   * With a parent: show, edit, update, destroy and member actions un-nested (`/comments/:comment_id`), as
   * Rails' `shallow`.
   */
  readonly shallow?: boolean;
  /**
   * Extra actions on one member: `{ publish: 'POST' }` gives `POST /posts/:post_id/publish`, named
   * `posts.publish`.
   */
  readonly member?: { readonly [action: string]: ExtraMethod };
  /** Extra actions on the collection: `{ search: 'GET' }` gives `GET /posts/search`, named `posts.search`. */
  readonly collection?: { readonly [action: string]: ExtraMethod };
  /** Route update on PATCH as well as PUT (default PUT only). */
  readonly patch?: boolean;
  /** `'collection'` puts new at `GET /posts/new` (Rails'); default `'member'`, `GET /posts/:post_id/new`. */
  readonly newPath?: NewPath;
  /**
   * `Cache-Control` for the successful answers of GET actions: one value for all (`'no-cache'`), or per action
   * (`{ index: 'no-cache', show: 'private, max-age=60' }`); a handler's own header wins.
   */
  readonly cache?: CacheOption;
  /**
   * Clients may watch the resource: `GET` of its collection or a member with `Accept: text/event-stream`
   * streams its changes (docs/live.md). Give what `live()` of `sevenfold/live` makes, or `changes.only('show')`.
   */
  readonly watch?: Watcher;
}

/** An extra action as checked: its name, method, and whether it acts on a member or the collection. */
export interface Extra {
  readonly action: string;
  readonly method: HttpMethod;
  readonly on: 'member' | 'collection';
}

/** An action's schemas as its route keeps them: JSON Schema, and the Standard Schema values that validate. */
export interface RouteSchemas {
  readonly schema: RouteSchema;
  readonly standard: Route['standard'];
}

/** The options once checked: schemas converted to JSON Schema, guards as `Guard` records, per action. */
export interface CheckedOptions {
  readonly only?: readonly Action[];
  readonly except?: readonly Action[];
  readonly param?: string;
  readonly path?: string;
  readonly schemas: { readonly [action: string]: RouteSchemas | undefined };
  readonly guards: { readonly [action: string]: readonly Guard<any>[] | undefined };
  /** The guards `before` gives every action (a list, not per action): what children inherit. */
  readonly shared: readonly Guard<any>[];
  readonly hooks: readonly Hook[] | undefined;
  readonly parent?: Nest;
  readonly shallow: boolean;
  readonly extras: readonly Extra[];
  readonly patch: boolean;
  readonly newPath: NewPath;
  /** The `Cache-Control` of each GET action the `cache` option covers. */
  readonly cache: Readonly<Record<string, string>>;
  /** What watches the resource, when `watch` is given. */
  readonly watch?: Watcher;
}

const OPTION_KEYS = [
  'only',
  'except',
  'param',
  'path',
  'schemas',
  'before',
  'hooks',
  'parent',
  'shallow',
  'member',
  'collection',
  'patch',
  'newPath',
  'cache',
  'watch',
] as const;
// A singular resource has one member and no id: these options have nothing to act on.
const NOT_SINGULAR: Readonly<Record<string, string>> = {
  param: 'it has no id',
  shallow: 'it has no member path of its own to un-nest',
  collection: 'it has no collection; declare the action in "member"',
  newPath: 'its new is always /<name>/new',
};
const PARAM = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

const NO_OPTIONS: CheckedOptions = Object.freeze({
  schemas: Object.freeze({}),
  guards: Object.freeze({}),
  shared: Object.freeze([]),
  hooks: undefined,
  shallow: false,
  extras: Object.freeze([]),
  patch: false,
  newPath: 'member',
  cache: Object.freeze({}),
});

/** Checks `resource()`'s options, reading each once: a getter could answer differently after the check. */
export function checkOptions(
  call: string,
  name: string,
  options: unknown,
  kind: 'plural' | 'singular' = 'plural',
): CheckedOptions {
  if (options === undefined) return NO_OPTIONS;
  if (options === null || typeof options !== 'object') {
    throw new RouteDefinitionError(`${call}: options must be an object`, { resource: name });
  }
  const given = options as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) {
      throw new RouteDefinitionError(
        `${call}: unknown option "${key}"${suggest(key, OPTION_KEYS)}; options are ${OPTION_KEYS.join(', ')}`,
        { resource: name },
      );
    }
  }
  if (kind === 'singular') {
    for (const key of Object.keys(NOT_SINGULAR)) {
      if (given[key] !== undefined) {
        throw new RouteDefinitionError(
          `${call}: a singular resource takes no "${key}": ${NOT_SINGULAR[key]}`,
          { resource: name },
        );
      }
    }
  }
  const { only, except, param, path, schemas, before, hooks, parent, shallow, member, collection, patch } =
    given;
  const { newPath, cache, watch } = given;
  if (only !== undefined && except !== undefined) {
    throw new RouteDefinitionError(`${call}: use "only" or "except", not both`, { resource: name });
  }
  for (const [key, list] of [
    ['only', only],
    ['except', except],
  ] as const) {
    if (list !== undefined) checkActionList(call, name, key, list);
  }
  if (param !== undefined && (typeof param !== 'string' || !PARAM.test(param))) {
    throw new RouteDefinitionError(
      `${call}: "param" must be an identifier such as "post_id" or "slug", got ${describe(param)}`,
      { resource: name },
    );
  }
  if (
    path !== undefined &&
    (typeof path !== 'string' || !SEGMENT.test(path) || path === '.' || path === '..')
  ) {
    throw new RouteDefinitionError(
      `${call}: "path" must be one URL segment of letters, digits and - . _ ~ (no slashes), got ${describe(path)}`,
      { resource: name },
    );
  }
  const extras = [
    ...checkExtras(call, name, 'collection', collection),
    ...checkExtras(call, name, 'member', member),
  ];
  const named = new Set<string>();
  for (const extra of extras) {
    if (named.has(extra.action)) {
      throw new RouteDefinitionError(
        `${call}: "${extra.action}" is declared in both "member" and "collection"; keep one`,
        { resource: name, action: extra.action },
      );
    }
    named.add(extra.action);
  }
  // Every action the resource may have, and whether its request has a body a schema could describe.
  const actions = new Map<string, boolean>(ACTION_NAMES.map((action) => [action, ACTIONS[action].body]));
  for (const extra of extras) actions.set(extra.action, readsBody(extra.method));
  const guards = checkBefore(call, name, before, actions);
  return {
    only: only as readonly Action[] | undefined,
    except: except as readonly Action[] | undefined,
    param: param as string | undefined,
    path: path as string | undefined,
    schemas: checkSchemas(call, name, schemas, actions),
    guards,
    shared: Array.isArray(before) ? (guards.index ?? []) : [],
    hooks: hooks === undefined ? undefined : toHooks(hooks, call),
    parent: checkParent(call, name, parent),
    shallow: checkShallow(call, name, shallow, parent),
    extras,
    patch: checkFlag(call, name, 'patch', patch),
    newPath: checkNewPath(call, name, newPath),
    cache: checkCache(call, name, cache, methodsOf(kind, extras)),
    watch: checkWatch(call, name, watch),
  };
}

/** Each action a resource of this kind may have, with its method: the seven's (no index for a singular), then extras. */
function methodsOf(kind: 'plural' | 'singular', extras: readonly Extra[]): Map<string, string> {
  const seven = ACTION_NAMES.filter((action) => kind === 'plural' || action !== 'index');
  return new Map([
    ...seven.map((action) => [action, ACTIONS[action].method] as [string, string]),
    ...extras.map((extra) => [extra.action, extra.method] as [string, string]),
  ]);
}

function checkActionList(call: string, name: string, key: string, list: unknown): void {
  if (!Array.isArray(list)) {
    throw new RouteDefinitionError(`${call}: "${key}" must be an array of actions, e.g. ["index", "show"]`, {
      resource: name,
    });
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

function checkBefore(
  call: string,
  name: string,
  before: unknown,
  actions: ReadonlyMap<string, boolean>,
): CheckedOptions['guards'] {
  const guards: { [action: string]: readonly Guard<any>[] } = new NullObject();
  if (before === undefined) return guards;
  const list = (action: string | undefined, value: unknown): readonly Guard<any>[] => {
    if (!Array.isArray(value)) {
      throw new RouteDefinitionError(
        `${call}: "before"${action ? ` for ${name}#${action}` : ''} must be an array of guards, e.g. [auth]`,
        { resource: name, action },
      );
    }
    return Object.freeze(value.map((entry) => toGuard(entry, { resource: name, action })));
  };
  if (Array.isArray(before)) {
    const all = list(undefined, before);
    for (const action of actions.keys()) guards[action] = all;
    return guards;
  }
  for (const [action, value] of byAction(call, name, 'before', before, '{ create: [auth] }', actions)) {
    if (value !== undefined) guards[action] = list(action, value);
  }
  return guards;
}
