// The `watch` option of resource(): what a watcher is given, and the check that names a wrong value.
import { RouteDefinitionError } from '../errors.js';
import type { Route } from '../types.js';

/** What a watcher learns of the resource it watches, once, when the resource is defined. */
export interface WatchedResource {
  /** The resource's name, e.g. `posts`. */
  readonly name: string;
  /** Its id param (`post_id`); `undefined` for a singular resource. */
  readonly param: string | undefined;
  /** Its routes as defined, in order. */
  readonly routes: readonly Route[];
}

/**
 * What `resource()`'s `watch` option takes: `live()` of `sevenfold/live` makes one. It returns the resource's
 * routes with watching added (streaming routes carry `events`, changing routes tell of their changes): the
 * table, printed or mounted, is the one it returns.
 */
export interface Watcher<A extends 'index' | 'show' = 'index' | 'show'> {
  watchRoutes(resource: WatchedResource): readonly Route[];
  /** For the types only (no such property exists): the actions that stream, which a typed client may watch. */
  readonly [WATCHES]?: A;
}

/** Where a watcher's type keeps the actions that stream. */
export declare const WATCHES: unique symbol;

/** The option checked: a watcher, or a thrown error naming the resource and the fix. */
export function checkWatch(call: string, name: string, watch: unknown): Watcher | undefined {
  if (watch === undefined) return undefined;
  if (
    watch === null ||
    typeof watch !== 'object' ||
    typeof (watch as { watchRoutes?: unknown }).watchRoutes !== 'function'
  )
    throw new RouteDefinitionError(
      `${call}: "watch" must be what live() of sevenfold/live makes (e.g. { watch: changes } with const changes = live()), or changes.only('show') for one action; got ${given(watch)}`,
      { resource: name },
    );
  return watch as Watcher;
}

/** A wrong `watch` value as the error shows it: `true`, `{}` (an object with no `watchRoutes()`). */
function given(watch: unknown): string {
  if (typeof watch === 'function') return 'a function';
  if (typeof watch === 'string') return JSON.stringify(watch);
  return watch === null || typeof watch !== 'object' ? String(watch) : 'an object with no watchRoutes()';
}

/** The routes once the watcher added to them, checked to be the same routes, each a route record still. */
export function watchedRoutes(call: string, watcher: Watcher, resource: WatchedResource): readonly Route[] {
  const routes = watcher.watchRoutes(resource);
  if (
    !Array.isArray(routes) ||
    routes.length !== resource.routes.length ||
    routes.some((route, i) => route?.name !== resource.routes[i]!.name || typeof route.handler !== 'function')
  )
    throw new RouteDefinitionError(`${call}: its watcher must return the resource's routes, in order`, {
      resource: resource.name,
    });
  return Object.freeze(routes.map((route) => (Object.isFrozen(route) ? route : Object.freeze(route))));
}
