// The route listing: a table printed as text, Markdown or JSON, the documentation a table gives.
import { shadows, type Shadow } from './shadows.js';
import { tableOf, type Routable } from './table.js';
import { tableHooks } from './scope.js';
import type { Route, RouteTable } from '../types.js';

/** Which routes a listing shows; every given filter must match. */
export interface RouteFilter {
  /** Text found, ignoring case, in the name, method, path or resource#action. */
  readonly grep?: string;
  /** Only this resource's routes. */
  readonly resource?: string;
  /** Only this method (any case). */
  readonly method?: string;
}

/** The formats a listing is printed in. */
export type ListingFormat = 'text' | 'md' | 'json';

export const LISTING_FORMATS: readonly ListingFormat[] = ['text', 'md', 'json'];

/** The routes a filter keeps, in table order, with the hooks the table runs before matching. */
export function filterRoutes(source: Routable, filter: RouteFilter = {}): RouteTable {
  const table = tableOf(source);
  const grep = filter.grep?.toLowerCase();
  const method = filter.method?.toUpperCase();
  const kept = table.filter(
    (route) =>
      (filter.resource === undefined || route.resource === filter.resource) &&
      (method === undefined || route.method === method) &&
      (grep === undefined || columns(route).some((cell) => cell.toLowerCase().includes(grep))),
  );
  // The hooks a scope runs before matching meet every request, whichever routes the filter shows.
  const hooks = tableHooks(table);
  return hooks.length === 0 ? kept : Object.assign(kept, { hooks });
}

const HEADER = ['Name', 'Method', 'Path', 'Action'] as const;

/** The cells of one listing row: name, method, path, resource#action. */
function columns(route: Route): string[] {
  return [route.name, route.method, route.path, `${route.resource}#${route.action}`];
}

/** The guards that run before a route, by name, in order (`bearer, admin`), or `-`. */
function guardNames(route: Route): string {
  return route.guards === undefined || route.guards.length === 0
    ? '-'
    : route.guards.map((guard) => guard.name).join(', ');
}

/** The hooks around a route, by name, outermost first (`requestId, requestLog`), or `-`. */
function hookNames(route: Route): string {
  return route.hooks === undefined || route.hooks.length === 0
    ? '-'
    : route.hooks.map((hook) => hook.name).join(', ');
}

/** The events a route streams, by name, in order (`created, updated, destroyed, reload`), or `-`. */
function eventNames(route: Route): string {
  return route.events === undefined ? '-' : Object.keys(route.events).join(', ') || '-';
}

/** Where static segments shadow a route's params (`post_id=search (posts.search)`), or `-`. */
function shadowNotes(found: readonly Shadow[] | undefined): string {
  if (found === undefined) return '-';
  return found
    .map(
      (shadow) =>
        `${Object.entries(shadow.values)
          .map(([param, value]) => `${param}=${value}`)
          .join(' ')} (${shadow.by})`,
    )
    .join(', ');
}

/**
 * A route record as the JSON listing prints it: data only (Standard Schema values are kept as their JSON
 * Schema in `schema`).
 */
function record(route: Route, found: readonly Shadow[] | undefined): object {
  const { standard: _validators, ...data } = route;
  if (found === undefined) return data;
  return { ...data, shadowedBy: found.map(({ by, values }) => ({ route: by, values })) };
}

/**
 * The shadows of a table by the route they shadow: a route is keyed by method and path, as names repeat (PUT
 * and PATCH).
 */
function shadowsByRoute(source: Routable): Map<string, Shadow[]> {
  const byRoute = new Map<string, Shadow[]>();
  for (const shadow of shadows(source)) {
    const key = `${shadow.method} ${shadow.path}`;
    const list = byRoute.get(key);
    if (list === undefined) byRoute.set(key, [shadow]);
    else list.push(shadow);
  }
  return byRoute;
}

/**
 * Prints a table (or a resource's): `text` as aligned columns for a terminal, `md` as a Markdown table,
 * `json` as the route records without handlers (a watched route's `events` with their data schemas). Data in,
 * a string out; nothing is printed.
 *
 *     Name           Method  Path                  Action
 *     posts.index    GET     /posts                posts#index
 *     posts.show     GET     /posts/:post_id       posts#show
 */
export function formatRoutes(source: Routable, format: ListingFormat = 'text'): string {
  const table = tableOf(source);
  const shadowed = shadowsByRoute(table);
  const of = (route: Route) => shadowed.get(`${route.method} ${route.path}`);
  if (format === 'json')
    return `${JSON.stringify(
      table.map((route) => record(route, of(route))),
      null,
      2,
    )}\n`;
  // The Guards, Hooks, Cache-Control, Streams and Unreachable columns appear once a route needs them, so tables
  // without print as before.
  const guarded = table.some((route) => route.guards !== undefined && route.guards.length > 0);
  const hooked = table.some((route) => route.hooks !== undefined && route.hooks.length > 0);
  const cached = table.some((route) => route.cacheControl !== undefined);
  const streaming = table.some((route) => route.events !== undefined);
  const header: string[] = [...HEADER];
  if (guarded) header.push('Guards');
  if (hooked) header.push('Hooks');
  if (cached) header.push('Cache-Control');
  if (streaming) header.push('Streams');
  if (shadowed.size > 0) header.push('Unreachable with');
  const rows = [
    header,
    ...table.map((route) => {
      const cells = columns(route);
      if (guarded) cells.push(guardNames(route));
      if (hooked) cells.push(hookNames(route));
      if (cached) cells.push(route.cacheControl ?? '-');
      if (streaming) cells.push(eventNames(route));
      if (shadowed.size > 0) cells.push(shadowNotes(of(route)));
      return cells;
    }),
  ];
  const widths = header.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  if (format === 'md') {
    const line = (cells: readonly string[]): string =>
      `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
    const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
    return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n') + '\n' + aroundEvery(table, '\n');
  }
  return (
    rows
      .map((cells) =>
        cells
          .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]! + 2)))
          .join('')
          .trimEnd(),
      )
      .join('\n') +
    '\n' +
    aroundEvery(table, '')
  );
}

/** The line that names the mounted scope's hooks, which every request meets, misses included; none without them. */
function aroundEvery(table: RouteTable, gap: string): string {
  const hooks = tableHooks(table);
  if (hooks.length === 0) return '';
  return `${gap}Around every request, misses included: ${hooks.map((hook) => hook.name).join(', ')}\n`;
}
