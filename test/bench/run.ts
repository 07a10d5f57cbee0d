import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpus } from 'node:os';
import { VARIANTS, WORKLOAD } from './apps.js';
import { exampleFigures } from './example.js';
import {
  fixed,
  httpTable,
  load as loadRound,
  median,
  order,
  verify as verifyAll,
  type Sample,
} from './load.js';
import { MATCHERS, tableResources, type buildFigures, type Spread } from './matching.js';
import { noCodegenFigures } from './no-codegen.js';
import { runtimesFigures } from './runtimes.js';
import { serializeFigures } from './serialize.js';
import { startupFigures } from './startup.js';
import { liveFigures } from './live.js';
import { builtAt } from './before.js';
import { validatorFigures } from './validators.js';
import { typesFigures } from './type-check.js';

// Figures are ratios to the raw dispatcher measured in the same interleaved rounds: on a
// shared 2-core machine absolute numbers move 10-20% from run to run, ratios much less.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ONLY = process.env.BENCH_ONLY?.split(',');
const NAMES = ONLY ?? [
  'raw',
  'sevenfold/node',
  'sevenfold/node+responses',
  'polka',
  'raw (control)',
  'sevenfold/polka',
  'fastify',
];
// At least six rounds, a whole number of passes over the variants: in each pass every variant runs once in
// every place (see `order`).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? NAMES.length * Math.ceil(6 / NAMES.length));
const unknown = NAMES.filter((name) => !(name in VARIANTS));
if (unknown.length > 0)
  throw new Error(
    `BENCH_ONLY names no variant ${unknown.join(', ')}; the variants are ${Object.keys(VARIANTS).join(', ')}`,
  );
// The validated-create comparison: each app with and without create's body schema, in the same rounds.
const VALIDATED = ['raw', 'sevenfold/node', 'sevenfold/node+schema', 'fastify', 'fastify+schema'];
// BENCH_BEFORE=<commit>: the library as it was there, beside it as it is, in the cross-cutting part's rounds.
const BEFORE = process.env.BENCH_BEFORE;
if (BEFORE !== undefined) process.env.BENCH_BEFORE_DIR = builtAt(BEFORE);
// What a request id, a log line and an ETag cost on every request, beside fastify with its logger on.
const CROSSCUTTING = [
  'raw',
  'sevenfold/node',
  ...(BEFORE === undefined ? [] : ['sevenfold/node@before']),
  'sevenfold/node+id+log+etag',
  ...(BEFORE === undefined ? [] : ['sevenfold/node+id+log+etag@before']),
  'fastify',
  'fastify+logger',
];
// BENCH_METHODS=GET (or POST,DELETE…) narrows the workload to those requests.
const METHODS = process.env.BENCH_METHODS?.split(',');
const REQUESTS = WORKLOAD.filter((item) => METHODS === undefined || METHODS.includes(item.method));

interface Server {
  readonly name: string;
  readonly child: ChildProcess;
  readonly url: string;
  cpu(): Promise<number>;
}

async function start(name: string): Promise<Server> {
  const child = fork(new URL('./server.js', import.meta.url), [name], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: process.env.BENCH_PROF === name ? ['--cpu-prof'] : [],
  });
  const [message] = (await once(child, 'message')) as [{ port: number }];
  const cpu = async (): Promise<number> => {
    child.send('cpu');
    const [answer] = (await once(child, 'message')) as [{ cpu: NodeJS.CpuUsage }];
    return answer.cpu.user + answer.cpu.system;
  };
  return { name, child, url: `http://127.0.0.1:${message.port}`, cpu };
}

const verify = (server: Server) => verifyAll(server, REQUESTS);
const load = (server: Server, seconds: number) => loadRound(server, REQUESTS, seconds, CONNECTIONS);

// The raw dispatcher again, in a process of its own: an A/A comparison that measures the run's own floor.
const CONTROL = 'raw (control)';
const floor = (figures: string) =>
  `${CONTROL} is the raw dispatcher again in a second process, so its ratios (${figures}) are how far two identical servers land apart in this run: differences of that size are noise.`;

