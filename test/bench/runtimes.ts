import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/paths.js';
import { findRuntime, RUNTIMES_DIR, type Runtime, type RuntimeName } from '../support/runtimes.js';
import {
  fixed,
  httpTable,
  load,
  median,
  order,
  verify,
  type Item,
  type LoadTarget,
  type Sample,
} from './load.js';

/**
 * toFetch where it is meant to run, against what people run there: on Bun (`Bun.serve`) a fetch
 * dispatcher written by hand, sevenfold's toFetch, Hono and Elysia; on Deno (`Deno.serve`) the same
 * without Elysia; and in process on Node, each handler called with `new Request(…)`. The servers are
 * test/runtimes/bench-serve.js, one variant per process, loaded by autocannon from this Node process in
 * interleaved rounds, as the HTTP part's node servers are. A Bun or Deno process cannot answer
 * `process.cpuUsage()` over IPC, so its CPU time is read from /proc/<pid>/stat (utime + stime of all
 * its threads) before and after each round.
 */

export interface RuntimesSettings {
  readonly requests: readonly Item[];
  readonly seconds: number;
  readonly connections: number;
  /** Rounds, or a whole number of passes over the variants, at least six (see `order`). */
  readonly rounds: number | undefined;
  /** A variant's label whose in-process Node child runs with `--cpu-prof` (BENCH_PROF). */
  readonly profile: string | undefined;
}

/** The variants of test/runtimes/bench-apps.js each runtime serves, by label. */
const SERVED: Record<'bun' | 'deno' | 'workerd', Record<string, string>> = {
  bun: {
    'raw Bun.serve': 'raw',
    // What refusing a repeated Host costs by itself: the check every conforming server makes (RFC 9112 §3.2).
    'raw + Host check': 'rawHost',
    'sevenfold toFetch': 'sevenfold',
    hono: 'hono',
    'elysia (.listen)': 'elysia',
  },
  deno: {
    'raw Deno.serve': 'raw',
    'raw + Host check': 'rawHost',
    'sevenfold toFetch': 'sevenfold',
    hono: 'hono',
  },
  workerd: { 'raw fetch': 'raw', 'sevenfold toFetch': 'sevenfold', hono: 'hono' },
};
const IN_PROCESS: Record<string, string> = {
  'raw fetch': 'raw',
  'sevenfold toFetch': 'sevenfold',
  hono: 'hono',
};
/** The packages a variant needs from test/runtimes/node_modules. */
const NEEDS: Record<string, string> = { hono: 'hono', elysia: 'elysia' };

const BENCH_APPS = join(ROOT, 'test', 'runtimes', 'bench-apps.js');
const BENCH_SERVE = join(ROOT, 'test', 'runtimes', 'bench-serve.js');
// workerd runs under Miniflare, started from Node; the script names workerd's pid for /proc.
const BENCH_SERVE_WORKERD = join(ROOT, 'test', 'runtimes', 'bench-serve-workerd.js');

/** A line that cannot be missed in the output: something was not measured, and why. */
function loud(what: string, why: string): string {
  const line = `**⚠ NOT MEASURED: ${what}: ${why}**`;
  process.stderr.write(`\n  ${line}\n\n`);
  return line;
}

/** The variants whose packages are installed; a loud line for each that is not. */
function available(variants: Record<string, string>, where: string, notes: string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [label, app] of Object.entries(variants)) {
    const needs = NEEDS[app];
    if (needs !== undefined && !existsSync(join(RUNTIMES_DIR, needs, 'package.json'))) {
      notes.push(loud(`${label} ${where}`, `${needs} is not in ${RUNTIMES_DIR}; run \`npm run runtimes\``));
    } else kept[label] = app;
  }
  return kept;
}

const rounds = (settings: RuntimesSettings, n: number) => settings.rounds ?? n * Math.ceil(6 / n);

/** Clock ticks per second, the unit of /proc/<pid>/stat's times. */
const TICKS = (() => {
  const run = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(run.stdout?.trim());
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
})();

/** The CPU time (user + system, all threads) process `pid` has used, in µs. */
function procCpu(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces; fields 14 and 15 are utime, stime.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS;
}

interface Served extends LoadTarget {
  readonly child: ChildProcess;
}

async function serve(runtime: Runtime, label: string, app: string): Promise<Served> {
  const [bin, args] =
    runtime.name === 'deno'
      ? [runtime.bin, ['run', '-A', '--node-modules-dir=manual', BENCH_SERVE, app]]
      : runtime.name === 'workerd'
        ? [process.execPath, [BENCH_SERVE_WORKERD, app]]
        : [runtime.bin, [BENCH_SERVE, app]];
  const child = spawn(bin, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let pid = child.pid!;
  let out = '';
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${label} on ${runtime.name} did not listen: ${out}`)),
      30_000,
    );
    child.on('exit', (code) => reject(new Error(`${label} on ${runtime.name} exited with ${code}: ${out}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const found = /listening on http:\/\/127\.0\.0\.1:(\d+)(?: pid (\d+))?/.exec(out);
      if (found) {
        clearTimeout(timer);
        if (found[2] !== undefined) pid = Number(found[2]);
        resolve(found[1]!);
      }
    });
  });
  return { name: label, child, url: `http://127.0.0.1:${port}`, cpu: async () => procCpu(pid) };
}

