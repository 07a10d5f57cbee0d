// prefix(): a table mounted under a path such as `/api`.
import { RouteDefinitionError } from '../errors.js';
import type { Resource } from '../define/resource-types.js';
import { routes, type ResourcesIn, type Routable, type Table } from './table.js';
import type { Route } from '../types.js';

/**
 * A resource as `prefix(P, …)` leaves it: every path and its member path begin with `P`, names unchanged, and
 * what its actions declare kept (a static prefix adds no param).
 */
export type Prefixed<P extends string, R> =
  R extends Resource<infer N, infer Paths, infer M, infer Param, infer C, infer D>
    ? Resource<N, { readonly [A in keyof Paths]: `${P}${Paths[A]}` }, `${P}${M}`, Param, C, D>
    : never;

// A prefix is static: one or more segments of URL-safe characters, each segment's value fixed.
const PREFIX = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=@-]+)+$/;

/** A prefix that could not be one, as a message in the type, so the call fails to compile. */
type PrefixCheck<P extends string> = P extends `${string}:${string}` | `${string}/` | `${string}//${string}`
  ? 'a prefix is static, such as /api/v1: no params, no trailing or doubled slash'
  : P extends `${string}/.` | `${string}/./${string}` | `${string}/..` | `${string}/../${string}`
    ? 'a prefix has no "." or ".." segment: URL parsers resolve them away, so no request could reach it'
    : P extends `/${string}`
      ? unknown
      : 'a prefix starts with /, such as /api/v1';

/**
 * Mounts resources and tables under a path: `prefix('/api/v1', posts, comments)` is a table
 * whose paths begin with `/api/v1` (listing, OpenAPI, adapters and path helpers all see them),
 * with route names unchanged (`posts.show`). Prefixes compose: `prefix('/api', prefix('/v1', posts))`.
 */
export function prefix<const P extends string, const S extends readonly Routable[]>(
  path: P & PrefixCheck<P>,
  ...sources: S
): Table<Prefixed<P, ResourcesIn<S[number]>>>;
export function prefix(path: string, ...sources: Routable[]): Table<unknown> {
  if (
    typeof path !== 'string' ||
    !PREFIX.test(path) ||
    path.split('/').some((s) => s === '.' || s === '..')
  ) {
    throw new RouteDefinitionError(
      `prefix(${JSON.stringify(path)}): a prefix is static, such as "/api/v1": it starts with /, has no params (nest under a resource for one), no empty, "." or ".." segment and no trailing slash`,
    );
  }
  // The sources are checked as they combine, then their routes copied with the prefix: a frozen table checked
  // again as one.
  const moved = routes(...sources).map((route): Route => {
    const copy = { ...route, path: route.path === '/' ? path : path + route.path };
    // A spread copies enumerable properties only, and `standard` is not one (see core/define/resource.ts).
    if (route.standard !== undefined) Object.defineProperty(copy, 'standard', { value: route.standard });
    return Object.freeze(copy);
  });
  return routes(moved);
}
