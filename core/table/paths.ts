// paths(): typed URL and form helpers for every route of a table, by resource and action.
import { suggest } from '../errors.js';
import { METHOD_FIELD, OVERRIDE_METHODS, type OverrideMethod } from '../request/method-override.js';
import type { Resource } from '../define/resource-types.js';
import { tableOf, type ResourcesIn, type Routable } from './table.js';
import type { HttpMethod, ParamKeys, Route } from '../types.js';
import { fileFields } from '../request/file-fields.js';

const MULTIPART = { enctype: 'multipart/form-data' } as const;

/** Query values a path helper writes: `undefined` is left out, an array repeats its key. */
export type QueryValues = {
  readonly [key: string]: string | number | boolean | readonly (string | number | boolean)[] | undefined;
};

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
      readonly [N in R extends Resource<infer Name, any, any, any> ? Name : never]: HelpersOfResource<
        Extract<R, { readonly name: N }>
      >;
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
  const build = (params: unknown): string => fill(route, params, where);
  const helper = (params?: unknown, query?: unknown): string => build(params) + queryString(query, where);
  return Object.freeze(
    Object.assign(helper, {
      form: (params?: unknown): Form => formOf(route, build(params), where),
      pattern: route.path,
      method: route.method,
    }),
  ) as PathHelper;
}

/** The route's path with each param percent-encoded, after checking the params are exactly its own. */
function fill(route: Route, params: unknown, where: string): string {
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    throw new TypeError(`${where}: params must be an object such as { ${route.params[0] ?? ''} }`);
  }
  const given = (params ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!route.params.includes(key)) {
      throw new TypeError(
        `${where}: "${key}" is not a param of ${route.path}${suggest(key, route.params)}; it takes ${route.params.join(', ') || 'none'}`,
      );
    }
  }
  // Segment by segment, so a value can never be read as a param's name.
  return route.path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      const value = given[name];
      if (!(
        (typeof value === 'string' && value !== '') ||
        (typeof value === 'number' && Number.isFinite(value))
      )) {
        throw new TypeError(`${where}: missing value for :${name} (a non-empty string or a finite number)`);
      }
      // Browsers and URL parsers drop "." and ".." segments, even percent-encoded: no link could reach them.
      if (value === '.' || value === '..') {
        throw new TypeError(
          `${where}: :${name} cannot be ${JSON.stringify(value)}: URL parsers resolve it as a dot segment, so no link could carry it`,
        );
      }
      return encodeURIComponent(value);
    })
    .join('/');
}

function queryString(query: unknown, where: string): string {
  if (query === undefined) return '';
  if (query === null || typeof query !== 'object' || Array.isArray(query)) {
    throw new TypeError(`${where}: the query must be an object such as { limit: 10 }`);
  }
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined) continue;
      if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') {
        throw new TypeError(
          `${where}: query value "${key}" must be a string, number or boolean, got ${typeof item}`,
        );
      }
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(item)}`);
    }
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
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