/** One runtime's table, or the loud line that says why there is none. */
async function served(name: 'bun' | 'deno' | 'workerd', settings: RuntimesSettings): Promise<string> {
  const notes: string[] = [];
  const runtime = findRuntime(name as RuntimeName);
  if (typeof runtime === 'string') return loud(`${name}`, runtime);
  if (!existsSync('/proc/self/stat'))
    return loud(name, 'no /proc here, so the server processes’ CPU time cannot be read');
  const variants = available(SERVED[name], `on ${name}`, notes);
  const labels = Object.keys(variants);
  const servers: Served[] = [];
  try {
    for (const label of labels) servers.push(await serve(runtime, label, variants[label]!));
    for (const server of servers) await verify(server, settings.requests);
    for (const server of servers) await load(server, settings.requests, 1, settings.connections); // warm-up
    const samples = new Map<string, Sample[]>(labels.map((n) => [n, []]));
    const count = rounds(settings, servers.length);
    for (let round = 0; round < count; round++) {
      for (const server of order(servers, round))
        samples
          .get(server.name)!
          .push(await load(server, settings.requests, settings.seconds, settings.connections));
      process.stderr.write(`${name}: round ${round + 1}/${count} done\n`);
    }
    const header = `${runtime.version.split('\n')[0]}; ${count} interleaved rounds of ${settings.seconds} s, ${settings.connections} connections, autocannon in the Node parent, server CPU from /proc/<pid>/stat (${TICKS} ticks/s).`;
    return [header, '', ...httpTable(samples, labels[0]!), ...(notes.length > 0 ? ['', ...notes] : [])].join(
      '\n',
    );
  } finally {
    for (const server of servers) {
      if (server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await once(server.child, 'exit');
      }
    }
  }
}

/** Each handler called in its own Node process with `new Request(…)`, CPU per request, interleaved rounds. */
async function inProcess(settings: RuntimesSettings): Promise<string> {
  const notes: string[] = [];
  const variants = available(IN_PROCESS, 'in process on Node', notes);
  const labels = Object.keys(variants);
  const methods = [...new Set(settings.requests.map((item) => item.method))].join(',');
  const children = new Map<string, ChildProcess>();
  const ask = async (child: ChildProcess, message: string) => {
    child.send(message);
    const [answer] = (await once(child, 'message')) as [{ cpu?: number; error?: string }];
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.cpu!;
  };
  try {
    for (const label of labels) {
      const child = fork(new URL('./runtimes-inprocess.js', import.meta.url), [variants[label]!, methods], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        execArgv: settings.profile === label ? ['--cpu-prof'] : [],
      });
      const [message] = (await once(child, 'message')) as [{ ready?: boolean; error?: string }];
      if (message.error !== undefined) throw new Error(message.error);
      children.set(label, child);
    }
    for (const child of children.values()) await ask(child, 'round'); // warm-up
    const samples = new Map<string, number[]>(labels.map((n) => [n, []]));
    const count = rounds(settings, labels.length);
    for (let r = 0; r < count; r++) {
      for (const label of order(labels, r))
        samples.get(label)!.push(await ask(children.get(label)!, 'round'));
    }
    const base = labels[0]!;
    const raw = samples.get(base)!;
    const lines = [
      `Node ${process.version}; ${count} interleaved rounds; each request a \`new Request(…)\` whose answer's body is read.`,
      '',
      `| variant | CPU µs/req (median) | spread | vs ${base} |`,
      '|---|---|---|---|',
    ];
    for (const [label, s] of samples) {
      lines.push(
        `| ${label} | ${fixed(median(s))} | ${fixed(Math.min(...s))}–${fixed(Math.max(...s))} | ${fixed(median(s.map((x, i) => x / raw[i]!)))}× |`,
      );
    }
    return [...lines, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
  } finally {
    for (const child of children.values()) {
      child.send('exit');
      await once(child, 'exit');
    }
  }
}

/** The runtimes part of `npm run bench`: Bun, Deno and in process on Node, each its own table. */
export async function runtimesFigures(settings: RuntimesSettings): Promise<string> {
  if (!existsSync(BENCH_APPS)) return loud('the runtimes part', `${BENCH_APPS} is missing`);
  return [
    `### Bun: \`Bun.serve\`\n\n${await served('bun', settings)}`,
    `### Deno: \`Deno.serve\`\n\n${await served('deno', settings)}`,
    `### workerd, under Miniflare (its entry worker included in the CPU time)\n\n${await served('workerd', settings)}`,
    `### In process on Node: \`handler(new Request(…))\`\n\n${await inProcess(settings)}`,
  ].join('\n\n');
}
