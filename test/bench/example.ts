import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from '../support/paths.js';
import { needPostgres, startPostgres } from '../support/postgres.js';

/**
 * examples/posts itself, on each of its stores, under the bench's request mix: what a real store
 * costs beside the in-memory one. Unlike the HTTP section's tiny app, every request here reads
 * or writes the database (a create inserts a new post each time).
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = 3;
// How long each store is under load in all before its memory is read again (the timed rounds included).
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const SEEDED = 100;
const JSON_HEADERS = { 'content-type': 'application/json' };

interface Variant {
  readonly name: string;
  readonly env: Record<string, string>;
}

export interface Running {
  readonly child: ChildProcess;
  readonly url: string;
}

/** The example started as `npm start` starts it (or by `command`), once it has printed `listening on`. */
export async function startExample(
  env: Record<string, string>,
  command: readonly string[] = ['node', 'build/examples/posts/main.js'],
): Promise<Running> {
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ADAPTER: 'polka', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  for await (const chunk of child.stdout!) {
    out += chunk;
    const url = /^listening on (\S+)$/m.exec(out)?.[1];
    if (url !== undefined) return { child, url };
  }
  throw new Error(`examples/posts exited before listening: ${out}`);
}

export async function stopExample(running: Running): Promise<void> {
  const exited = once(running.child, 'exit');
  running.child.kill('SIGTERM');
  await exited;
}

/** A process and its descendants (`npm start`'s node, a primary's workers). */
export function processTree(pid: number): number[] {
  return [pid, ...childrenOf(pid).flatMap(processTree)];
}

/** The peak (VmHWM) and resident (VmRSS) memory of processes, in MB, summed, read from /proc. */
export function treeMemory(pids: readonly number[]): { peakMb: number; rssMb: number } {
  let peak = 0;
  let rss = 0;
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      peak += Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
      rss += Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
    } catch {
      // A process that ended between the listing and the read holds nothing any more.
    }
  }
  return { peakMb: peak / 1024, rssMb: rss / 1024 };
}

/** CPU time (µs) used so far by a process and its children (the workers), read from /proc. */
function treeCpu(pid: number): number {
  const pids = [pid, ...childrenOf(pid)];
  let ticks = 0;
  for (const p of pids) {
    try {
      // Fields 14 and 15 of /proc/PID/stat, counted after the command name in parentheses.
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // A process that ended between the listing and the read has nothing more to count.
    }
  }
  return (ticks * 1e6) / 100;
}

function childrenOf(pid: number): number[] {
  const out = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout;
  return out
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(Number);
}

/** Posts `seed-0` … `seed-99`, so reads and updates find what they ask for. */
async function seed(url: string): Promise<void> {
  for (let i = 0; i < SEEDED; i++) {
    const res = await fetch(`${url}/posts`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ id: `seed-${i}`, title: `Seed ${i}`, body: 'x'.repeat(200) }),
    });
    if (res.status !== 201 && res.status !== 409) throw new Error(`seeding answered ${res.status}`);
  }
}

let serial = 0;

/** One timed round: requests per second, and the app's and the database server's CPU per request. */
async function round(
  running: Running,
  database: number | undefined,
  seconds = SECONDS,
): Promise<{ rps: number; app: number; db: number }> {
  const app = treeCpu(running.child.pid!);
  const db = database === undefined ? 0 : treeCpu(database);
  const result = await autocannon({
    url: running.url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      { method: 'GET', path: '/posts/seed-42' },
      { method: 'GET', path: '/posts?limit=10' },
      {
        method: 'POST',
        path: '/posts',
        headers: JSON_HEADERS,
        setupRequest: (request: object) => ({
          ...request,
          body: JSON.stringify({ id: `b${process.pid}-${++serial}`, title: 'Bench', body: 'y'.repeat(200) }),
        }),
      },
      { method: 'GET', path: '/posts/seed-42/edit' },
      {
        method: 'PUT',
        path: '/posts/seed-7',
        headers: JSON_HEADERS,
        body: JSON.stringify({ title: 'Updated' }),
      },
    ] as never,
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(
      `examples/posts: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`,
    );
  }
  const answered = result.requests.total;
  return {
    rps: answered / seconds,
    app: (treeCpu(running.child.pid!) - app) / answered,
    db: database === undefined ? 0 : (treeCpu(database) - db) / answered,
  };
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The section of `npm run bench` for examples/posts on its stores, as Markdown. */
export async function exampleFigures(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sevenfold-bench-'));
  const postgres = needPostgres('the PostgreSQL rows of the bench').ok ? await startPostgres() : undefined;
  try {
    const variants: Variant[] = [
      { name: 'memory (`DATA_DIR=memory`)', env: { DATA_DIR: 'memory' } },
      { name: 'PGlite (`DATA_DIR`)', env: { DATA_DIR: dataDir } },
    ];
    if (postgres !== undefined) {
      variants.push(
        { name: 'PostgreSQL, `WORKERS=1`', env: { DATABASE_URL: postgres.url, WORKERS: '1' } },
        { name: 'PostgreSQL, `WORKERS=2`', env: { DATABASE_URL: postgres.url, WORKERS: '2' } },
      );
    }
    const lines = [
      `${ROUNDS} rounds of ${SECONDS} s per store, ${CONNECTIONS} connections, the example started as \`npm start\` does (polka), ${SEEDED} posts seeded; CPU from /proc, the app's processes and the database server's; the app's resident memory (VmRSS, its workers summed) once started and after ${Math.max(LOAD_SECONDS, ROUNDS * SECONDS)} s of load.`,
      '',
      '| store | req/s (median) | app CPU µs/req | database server CPU µs/req | vs memory (req/s) | app RSS MB after start | after load |',
      '|---|---|---|---|---|---|---|',
    ];
    let memory = 0;
    for (const variant of variants) {
      const running = await startExample(variant.env);
      try {
        const started = treeMemory(processTree(running.child.pid!)).rssMb;
        await seed(running.url);
        const rounds = [];
        for (let i = 0; i < ROUNDS; i++) rounds.push(await round(running, postgres?.pid));
        const rest = LOAD_SECONDS - ROUNDS * SECONDS;
        if (rest > 0) await round(running, postgres?.pid, rest);
        const loaded = treeMemory(processTree(running.child.pid!)).rssMb;
        const rps = median(rounds.map((r) => r.rps));
        if (memory === 0) memory = rps;
        const db =
          postgres === undefined || !variant.env.DATABASE_URL
            ? '–'
            : median(rounds.map((r) => r.db)).toFixed(0);
        lines.push(
          `| ${variant.name} | ${Math.round(rps)} | ${median(rounds.map((r) => r.app)).toFixed(0)} | ${db} | ${(rps / memory).toFixed(2)}× | ${Math.round(started)} | ${Math.round(loaded)} |`,
        );
      } finally {
        await stopExample(running);
      }
    }
    if (postgres === undefined)
      lines.push('', 'PostgreSQL rows skipped: no PostgreSQL server binaries (apt-get install postgresql).');
    return lines.join('\n');
  } finally {
    await postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
