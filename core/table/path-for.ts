// pathFor(): a route's URL for its params, the inverse of matching.
import type { ParamKeys, Route } from '../types.js';

type PathArgs<Path extends string> = [ParamKeys<Path>] extends [never]
  ? [params?: Record<string, never>]
  : [params: { readonly [K in ParamKeys<Path>]: string | number }];

/**
 * The URL path of a route for the given params, percent-encoded: the inverse of `match`.
 * `pathFor(posts.actions.edit, { post_id: 'a b' })` → `/posts/a%20b/edit`.
 */
export function pathFor<Path extends string>(route: Route<Path> | Path, ...[params]: PathArgs<Path>): string {
  const pattern: string = typeof route === 'string' ? route : route.path;
  return pattern.replace(/:([^/]+)/g, (_, name: string) => {
    const value =
      params !== undefined && Object.hasOwn(params, name)
        ? (params as Record<string, unknown>)[name]
        : undefined;
    if ((typeof value !== 'string' && typeof value !== 'number') || value === '') {
      throw new TypeError(`pathFor('${pattern}'): missing value for :${name}`);
    }
    // As in paths(): URL parsers drop "." and ".." segments, even percent-encoded, so no link could reach
    // them.
    if (value === '.' || value === '..') {
      throw new TypeError(
        `pathFor('${pattern}'): :${name} cannot be ${JSON.stringify(value)}: URL parsers resolve it as a dot segment, so no link could carry it`,
      );
    }
    return encodeURIComponent(value);
  });
}