async function http(): Promise<string> {
  const servers: Server[] = [];
  for (const name of NAMES) servers.push(await start(name));
  try {
    for (const server of servers) await verify(server);
    for (const server of servers) await load(server, 1); // warm-up: JIT, connection pools
    const samples = new Map<string, Sample[]>(NAMES.map((n) => [n, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const server of order(servers, round)) samples.get(server.name)!.push(await load(server, SECONDS));
      process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
    }
    const raw = samples.get('raw');
    const lines = httpTable(samples, 'raw');
    const control = samples.get(CONTROL);
    if (raw && control) {
      const cpuOff = median(control.map((x, i) => x.cpuPerRequest / raw[i]!.cpuPerRequest));
      const rpsOff = median(control.map((x, i) => x.rps / raw[i]!.rps));
      lines.push('', floor(`CPU ${fixed(cpuOff)}×, req/s ${fixed(rpsOff)}×`));
    }
    return lines.join('\n');
  } finally {
    for (const server of servers) {
      server.child.send('exit');
      await once(server.child, 'exit');
    }
  }
}

/** Each variant's own CPU per request, driven in its own process without sockets, in interleaved rounds. */
async function inProcess(
  names: readonly string[] = NAMES,
  methods = [...new Set(REQUESTS.map((item) => item.method))].join(','),
): Promise<string> {
  const children = new Map<string, ChildProcess>();
  for (const name of names) {
    const child = fork(new URL('./inprocess-server.js', import.meta.url), [name, methods], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [],
    });
    const [message] = (await once(child, 'message')) as [{ ready?: boolean; error?: string }];
    if (message.error !== undefined) throw new Error(message.error);
    children.set(name, child);
  }
  const round = async (name: string): Promise<number> => {
    const child = children.get(name)!;
    child.send('round');
    const [message] = (await once(child, 'message')) as [{ cpu?: number; error?: string }];
    if (message.error !== undefined) throw new Error(message.error);
    return message.cpu!;
  };
  try {
    for (const name of names) await round(name); // warm-up
    const samples = new Map<string, number[]>(names.map((n) => [n, []]));
    const rounds = Number(process.env.BENCH_ROUNDS ?? names.length * Math.ceil(6 / names.length));
    for (let r = 0; r < rounds; r++) {
      for (const name of order(names, r)) samples.get(name)!.push(await round(name));
    }
    const raw = samples.get('raw');
    const lines = ['| variant | CPU µs/req (median) | spread | vs raw |', '|---|---|---|---|'];
    for (const [name, s] of samples) {
      const ratio = raw ? median(s.map((x, i) => x / raw[i]!)) : NaN;
      lines.push(
        `| ${name} | ${fixed(median(s))} | ${fixed(Math.min(...s))}–${fixed(Math.max(...s))} | ${fixed(ratio)}× |`,
      );
    }
    const control = samples.get(CONTROL);
    if (raw && control) lines.push('', floor(`${fixed(median(control.map((x, i) => x / raw[i]!)))}×`));
    return lines.join('\n');
  } finally {
    for (const child of children.values()) {
      child.send('exit');
      await once(child, 'exit');
    }
  }
}

/**
 * A matching child process for `args`, once it has checked its answers and warmed up (or measured, for a
 * build).
 */
async function matchingChild(
  args: string[],
): Promise<{ child: ChildProcess; message: { build?: ReturnType<typeof buildFigures> } }> {
  const child = fork(new URL('./matching-server.js', import.meta.url), args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: ['--expose-gc'],
  });
  const [message] = (await once(child, 'message')) as [
    { build?: ReturnType<typeof buildFigures>; error?: string },
  ];
  if (message.error !== undefined) throw new Error(message.error);
  return { child, message };
}

/**
 * One table of the matching benchmark: how many resources, how requests spread over them, and whether they go
 * to those requests' resources alone (see `lookupTrial`).
 */
interface TableSpec {
  readonly key: string;
  readonly label: string;
  readonly count: number;
  readonly spread: Spread;
  readonly alone?: boolean;
}

/**
 * Lookups per second of each matcher on each of `tables`, every pair in a process of its own,
 * all in one set of interleaved trials: tables compared with each other are measured side by
 * side, as the HTTP variants are. Samples by table key, then matcher.
 */
async function lookups(tables: readonly TableSpec[]): Promise<Map<string, Map<string, number[]>>> {
  const names = Object.keys(MATCHERS);
  const pairs = tables.flatMap((t) => names.map((name) => ({ table: t, name })));
  const children = new Map<(typeof pairs)[number], ChildProcess>();
  try {
    for (const pair of pairs) {
      const { count, spread, alone } = pair.table;
      children.set(
        pair,
        (
          await matchingChild([
            pair.name,
            String(count),
            String(spread),
            ...(alone === true ? ['alone'] : []),
          ])
        ).child,
      );
    }
    const samples = new Map(tables.map((t) => [t.key, new Map<string, number[]>(names.map((n) => [n, []]))]));
    for (let r = 0; r < 6; r++) {
      for (const pair of order(pairs, r)) {
        const child = children.get(pair)!;
        child.send('trial');
        const [message] = (await once(child, 'message')) as [{ rate: number }];
        samples.get(pair.table.key)!.get(pair.name)!.push(message.rate);
      }
    }
    return samples;
  } finally {
    for (const child of children.values()) {
      child.send('exit');
      await once(child, 'exit');
    }
  }
}

