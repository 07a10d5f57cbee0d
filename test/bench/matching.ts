import FindMyWay from 'find-my-way';
import { resource, routes, type Route, type RouteTable } from '../../core/index.js';
import { compile, type Matcher } from '../../core/matcher/index.js';

const ok = () => null;
const seven = { index: ok, show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };

/** The name of resource `i` of a table of `count`: r0s, r1s, … (posts when count is 1). */
const nameOf = (count: number, i: number): string => (count === 1 ? 'posts' : `r${i}s`);

/** `count` resources of seven routes each, or only those numbered in `only`. */
export function table(count: number, only?: readonly number[]): RouteTable {
  return routes(
    ...(only ?? Array.from({ length: count }, (_, i) => i)).map((i) => resource(nameOf(count, i), seven)),
  );
}

/** The resources that 64 requests in a fixed cycle over `spread` of `count` ask for, in order. */
function cycle(count: number, spread: number): number[] {
  return Array.from({ length: 64 }, (_, i) => ((i % spread) * 7919) % count);
}

/**
 * The resources a table holds: with `alone` (and a number for `spread`) only those its requests name, else
 * all `count` (`undefined`).
 */
export function tableResources(count: number, spread: Spread, alone: boolean): number[] | undefined {
  return alone && typeof spread === 'number' ? [...new Set(cycle(count, spread))] : undefined;
}

/** One request of the benchmark and the route and params it must find. */
interface Lookup {
  readonly method: string;
  readonly path: string;
  readonly pattern: string;
  readonly params: Record<string, string>;
}

/** The seven requests of one resource of the table, for one id. */
function sevenOf(count: number, resource: number, id: string): Lookup[] {
  const name = nameOf(count, resource);
  const param = count === 1 ? 'post_id' : `${name.slice(0, -1)}_id`;
  const member = { [param]: id };
  return [
    { method: 'GET', path: `/${name}`, pattern: `/${name}`, params: {} },
    { method: 'GET', path: `/${name}/${id}`, pattern: `/${name}/:${param}`, params: member },
    { method: 'GET', path: `/${name}/${id}/edit`, pattern: `/${name}/:${param}/edit`, params: member },
    { method: 'GET', path: `/${name}/${id}/new`, pattern: `/${name}/:${param}/new`, params: member },
    { method: 'POST', path: `/${name}`, pattern: `/${name}`, params: {} },
    { method: 'PUT', path: `/${name}/${id}`, pattern: `/${name}/:${param}`, params: member },
    { method: 'DELETE', path: `/${name}/${id}`, pattern: `/${name}/:${param}`, params: member },
  ];
}

/**
 * How requests are spread: in turn over `spread` resources, over every route of the table in
 * turn (`'all'`), or drawn at random from every route (`'random'`).
 */
export type Spread = number | 'all' | 'random';

/**
 * Requests of every shape: 448 in a fixed cycle over up to `spread` resources, each route of
 * the table in turn (resource by resource, each action, an id of its own), or 7 000 drawn
 * uniformly from every resource and action (a seeded draw, the same in every process).
 */
function requests(count: number, spread: Spread): Lookup[] {
  if (spread === 'all') {
    return Array.from({ length: Math.max(count, 64) }, (_, i) =>
      sevenOf(count, i % count, String(1000 + (i % 997))),
    ).flat();
  }
  if (spread !== 'random') {
    return cycle(count, spread).flatMap((resource, i) => sevenOf(count, resource, String(1000 + i)));
  }
  let seed = 7;
  // A small linear congruential generator, the same draw in every child; its high bits are used, as its low
  // ones cycle (the lowest alternates).
  const draw = (below: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return Math.floor((seed / 0x80000000) * below);
  };
  return Array.from(
    { length: 7000 },
    (_, i) => sevenOf(count, draw(count), String(1000 + (i % 997)))[draw(7)]!,
  );
}

/** The matchers compared, each made from a table into a lookup that answers the route and params found. */
export const MATCHERS: Record<
  string,
  (t: RouteTable) => (method: string, path: string) => { route: Route; params: object } | undefined
