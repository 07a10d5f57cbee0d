import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { hidden, need, type Need } from './needs.js';

/**
 * A private, throwaway PostgreSQL cluster for tests and the bench:
 * its own folder and port, trust auth, no fsync, stopped and removed at the end. Nothing here
 * touches a system cluster.
 */
export interface Postgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  /** The postmaster's pid, whose children are the backends (the bench counts their CPU). */
  readonly pid: number;
  /** A URL to a new, empty database of its own in this cluster. */
  database(name: string): Promise<string>;
  /** Stops the server at once, as a crash would (`pg_ctl stop -m immediate`), keeping its data and port. */
  halt(): void;
  /** Starts a halted server again, on the same port. */
  resume(): void;
  /**
   * Freezes the server and every backend (SIGSTOP): connections open but nothing answers. Returns the thaw
   * (SIGCONT), which the cluster's own stop also does, so a test that fails frozen leaves nothing stuck.
   */
  freeze(): () => void;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** Where the server binaries are: `PG_BIN`, the newest Debian `/usr/lib/postgresql/N/bin`, or the PATH. */
function binaries(): string | undefined {
  const candidates = [process.env.PG_BIN];
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  const found = candidates.find((dir) => dir !== undefined && existsSync(join(dir, 'initdb')));
  if (found !== undefined) return found;
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  return onPath === '' ? undefined : join(onPath, '..');
}

/** A port nobody listens on right now (the server binds it a moment later; a clash is retried). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a server binary, as the `postgres` user when we are root (PostgreSQL refuses to run as root). */
function run(bin: string, command: string, args: string[]): { ok: boolean; output: string } {
  const asRoot = process.getuid?.() === 0;
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { encoding: 'utf8' })
    : spawnSync(join(bin, command), args, { encoding: 'utf8' });
  return {
    ok: result.status === 0,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ?? ''}`,
  };
}

/** Why no cluster can start here, saying what to install, or `undefined` when one can. */
export const postgresMissing: string | undefined =
  hidden('postgres') ??
  (binaries() === undefined
    ? 'postgres: no PostgreSQL server binaries (initdb) were found: install them with `apt-get install postgresql`, or set PG_BIN'
    : undefined);

/** The tests of `what` on a PostgreSQL server, skipped without one (see needs.ts). */
export const needPostgres = (what: string): Need => need(what, [postgresMissing]);

/** Starts a throwaway cluster, which `needPostgres()` has found the binaries of. */
export async function startPostgres(): Promise<Postgres> {
  const bin = binaries();
  if (postgresMissing !== undefined || bin === undefined) throw new Error(postgresMissing);
  const dir = mkdtempSync(join(tmpdir(), 'sevenfold-pg-'));
  if (process.getuid?.() === 0) {
    const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const uid = Number(owner.stdout.trim());
    if (owner.status !== 0 || !Number.isInteger(uid)) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error('running as root, PostgreSQL needs the `postgres` user, which this machine lacks');
    }
    chownSync(dir, uid, uid);
  }
  const data = join(dir, 'data');
  let frozen: number[] = [];
  const thaw = (): void => {
    // Backends first, the postmaster last, the reverse of the freeze.
    for (const pid of frozen.reverse()) signal(pid, 'SIGCONT');
    frozen = [];
  };
  const stopNow = (): void => {
    thaw();
    if (existsSync(join(data, 'postmaster.pid')))
      run(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  };
  // A test that throws or a process that exits early must not leave a server behind.
  process.once('exit', stopNow);

  const init = run(bin, 'initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  if (!init.ok) {
    stopNow();
    throw new Error(`initdb failed: ${init.output}`);
  }
  let port = 0;
  let started = { ok: false, output: '' };
  const startServer = () => {
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    return run(bin, 'pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-o', options, 'start']);
  };
  for (let attempt = 0; attempt < 3 && !started.ok; attempt++) {
    port = await freePort();
    started = startServer();
  }
  if (!started.ok) {
    const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
    stopNow();
    throw new Error(`pg_ctl start failed: ${started.output}\n${log}`);
  }
  const postmaster = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pid = postmaster();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    pid,
    halt() {
      thaw();
      // The cluster runs with synchronous_commit off for speed, so a crash could lose the last commits (a test's
      // migration): they are written out first, and the crash loses only connections.
      const written = run(bin, 'psql', [url, '-qAtc', 'CHECKPOINT']);
      if (!written.ok) throw new Error(`CHECKPOINT before halting failed: ${written.output}`);
      const stopped = run(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      if (!stopped.ok) throw new Error(`pg_ctl stop failed: ${stopped.output}`);
    },
    resume() {
      const again = startServer();
      if (!again.ok) throw new Error(`pg_ctl start failed: ${again.output}`);
    },
    freeze() {
      const main = postmaster();
      signal(main, 'SIGSTOP');
      frozen.push(main);
      const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(main)], { encoding: 'utf8' }).stdout;
      for (const child of children
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map(Number)) {
        signal(child, 'SIGSTOP');
        frozen.push(child);
      }
      return thaw;
    },
    async database(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const client = new pg.Client(url);
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      process.off('exit', stopNow);
      thaw();
      if (run(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).ok)
        rmSync(dir, { recursive: true, force: true });
      else stopNow();
    },
  };
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // A backend that ended meanwhile has nothing to freeze or thaw.
  }
}

let shared: Promise<Postgres> | undefined;

/**
 * One cluster for every test file of this process (uvu runs them all in one), started on first use and
 * stopped when the process exits: each test asks it for databases of its own, and none stops it.
 */
export function sharedPostgres(): Promise<Postgres> {
  return (shared ??= startPostgres());
}