async function matching(): Promise<string> {
  const names = Object.keys(MATCHERS);
  const others = names.slice(1);
  const lines = [
    `| table | routes | ${names.map((n) => `${n} lookups/s`).join(' | ')} | ${others.map((n) => `sevenfold vs ${n}`).join(' | ')} |`,
    `|---|---|${names.map(() => '---|').join('')}${others.map(() => '---|').join('')}`,
  ];
  const tables: TableSpec[] = [
    { key: 'posts', label: 'posts', count: 1, spread: 64 },
    { key: 'eight', label: '8 resources × 7', count: 8, spread: 64 },
    { key: 'hundred', label: '100 resources × 7', count: 100, spread: 64 },
    { key: 'spread', label: '1 000 resources × 7', count: 1000, spread: 64 },
    // The requests of the row above, to a table of only the 64 resources they name: what the other 936 cost.
    { key: 'alone', label: 'the 64 of them alone', count: 1000, spread: 64, alone: true },
    { key: 'one', label: '1 000 resources × 7, every request on one', count: 1000, spread: 1 },
    // What a harness that looks every route up in turn measures.
    { key: 'inTurn', label: '1 000 resources × 7, every route in turn', count: 1000, spread: 'all' },
    // The harshest traffic: no resource is requested more than another, and the order never repeats.
    { key: 'postsRandom', label: 'posts, random order', count: 1, spread: 'random' },
    { key: 'random', label: '1 000 resources × 7, random over all', count: 1000, spread: 'random' },
  ];
  // Tables whose figures are divided by each other below are measured in one set of trials.
  const together = [
    ['posts', 'spread', 'alone', 'one', 'inTurn'],
    ['eight'],
    ['hundred'],
    ['postsRandom', 'random'],
  ];
  const samples = new Map<string, Map<string, number[]>>();
  for (const keys of together) {
    for (const [key, bySample] of await lookups(tables.filter((t) => keys.includes(t.key))))
      samples.set(key, bySample);
  }
  for (const { key, label, count, spread, alone } of tables) {
    const of = samples.get(key)!;
    const sf = of.get('sevenfold')!;
    // Ratios are taken trial by trial, as the HTTP ones are round by round.
    const ratios = others.map((n) => `${fixed(median(sf.map((x, i) => x / of.get(n)![i]!)))}×`);
    const routes = (tableResources(count, spread, alone === true)?.length ?? count) * 7;
    lines.push(
      `| ${label} | ${routes} | ${names.map((n) => `${(median(of.get(n)!) / 1e6).toFixed(2)} M`).join(' | ')} | ${ratios.join(' | ')} |`,
    );
  }
  // Trial by trial too: a table's trial against the trial of the same round on the table it is compared with.
  const against = (n: string, base: string, other: string): string => {
    const [a, b] = [samples.get(base)!.get(n)!, samples.get(other)!.get(n)!];
    return fixed(median(a.map((x, i) => x / b[i]!)));
  };
  lines.push(
    '',
    "What the table's size costs: the same requests to 1 000 resources and to a table of just the resources they name (flat is 1.00×), every request on one (against posts alone) and spread over 64 (against those 64 alone):",
    '',
    ...names.map(
      (n) =>
        `- ${n}: ${against(n, 'posts', 'one')}× on one, ${against(n, 'alone', 'spread')}× spread over 64`,
    ),
    '',
    'What spreading the requests costs on top, with 1 000 resources against posts alone: spread over 64 resources, every route in turn, and random over every route (against posts in random order):',
    '',
    ...names.map(
      (n) =>
        `- ${n}: ${against(n, 'posts', 'spread')}× spread, ${against(n, 'posts', 'inTurn')}× every route in turn, ${against(n, 'postsRandom', 'random')}× random`,
    ),
  );
  const builds: Array<ReturnType<typeof buildFigures>> = [];
  for (let i = 0; i < 3; i++) builds.push((await matchingChild(['build', '1000'])).message.build!);
  const firsts = builds.map((b) => b.first);
  lines.push(
    '',
    `Declaring and compiling 1 000 resources (7 000 routes), in three fresh processes: ${fixed(median(firsts), 1)} ms the first time, as at an app's start (${firsts.map((ms) => fixed(ms, 1)).join(', ')}), ${fixed(median(builds.map((b) => b.ms)), 1)} ms once warm (the median of five more); heap kept per route: ${Math.round(median(builds.map((b) => b.bytesPerRoute)))} bytes.`,
  );
  return lines.join('\n');
}

