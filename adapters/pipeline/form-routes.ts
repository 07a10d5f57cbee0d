// What a form posted with `_method` may reach: the routes at its path, and the guards they all run first.
import type { Guard } from '../../core/define/guards.js';
import type { Matcher } from '../../core/matcher/index.js';
import { fileFields } from '../../core/request/file-fields.js';
import { OVERRIDE_METHODS } from '../../core/request/method-override.js';
import type { Match, Route, RouteTable } from '../../core/types.js';

const FORM_METHODS = ['POST', ...OVERRIDE_METHODS];

/** A route the matcher found, with its params. */
export type Found = Extract<Match, { kind: 'found' }>;

/** The routes a form posted to `path` may reach: POST's, and those `_method` can ask for. */
export function formRoutes(matcher: Matcher, path: string): Found[] {
  const found: Found[] = [];
  for (const method of FORM_METHODS) {
    const match = matcher.match(method, path);
    if (match.kind === 'found') found.push(match);
  }
  return found;
}

/** The guards every one of `routes` runs first, in order: the longest prefix their guard lists share. */
export function sharedGuards(routes: readonly Found[]): readonly Guard<any>[] {
  const lists = routes.map((found) => found.route.guards ?? []);
  const first = lists[0]!;
  let length = 0;
  while (length < first.length && lists.every((list) => list[length] === first[length])) length++;
  return first.slice(0, length);
}

/** The routes `_method` may name (PUT, PATCH) whose body has a file field: where a multipart form may lead. */
export function uploadOverrides(table: RouteTable): ReadonlySet<Route> {
  return new Set(
    table.filter(
      (route) =>
        OVERRIDE_METHODS.has(route.method) && route.body && fileFields(route.schema?.body).length > 0,
    ),
  );
}
