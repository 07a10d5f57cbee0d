// The options of resource() and singular(), checked at definition with an error that names the fix.
import { ACTION_NAMES, ACTIONS, isAction, type Action } from './actions.js';
import { RouteDefinitionError, suggest } from '../errors.js';
import { toGuard, type Before, type Guard } from './guards.js';
import { toHooks, type Hook } from './hooks.js';
import { readsBody, type Nest, type NewPath } from './nest.js';
import { checkExtras, checkFlag, checkNewPath, checkParent, checkShallow } from './nest-options.js';
import { checkCache, type CacheOption } from './cache-control.js';
import { byAction, describe } from './describe.js';
import { checkSchemas } from './schema-options.js';
import { NullObject } from '../util/null-object.js';
import type { ActionSchema, HttpMethod, JsonSchema, Route, RouteSchema } from '../types.js';

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
  const { newPath, cache } = given;
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
