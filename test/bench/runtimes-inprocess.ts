import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { ROOT } from '../support/paths.js';
import type { Item } from './load.js';
import { WORKLOAD } from './workload.js';
import { answerRounds } from './rounds.js';

// One fetch handler of test/runtimes/bench-apps.js driven in this process, for runtimes.ts: each
// request a `new Request(…)` handed to the handler, its answer's body read as a server would before
// writing it. One variant per process, as everywhere in the bench. Every answer must match its checked
// one in status and body length, verified after the clock stops.

type Handler = (request: Request) => Response | Promise<Response>;

const [app, methods] = process.argv.slice(2) as [string, string];
const requests = WORKLOAD.filter((item) => methods.split(',').includes(item.method));
const PER_ROUND = 50_000;

const { FETCH_APPS } = (await import(
  pathToFileURL(join(ROOT, 'test', 'runtimes', 'bench-apps.js')).href
)) as {
  FETCH_APPS: Record<string, () => Promise<{ fetch?: Handler }> | { fetch?: Handler }>;
};
const made = await FETCH_APPS[app]!();
if (made.fetch === undefined) throw new Error(`${app} has no fetch handler to call in process`);
const handler = made.fetch;

const request = (item: Item) =>
  new Request(`http://127.0.0.1${item.path}`, {
    method: item.method,
    headers: 'headers' in item ? item.headers : undefined,
    body: 'payload' in item ? item.payload : undefined,
  });

async function checked(): Promise<number[]> {
  const lengths: number[] = [];
  for (const item of requests) {
    const res = await handler(request(item));
    const body = await res.text();
    if (res.status !== item.status || body !== item.body)
      throw new Error(
        `${app} answered ${item.method} ${item.path} in process with ${res.status} ${body}; expected ${item.status} ${item.body}`,
      );
    lengths.push(body.length);
  }
  return lengths;
}

const expected = await checked();
const statuses = new Int32Array(PER_ROUND);
const lengths = new Int32Array(PER_ROUND);

async function round(): Promise<number> {
  const before = process.cpuUsage();
  for (let n = 0; n < PER_ROUND; n++) {
    const res = await handler(request(requests[n % requests.length]!));
    statuses[n] = res.status;
    lengths[n] = (await res.text()).length;
  }
  const used = process.cpuUsage(before);
  for (let n = 0; n < PER_ROUND; n++) {
    const item = requests[n % requests.length]!;
    if (statuses[n] !== item.status || lengths[n] !== expected[n % requests.length])
      throw new Error(
        `${app} answered ${item.method} ${item.path} in process with ${statuses[n]} and ${lengths[n]} characters; expected ${item.status} and ${expected[n % requests.length]}`,
      );
  }
  return (used.user + used.system) / PER_ROUND;
}

answerRounds(round);
