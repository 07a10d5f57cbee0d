// paths(): typed URL and form helpers for every route of a table, by resource and action.
import { suggest } from '../errors.js';
import { METHOD_FIELD, OVERRIDE_METHODS, type OverrideMethod } from '../request/method-override.js';
import type { Resource } from '../define/resource-types.js';
import { tableOf, type ResourcesIn, type Routable } from './table.js';
import type { HttpMethod, ParamKeys, Route } from '../types.js';
import { fileFields } from '../request/file-fields.js';
import { fillPath, queryString, type QueryValues } from '../util/encode-url.js';

const MULTIPART = { enctype: 'multipart/form-data' } as const;

export type { QueryValues } from '../util/encode-url.js';

type ParamValues<Path extends string> = { readonly [K in ParamKeys<Path>]: string | number };
/**
 * A helper's params argument: required when the path names params, optional (and empty) when it names none.
 */
export type ParamArgs<Path extends string> = [ParamKeys<Path>] extends [never]
  ? [params?: { readonly [key: string]: never } | undefined]
  : [params: ParamValues<Path>];

/**
 * Everything an HTML form needs to send a route's request: forms only GET and POST, `_method` says the rest.
 */
export interface Form {
  readonly action: string;
  readonly method: 'GET' | 'POST';
  /** `multipart/form-data` for a route that takes uploads (its body schema has a file field). */
  readonly enctype?: 'multipart/form-data';
  /**
   * Hidden fields to send before any other: a multipart form's `_method` counts only as its first part.
   */
  readonly fields: { readonly _method?: OverrideMethod };
}

/**
 * The path of one route: `p.posts.show({ post_id: 'a b' })` is `/posts/a%20b`; `.form()` what a form needs.
 */
export interface PathHelper<Path extends string = string> {
  (...args: [...ParamArgs<Path>, query?: QueryValues]): string;
  form(...args: ParamArgs<Path>): Form;
  /** The route's path pattern, e.g. `/posts/:post_id`. */
  readonly pattern: Path;
  readonly method: HttpMethod;
}

type HelpersOfResource<R> = R extends { readonly actions: infer A }
  ? {
      readonly [K in keyof A]: PathHelper<
        A[K] extends { readonly path: infer P extends string } ? P : string
      >;
    }
  : never;

/** Path helpers keyed by resource name, then action, typed from the resources a table holds. */
export type PathHelpers<R> = [R] extends [never]
  ? { readonly [resource: string]: { readonly [action: string]: PathHelper } }
  : {
      // Keyed by remapping each resource to its name: an Extract per name was quadratic in the table's size.
      readonly [X in R as X extends Resource<infer Name, any, any, any> ? Name : never]: HelpersOfResource<X>;
    };

/**
 * Typed path helpers from a table (or a resource), no codegen: `paths(table).comments.show({
 * post_id, comment_id })`. Every param is percent-encoded; a missing, extra or misspelt param
 * is a compile error, and a `TypeError` at run time for JavaScript callers, as is an unknown
 * resource or action.
 */
export function paths<S extends Routable>(source: S): PathHelpers<ResourcesIn<S>> {
  const byResource = new Map<string, Record<string, PathHelper>>();
  for (const route of tableOf(source)) {
    let helpers = byResource.get(route.resource);
    if (helpers === undefined) byResource.set(route.resource, (helpers = {}));
    // The first route of a name is its helper: PUT before the PATCH that shares its path.
    helpers[route.action] ??= helperOf(route);
  }
  const top: Record<string, unknown> = {};
  for (const [name, helpers] of byResource) top[name] = strict(helpers, `paths().${name}`, 'action');
  return strict(top, 'paths()', 'resource') as PathHelpers<ResourcesIn<S>>;
}

// Keys that libraries and runtimes probe on any object (await, JSON, inspection) read as absent rather than
// throw.
const PROBED = new Set(['then', 'toJSON', 'constructor', 'asymmetricMatch', 'nodeType', '$$typeof']);

/** A frozen object that throws, naming what exists, when read at a key it does not have. */
function strict<T extends object>(target: T, where: string, what: string): T {
  Object.freeze(target);
  return new Proxy(target, {
    get(object, key) {
      if (typeof key === 'symbol' || Object.hasOwn(object, key) || PROBED.has(key))
        return Reflect.get(object, key);
      const known = Object.keys(object);
      throw new TypeError(
        `${where}: no ${what} "${key}"${suggest(key, known)}; there are ${known.join(', ') || 'none'}`,
      );
    },
  });
}

function helperOf(route: Route): PathHelper {
  const where = `paths().${route.name}`;
  const build = (params: unknown): string => fillPath(route.path, params, where, suggest);
  const helper = (params?: unknown, query?: unknown): string => build(params) + queryString(query, where);
  return Object.freeze(
    Object.assign(helper, {
      form: (params?: unknown): Form => formOf(route, build(params), where),
      pattern: route.path,
      method: route.method,
    }),
  ) as PathHelper;
}

function formOf(route: Route, action: string, where: string): Form {
  // A route that takes uploads gets a multipart form, whose `_method` (first in `fields`) is read as its first part.
  const enctype = route.body && fileFields(route.schema?.body).length > 0 ? MULTIPART : {};
  if (route.method === 'GET' || route.method === 'POST')
    return Object.freeze({ action, method: route.method, ...enctype, fields: Object.freeze({}) });
  if (!OVERRIDE_METHODS.has(route.method)) {
    throw new TypeError(
      `${where}: a form cannot send ${route.method}; forms send GET and POST, and POST with ${METHOD_FIELD} PUT, PATCH or DELETE`,
    );
  }
  return Object.freeze({
    action,
    method: 'POST',
    ...enctype,
    fields: Object.freeze({ [METHOD_FIELD]: route.method as OverrideMethod }),
  });
}
