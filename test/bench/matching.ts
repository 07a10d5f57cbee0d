import FindMyWay from 'find-my-way';
import { compile, resource, routes, type Matcher, type RouteTable } from '../../core/index.js';

const ok = () => null;
const seven = { index: ok, show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };

/** `count` resources of seven routes each: r0, r1, … (posts alone when count is 1). */
export function table(count: number): RouteTable {
  return routes(...Array.from({ length: count }, (_, i) => resource(count === 1 ? 'posts' : `r${i}s`, seven)));
}

/** Requests of every shape, spread over up to `spread` of the resources, as [method, path] pairs. */
function requests(count: number, spread: number): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i < 64; i++) {
    const name = count === 1 ? 'posts' : `r${((i % spread) * 7919) % count}s`;
    const id = String(1000 + i);
    out.push(
      ['GET', `/${name}`],
      ['GET', `/${name}/${id}`],
      ['GET', `/${name}/${id}/edit`],
      ['GET', `/${name}/${id}/new`],
      ['POST', `/${name}`],
      ['PUT', `/${name}/${id}`],
      ['DELETE', `/${name}/${id}`],
    );
  }
  return out;
}

/** Lookups per second of `find` over the requests, the median of a few timed trials. */
function rate(find: (method: string, path: string) => unknown, list: Array<[string, string]>, iterations: number): number {
  const trials: number[] = [];
  const methods = list.map(([method]) => method);
  const paths = list.map(([, path]) => path);
  const n = list.length;
  let sink = 0;
  for (let t = 0; t < 7; t++) {
    const start = process.hrtime.bigint();
    // Parallel arrays and a wrapping index keep the loop's own cost small next to a lookup.
    for (let i = 0, j = 0; i < iterations; i++, j = j + 1 === n ? 0 : j + 1) {
      if (find(methods[j]!, paths[j]!) !== undefined) sink++;
    }
    trials.push(iterations / (Number(process.hrtime.bigint() - start) / 1e9));
  }
  if (sink === 0) throw new Error('nothing matched');
  return trials.sort((a, b) => a - b)[3]!;
}

export interface MatchFigures {
  readonly routes: number;
  readonly sevenfold: number;
  readonly findMyWay: number;
}

/**
 * sevenfold's matcher against find-my-way on the same table and requests, which go to 64
 * resources (`spread` fewer, to see what comes from the table's size and what from the data).
 */
export function matchFigures(count: number, spread = 64, iterations = 2_000_000): MatchFigures {
  const t = table(count);
  const matcher = compile(t);
  const router = FindMyWay();
  for (const route of t) router.on(route.method as 'GET', route.path, ok);
  const list = requests(count, spread);
  for (const [method, path] of list) {
    const m = matcher.match(method, path);
    if (m.kind !== 'found') throw new Error(`sevenfold missed ${method} ${path}`);
    if (router.find(method as 'GET', path) === null) throw new Error(`find-my-way missed ${method} ${path}`);
  }
  rate((m, p) => matcher.match(m, p), list, iterations / 4); // warm up both before timing
  rate((m, p) => router.find(m as 'GET', p) ?? undefined, list, iterations / 4);
  return {
    routes: t.length,
    sevenfold: rate((m, p) => matcher.match(m, p), list, iterations),
    findMyWay: rate((m, p) => router.find(m as 'GET', p) ?? undefined, list, iterations),
  };
}

/** Milliseconds to declare and compile `count` resources, and heap bytes per route kept. */
export function buildFigures(count = 1000): { ms: number; bytesPerRoute: number } {
  const times: number[] = [];
  for (let t = 0; t < 5; t++) {
    const start = process.hrtime.bigint();
    compile(table(count));
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  // Five tables kept at once and measured together: one table's few megabytes are within the heap's own noise.
  gc?.();
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const kept: Matcher[] = [];
  for (let t = 0; t < 5; t++) kept.push(compile(table(count)));
  gc?.();
  gc?.();
  const bytes = (process.memoryUsage().heapUsed - before) / kept.length;
  if (kept.some((m) => m.routes.length !== count * 7)) throw new Error('table lost routes');
  return { ms: times.sort((a, b) => a - b)[2]!, bytesPerRoute: gc === undefined ? NaN : bytes / (count * 7) };
}
