// Routes a static segment hides from a param (`/posts/search` vs `/posts/:post_id`), and the ids that cannot
// be reached.
import type { Resource } from '../define/resource-types.js';
import { tableOf, type Routable } from './table.js';
import type { Route } from '../types.js';

/**
 * Where a static segment shadows a param. The matcher tries a node's static segments before
 * its param (and backtracks from a dead end), so `GET /posts/search` goes to `posts.search`
 * and never to `posts.show` with `post_id` `search`. These are the requests a route can never
 * get: the listing marks them, and an app refuses to create what could not be reached.
 */
export interface Shadow {
  /** The route some requests cannot reach, e.g. `posts.show`. */
  readonly route: string;
  readonly method: string;
  readonly path: string;
  /** The route that gets them instead, e.g. `posts.search`. */
  readonly by: string;
  /** The param values (all of them at once) that go to `by`: `{ post_id: 'search' }`. */
  readonly values: Readonly<Record<string, string>>;
}

/** Every shadow in a table, across all its resources, in table order of the shadowed route. */
export function shadows(source: Routable): readonly Shadow[] {
  const table = tableOf(source);
  // Only routes with the same method and segment count can take each other's requests.
  const groups = new Map<string, { route: Route; segments: string[] }[]>();
  const entries = table.map((route) => {
    const segments = route.path.split('/').slice(1);
    const key = `${route.method} ${segments.length}`;
    const entry = { route, segments };
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [entry]);
    else group.push(entry);
    return { entry, key };
  });
  const found: Shadow[] = [];
  for (const { entry, key } of entries) {
    if (entry.route.params.length === 0) continue;
    for (const other of groups.get(key)!) {
      if (other === entry) continue;
      const values = shadowedBy(entry.segments, other.segments);
      if (values === undefined) continue;
      found.push(
        Object.freeze({
          route: entry.route.name,
          method: entry.route.method,
          path: entry.route.path,
          by: other.route.name,
          values: Object.freeze(values),
        }),
      );
    }
  }
  return Object.freeze(found);
}

/**
 * The param values of `mine` for which `theirs` is matched instead, or `undefined` when none:
 * both must match the same paths (their statics agree) and, at the first segment where one is
 * static and the other a param, `theirs` must be the static one.
 */
function shadowedBy(mine: readonly string[], theirs: readonly string[]): Record<string, string> | undefined {
  let decided = false;
  const values: Record<string, string> = {};
  for (let i = 0; i < mine.length; i++) {
    const a = mine[i]!;
    const b = theirs[i]!;
    const aParam = a.startsWith(':');
    const bParam = b.startsWith(':');
    if (!aParam && !bParam) {
      if (a !== b) return undefined;
    } else if (aParam && !bParam) {
      decided = true;
      values[a.slice(1)] = b;
    } else if (!aParam && bParam && !decided) return undefined;
  }
  return decided ? values : undefined;
}

/**
 * The ids of a resource that some of its routes can never be reached with, whatever the other
 * params: `unreachableIds(table, posts)` is `{'search'}` when `GET /posts/search` exists, so
 * an app can refuse to create a post with that id (the posts example answers 422).
 */
export function unreachableIds(source: Routable, of: Resource<any, any, any, any>): ReadonlySet<string> {
  const ids = new Set<string>();
  if (of.param === undefined) return ids;
  const names = new Set(of.routes.map((route) => route.name));
  for (const shadow of shadows(source)) {
    const keys = Object.keys(shadow.values);
    if (names.has(shadow.route) && keys.length === 1 && keys[0] === of.param)
      ids.add(shadow.values[of.param]!);
  }
  return ids;
}
