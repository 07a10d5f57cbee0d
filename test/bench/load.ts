import autocannon from 'autocannon';
import type { WORKLOAD } from './workload.js';

// What the HTTP parts of the bench share (run.ts's node servers, runtimes.ts's Bun and Deno ones): the
// check before timing, one timed round under autocannon, and the order and summary of rounds.

export type Item = (typeof WORKLOAD)[number];

/** A server under load: where it listens, and the CPU time its process has used so far, in µs. */
export interface LoadTarget {
  readonly name: string;
  readonly url: string;
  cpu(): Promise<number>;
}

export interface Sample {
  readonly rps: number;
  readonly cpuPerRequest: number;
  readonly p99: number;
}

/** Every workload request answered with exactly the expected status and body, or the run stops. */
export async function verify(server: LoadTarget, requests: readonly Item[]): Promise<void> {
  for (const item of requests) {
    const res = await fetch(server.url + item.path, {
      method: item.method,
      headers: 'headers' in item ? item.headers : {},
      body: 'payload' in item ? item.payload : undefined,
    });
    const body = await res.text();
    if (res.status !== item.status || body !== item.body) {
      throw new Error(
        `${server.name} answered ${item.method} ${item.path} with ${res.status} ${body}; expected ${item.status} ${item.body}`,
      );
    }
  }
}

/** One timed round: `requests` in turn on `connections` connections for `seconds`, every answer checked. */
export async function load(
  server: LoadTarget,
  requests: readonly Item[],
  seconds: number,
  connections: number,
): Promise<Sample> {
  let wrong = 0;
  const mix = requests.map((item) => ({
    method: item.method,
    path: item.path,
    headers: 'headers' in item ? { ...item.headers } : undefined,
    body: 'payload' in item ? item.payload : undefined,
    onResponse: (status: number, body: string) => {
      if (status !== item.status || (body ?? '') !== item.body) wrong++;
    },
  }));
  const before = await server.cpu();
  const result = await autocannon({
    url: server.url,
    connections,
    duration: seconds,
    requests: mix as never,
  });
  const used = (await server.cpu()) - before;
  const answered = result.requests.total;
  if (wrong > 0 || result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(
      `${server.name}: ${wrong} wrong answers, ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`,
    );
  }
  return { rps: result.requests.average, cpuPerRequest: used / answered, p99: result.latency.p99 };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
export const fixed = (n: number, digits = 2) => n.toFixed(digits);

/**
 * The order of a round, from a Williams design: over as many rounds as there are items, each
 * item runs once in every place, and (for an even count; an odd one needs twice the rounds)
 * right after every other item exactly once. The control showed a few percent for place alone.
 */
export function order<T>(items: readonly T[], round: number): T[] {
  const n = items.length;
  // The first row is 0, 1, n-1, 2, n-2, …; each later row adds one to every entry, modulo n.
  const first = Array.from({ length: n }, (_, i) => (i % 2 === 1 ? (i + 1) / 2 : (n - i / 2) % n));
  const row = first.map((k) => items[(k + round) % n]!);
  // An odd count is balanced by the rows and their mirror images, alternating.
  return n % 2 === 1 && Math.floor(round / n) % 2 === 1 ? row.reverse() : row;
}

/**
 * The HTTP table: each variant's req/s and server CPU per request, medians and spreads over the
 * rounds, and ratios to `base` taken round by round (noise between rounds cancels), then the median.
 */
export function httpTable(samples: ReadonlyMap<string, Sample[]>, base: string): string[] {
  const raw = samples.get(base);
  const lines = [
    `| variant | req/s (median) | req/s spread | req/s vs ${base} | server CPU µs/req (median) | CPU spread | CPU vs ${base} | p99 ms |`,
    `|---|---|---|---|---|---|---|---|`,
  ];
  for (const [name, s] of samples) {
    const rps = s.map((x) => x.rps);
    const cpuUs = s.map((x) => x.cpuPerRequest);
    const rpsRatio = raw ? median(s.map((x, i) => x.rps / raw[i]!.rps)) : NaN;
    const cpuRatio = raw ? median(s.map((x, i) => x.cpuPerRequest / raw[i]!.cpuPerRequest)) : NaN;
    lines.push(
      `| ${name} | ${Math.round(median(rps))} | ${Math.round(Math.min(...rps))}–${Math.round(Math.max(...rps))} | ${fixed(rpsRatio)}× | ${fixed(median(cpuUs), 1)} | ${fixed(Math.min(...cpuUs), 1)}–${fixed(Math.max(...cpuUs), 1)} | ${fixed(cpuRatio)}× | ${median(s.map((x) => x.p99))} |`,
    );
  }
  return lines;
}
