// routes() and the checks of a whole table: duplicates, shapes, segment limits.
import { RouteDefinitionError } from '../errors.js';
import { isBuilt, type Resource } from '../define/resource.js';
import type { Route, RouteTable } from '../types.js';

/**
 * Route tables: combining resources into one, and the checks a table passes before it is
 * mounted. Validity is tracked by two trust marks kept side by side here, so a table checked
 * once is not checked again: `resource()` marks what it builds, `checkTable` marks frozen tables.
 */

// Far past any real route, and well inside what the matcher's recursive walks can take.
export const MAX_SEGMENTS = 256;

// A method name is a token (RFC 9110): no spaces, so method lists joined with one stay unambiguous.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

// Resources resource() made: frozen, with routes valid by construction, which routes() need not check one by
// one.
// Frozen tables of frozen routes that passed `checkTable` (as `routes()` returns them): `compile()` does not
// check them again.
const CHECKED = new WeakSet<RouteTable>();

/** Whether `checkTable` passed this table and nothing in it can have changed since. */
export function isChecked(table: RouteTable): boolean {
  return CHECKED.has(table);
}

/** Anything that holds routes: a resource, a table, or a single route. */
export type Routable = Resource<any, any, any, any> | RouteTable | Route;

/**
 * Where a table keeps, for the types only, the resources it was made of (no such property exists at run
 * time).
 */
export declare const RESOURCES: unique symbol;

/**
 * A route table that remembers, in its type, the resources it holds: what `paths()` types its helpers from.
 */
export type Table<R = never> = RouteTable & { readonly [RESOURCES]?: R };

/** The resources a source holds, as types: a resource itself, or those a typed table remembers. */
export type ResourcesIn<S> =
  S extends Resource<any, any, any, any> ? S : S extends { readonly [RESOURCES]?: infer R } ? R : never;

/** The routes of a resource or table, as a table. */
export function tableOf(source: Routable): RouteTable {
  if (Array.isArray(source)) return source as RouteTable;
  if (source !== null && typeof source === 'object' && 'routes' in source && Array.isArray(source.routes))
    return source.routes;
  if (source !== null && typeof source === 'object' && 'handler' in source && 'path' in source)
    return [source as Route];
  throw new TypeError('expected a resource, a route table or a route');
}

/**
 * Combines resources and tables into one frozen table, in the order given. Two routes with
 * the same method and path shape throw a `RouteDefinitionError` naming both.
 */
export function routes<const S extends readonly Routable[]>(...sources: S): Table<ResourcesIn<S[number]>>;
export function routes(...sources: Routable[]): RouteTable {
  const table: Route[] = [];
  // Routes of resources that resource() built are valid by construction: only how they combine with the rest
  // is checked.
  const valid: boolean[] = [];
  for (const source of sources) {
    const part = tableOf(source);
    const built = isBuilt(source);
    // Holes are skipped, as flat() skips them, so each flag stays beside its route.
    for (let k = 0; k < part.length; k++) {
      if (!(k in part)) continue;
      table.push(part[k]!);
      valid.push(built);
    }
  }
  Object.freeze(table);
  checkTable(table, valid);
  return table;
}

/**
 * Checks a table as `compile()` does (paths, params, no two routes alike) without building a
 * matcher: two routes are alike when their methods and path shapes (param names erased) are,
 * which is when `compile()` would put them at the same node. `valid[i]` skips route i's own check.
 */