> = {
  sevenfold: (t) => {
    const matcher = compile(t);
    return (method, path) => {
      const m = matcher.match(method, path);
      return m.kind === 'found' ? m : undefined;
    };
  },
  'find-my-way': (t) => findMyWay(t, false),
  // find-my-way 9.10's compiler mode: its tree written out as JavaScript, as sevenfold's walk is.
  'find-my-way compiled': (t) => findMyWay(t, true),
};

function findMyWay(
  t: RouteTable,
  compiled: boolean,
): (method: string, path: string) => { route: Route; params: object } | undefined {
  const router = FindMyWay();
  for (const route of t) router.on(route.method as 'GET', route.path, ok, route);
  if (compiled) router.compile();
  return (method, path) => {
    const found = router.find(method as 'GET', path);
    return found === null ? undefined : { route: found.store as Route, params: found.params };
  };
}

/**
 * A timed trial of one matcher on one table, to be run in a process of its own so that no other
 * matcher's code shares its call sites: checks every request's route and params, warms up, and
 * gives a function that times `iterations` lookups and answers lookups per second. With `alone`
 * (and a number for `spread`), the same requests go to a table of only the resources they name,
 * not all `count`: what the table's size costs, apart from how far the requests spread.
 */
export function lookupTrial(
  name: string,
  count: number,
  spread: Spread,
  iterations = 1_000_000,
  alone = false,
): () => number {
  // The table is built first, as an app's is: request strings made before it were moved to the old generation
  // by its collections while still
  // unflattened concatenations, and every character read of them then went through the indirection (15% on 1
  // 000 resources); node's `req.url` is flat.
  const find = MATCHERS[name]!(table(count, tableResources(count, spread, alone)));
  const list = requests(count, spread);
  for (const item of list) {
    const found = find(item.method, item.path);
    if (
      found === undefined ||
      found.route.method !== item.method ||
      found.route.path !== item.pattern ||
      JSON.stringify({ ...found.params }) !== JSON.stringify(item.params)
    ) {
      throw new Error(
        `${name} answered ${item.method} ${item.path} with ${found === undefined ? 'nothing' : `${found.route.method} ${found.route.path} ${JSON.stringify({ ...found.params })}`}`,
      );
    }
  }
  const methods = list.map((item) => item.method);
  const paths = list.map((item) => item.path);
  const n = list.length;
  const trial = (times: number): number => {
    let sink = 0;
    const start = process.hrtime.bigint();
    // Parallel arrays and a wrapping index keep the loop's own cost small next to a lookup.
    for (let i = 0, j = 0; i < times; i++, j = j + 1 === n ? 0 : j + 1) {
      if (find(methods[j]!, paths[j]!) !== undefined) sink++;
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (sink !== times) throw new Error(`${name} missed ${times - sink} lookups`);
    return times / seconds;
  };
  trial(iterations / 2);
  trial(iterations / 2);
  return () => trial(iterations);
}

/**
 * Milliseconds to declare and compile `count` resources: the first time in this process (as at
 * an app's start; run it in a fresh one) and the median of five more; and heap bytes per route.
 */
export function buildFigures(count = 1000): { first: number; ms: number; bytesPerRoute: number } {
  const time = (): number => {
    const start = process.hrtime.bigint();
    const matcher = compile(table(count));
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (matcher.routes.length !== count * 7) throw new Error('table lost routes');
    return ms;
  };
  const first = time();
  const times = Array.from({ length: 5 }, time);
  const gc = (globalThis as { gc?: () => void }).gc;
  // Five tables kept at once and measured together: one table's few megabytes are within the heap's own
  // noise.
  gc?.();
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const kept: Matcher[] = [];
  for (let t = 0; t < 5; t++) kept.push(compile(table(count)));
  gc?.();
  gc?.();
  const bytes = (process.memoryUsage().heapUsed - before) / kept.length;
  if (kept.some((m) => m.routes.length !== count * 7)) throw new Error('table lost routes');
  return {
    first,
    ms: times.sort((a, b) => a - b)[2]!,
    bytesPerRoute: gc === undefined ? NaN : bytes / (count * 7),
  };
}
