// scope(): what a whole table or a part of one shares (guards, hooks), put on each of its routes as data.
import { toGuard, type GuardLike, type Guard } from '../define/guards.js';
import { toHooks, type Hook } from '../define/hooks.js';
import { RouteDefinitionError } from '../errors.js';
import { checkTable, routes, type ResourcesIn, type Routable, type Table } from './table.js';
import type { Route, RouteTable } from '../types.js';

/** What a scope gives every route in it. */
export interface ScopeOptions {
  /** Guards run before each route's own, in this order (the listing's Guards column shows them first). */
  readonly guards?: readonly GuardLike[];
  /**
   * Hooks around each route's requests, before its own. The hooks of the scope an adapter mounts also
   * run before matching, so their `onRequest` parts see every request with a path (misses included), and
   * their `onSend` parts every response (also those refused from the request's head alone, and `OPTIONS *`).
   */
  readonly hooks?: readonly Hook[];
}

/** A table a scope made: its routes, and the hooks that run before matching when it is the one mounted. */
export type Scoped<R> = Table<R> & { readonly hooks: readonly Hook[] };

const SCOPE_KEYS: readonly string[] = ['guards', 'hooks'];

/**
 * Gives a set of resources and tables what they share: `scope({ guards: [signedIn], hooks: [requestId()] },
 * posts, comments)` is a table whose every route runs `signedIn` before its own guards and `requestId` around
 * it, all of it shown by the listing and OpenAPI. Scopes nest: an inner scope's guards and hooks come after
 * the outer's.
 */
export function scope<const S extends readonly Routable[]>(
  options: ScopeOptions,
  ...sources: S
): Scoped<ResourcesIn<S[number]>>;
export function scope(options: ScopeOptions, ...sources: Routable[]): RouteTable {
  const call = 'scope(options, ...sources)';
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new RouteDefinitionError(`${call}: options must be an object such as { guards: [auth] }`);
  for (const key of Object.keys(options)) {
    if (!SCOPE_KEYS.includes(key))
      throw new RouteDefinitionError(
        `${call}: unknown option "${key}"; a scope takes ${SCOPE_KEYS.join(', ')}`,
      );
  }
  const guards = options.guards === undefined ? [] : guardList(call, options.guards as unknown);
  const hooks = options.hooks === undefined ? Object.freeze([]) : toHooks(options.hooks, call);
  const moved = routes(...sources).map((route) => withShared(route, guards, hooks));
  // Frozen with its hooks on it, and checked as routes() checks (the combination was, above).
  const table = Object.freeze(Object.assign(moved, { hooks }));
  checkTable(table, valid(table));
  return table;
}

/** The table's before-matching hooks: those of the scope that made it, or none. */
export function tableHooks(table: RouteTable): readonly Hook[] {
  const hooks = (table as { hooks?: unknown }).hooks;
  return Array.isArray(hooks) ? (hooks as readonly Hook[]) : NONE;
}

const NONE: readonly Hook[] = Object.freeze([]);

function valid(table: RouteTable): boolean[] {
  return table.map(() => true);
}

function guardList(call: string, given: unknown): readonly Guard<any>[] {
  if (!Array.isArray(given))
    throw new RouteDefinitionError(`${call}: "guards" must be an array of guards, e.g. [auth]`);
  return given.map((entry) => toGuard(entry, { resource: 'scope' }));
}

/** A route with the shared guards before its own and the shared hooks around its own; each listed once. */
export function withShared(route: Route, guards: readonly Guard<any>[], hooks: readonly Hook[]): Route {
  if (guards.length === 0 && hooks.length === 0) return route;
  const copy: { -readonly [K in keyof Route]: Route[K] } = { ...route };
  if (guards.length > 0) copy.guards = Object.freeze(unique([...guards, ...(route.guards ?? [])]));
  if (hooks.length > 0) copy.hooks = Object.freeze(unique([...hooks, ...(route.hooks ?? [])]));
  // A spread copies enumerable properties only, and `standard` is not one (see core/define/resource.ts).
  if (route.standard !== undefined) Object.defineProperty(copy, 'standard', { value: route.standard });
  return Object.freeze(copy);
}

// A guard or hook given twice (by a scope and again by a resource inside it) runs once, where it first
// appears.
function unique<T>(list: readonly T[]): T[] {
  return [...new Set(list)];
}