export function checkTable(table: RouteTable, valid?: readonly boolean[]): void {
  const seen = new Map<string, Route>();
  const names = new Map<string, Route>();
  let frozen = Object.isFrozen(table);
  for (let i = 0; i < table.length; i++) {
    const route = table[i]!;
    if (valid?.[i] !== true) checkRoute(route);
    const key = `${route.method} ${shapeOf(route.path)}`;
    const taken = seen.get(key);
    if (taken !== undefined) throw duplicateRouteError(taken, route);
    const named = names.get(route.name);
    // One name, one path: path helpers and the listing find a route by its name (PUT and PATCH of one update
    // share both).
    if (named !== undefined && named.path !== route.path) throw duplicateNameError(named, route);
    if (named === undefined) names.set(route.name, route);
    seen.set(key, route);
    frozen &&= Object.isFrozen(route) && Object.isFrozen(route.params);
  }
  // Nothing in a frozen table of frozen routes can change after this check, so compiling it need not repeat
  // it.
  if (frozen) CHECKED.add(table);
}

/**
 * Throws unless the route's method is a method name, its path a path, and its params the ones the path names.
 */
export function checkRoute(route: Route): void {
  if (typeof route.method !== 'string' || !TOKEN.test(route.method)) {
    throw new RouteDefinitionError(
      `route ${route.name}: method must be an HTTP method name such as "GET", got ${JSON.stringify(route.method)}`,
      route,
    );
  }
  if (typeof route.path !== 'string' || !route.path.startsWith('/')) {
    throw new RouteDefinitionError(
      `route ${route.name}: path must start with "/", got ${JSON.stringify(route.path)}`,
      route,
    );
  }
  let segments = 0;
  for (let i = 0; i < route.path.length; i++) if (route.path[i] === '/') segments++;
  if (segments > MAX_SEGMENTS) {
    throw new RouteDefinitionError(
      `route ${route.name}: path has ${segments} segments; at most ${MAX_SEGMENTS} are allowed`,
      route,
    );
  }
  if (!paramsMatch(route.path, route.params)) {
    throw new RouteDefinitionError(
      `route ${route.name}: params ${JSON.stringify(route.params)} do not match the path ${route.path}, which names ${JSON.stringify(paramNames(route.path))}`,
      route,
    );
  }
}

/** The error for two routes that would answer the same method and path: the second could never be reached. */
export function duplicateRouteError(taken: Route, route: Route): RouteDefinitionError {
  return new RouteDefinitionError(
    `${route.method} ${route.path} is defined twice: by ${taken.name} and by ${route.name}, so ${route.name} could never be reached; remove one or give it another path`,
    route,
  );
}

function duplicateNameError(taken: Route, route: Route): RouteDefinitionError {
  return new RouteDefinitionError(
    `two routes are named ${route.name}: ${taken.method} ${taken.path} and ${route.method} ${route.path}; a name must lead to one path (give one resource another name, or mount the table once)`,
    route,
  );
}

/** Whether `params` lists exactly the param names of `path`, in order, compared in place (no split). */
function paramsMatch(path: string, params: readonly string[]): boolean {
  if (!Array.isArray(params)) return false;
  let count = 0;
  for (let start = 1; start <= path.length;) {
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    if (path[start] === ':') {
      const name = params[count++];
      if (typeof name !== 'string' || name.length !== end - start - 1 || !path.startsWith(name, start + 1))
        return false;
    }
    start = end + 1;
  }
  return count === params.length;
}

/** The parameter names of a path pattern, in order: `/posts/:post_id/edit` → `['post_id']`. */
export function paramNames(path: string): string[] {
  const names: string[] = [];
  for (const segment of path.split('/')) if (segment.startsWith(':')) names.push(segment.slice(1));
  return names;
}

/** A path pattern with the parameter names erased, so `/a/:x` and `/a/:y` compare equal. */
export function shapeOf(path: string): string {
  // Most paths of a table name no param, and those are their own shape: no copy is made.
  let at = path.indexOf('/:');
  if (at === -1) return path;
  // Cut by hand with indexOf: a regular expression here costs a tenth of building a large table.
  let shape = '';
  let from = 0;
  while (at !== -1) {
    shape += path.slice(from, at + 2);
    const end = path.indexOf('/', at + 2);
    from = end === -1 ? path.length : end;
    at = path.indexOf('/:', from);
  }
  return shape + path.slice(from);
}