const started = Date.now();
// BENCH_PARTS=live,http runs just the parts it names (each part's variable less `BENCH_`, in lower case).
const PARTS = process.env.BENCH_PARTS?.toLowerCase().split(',');
const wanted = (part: string) =>
  PARTS === undefined ? process.env[part] !== '0' : PARTS.includes(part.slice('BENCH_'.length).toLowerCase());
const header = `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString().slice(0, 10)}; ${ROUNDS} interleaved rounds of ${SECONDS} s, ${CONNECTIONS} connections, autocannon in the parent process.`;
// BENCH_HTTP=0, BENCH_INPROCESS=0, BENCH_VALIDATION=0, BENCH_CROSSCUTTING=0, BENCH_VALIDATORS=0,
// BENCH_SERIALIZE=0, BENCH_MATCHING=0, BENCH_RUNTIMES=0, BENCH_NOCODEGEN=0, BENCH_STARTUP=0, BENCH_EXAMPLE=0, BENCH_TYPES=0 and
// BENCH_LIVE=0 each leave out one part.
if (wanted('BENCH_HTTP'))
  console.log(
    `## HTTP: the posts workload (${REQUESTS.map((w) => `${w.method} ${w.path}`).join(', ')})\n\n${header}\n\n${await http()}\n`,
  );
if (wanted('BENCH_INPROCESS'))
  console.log(`## In process: each variant's own work per request, no sockets\n\n${await inProcess()}\n`);
if (wanted('BENCH_VALIDATION'))
  console.log(
    `## Validated create: POST /posts with a JSON Schema body, the same schema on sevenfold and fastify\n\n${await inProcess(VALIDATED, 'POST')}\n`,
  );
if (wanted('BENCH_CROSSCUTTING'))
  console.log(
    `## Around every request: an id, a log line to a file and an ETag (sevenfold), fastify's logger to a file${BEFORE === undefined ? '' : `; the library at ${BEFORE} beside it as it is`}\n\n${await inProcess(CROSSCUTTING)}\n`,
  );
if (wanted('BENCH_VALIDATORS'))
  console.log(`## JSON Schema validators on the posts body (ns per check)\n\n${validatorFigures()}\n`);
if (wanted('BENCH_SERIALIZE'))
  console.log(
    `## Response serializers on the posts answers, in process (ns per call)\n\n${await serializeFigures()}\n`,
  );
if (wanted('BENCH_MATCHING')) console.log(`## Route matching and building\n\n${await matching()}\n`);
if (wanted('BENCH_RUNTIMES'))
  console.log(
    `## Runtimes: toFetch on Bun and Deno, and in process on Node, against Hono and Elysia (the posts workload)\n\n${await runtimesFigures(
      {
        requests: REQUESTS,
        seconds: SECONDS,
        connections: CONNECTIONS,
        rounds: process.env.BENCH_ROUNDS === undefined ? undefined : ROUNDS,
        profile: process.env.BENCH_PROF,
      },
    )}\n`,
  );
if (wanted('BENCH_NOCODEGEN'))
  console.log(
    `## No code generation (as on workerd): precompiled validators and the general walk, in process on Node\n\n${await noCodegenFigures(ROUNDS)}\n`,
  );
if (wanted('BENCH_STARTUP'))
  console.log(
    `## examples/posts starting\n\n${await startupFigures(Number(process.env.BENCH_ROUNDS ?? 5))}\n`,
  );
if (wanted('BENCH_EXAMPLE'))
  console.log(
    `## examples/posts on its stores (GET /posts/seed-42, GET /posts?limit=10, POST /posts, GET /posts/seed-42/edit, PUT /posts/seed-7)\n\n${await exampleFigures()}\n`,
  );
if (wanted('BENCH_TYPES'))
  console.log(
    `## Type-checking a large table: sevenfold against Hono's hc\n\n${typesFigures(Number(process.env.BENCH_ROUNDS ?? 5))}\n`,
  );
if (wanted('BENCH_LIVE'))
  console.log(
    `## Event streams: idle streams' memory and one event to many watchers, against node:http by hand and fastify\n\n${await liveFigures(
      {
        streams:
          process.env.BENCH_LIVE_STREAMS === undefined ? undefined : Number(process.env.BENCH_LIVE_STREAMS),
        watchers:
          process.env.BENCH_LIVE_WATCHERS === undefined ? undefined : Number(process.env.BENCH_LIVE_WATCHERS),
        memoryRounds: process.env.BENCH_ROUNDS === undefined ? undefined : Number(process.env.BENCH_ROUNDS),
        latencyRounds: process.env.BENCH_ROUNDS === undefined ? undefined : Number(process.env.BENCH_ROUNDS),
      },
    )}\n`,
  );
console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);
