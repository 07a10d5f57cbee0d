import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './paths.js';

/** A spawned server that printed its `listening on` line. */
export interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** The compiled posts example, as `npm start` runs it after building. */
export const EXAMPLE = ['build/examples/posts/main.js'];

/**
 * Spawns a command (in the repository root unless `cwd`) and resolves once it prints its `listening on` line. `detached`
 * makes it the leader of a process group of its own, which `process.kill(-pid, signal)` signals whole, as a
 * supervisor does.
 */
export function start(
  command: string,
  args: string[],
  env: Record<string, string>,
  seconds = 30,
  { detached = false, cwd = ROOT } = {},
): Promise<Started> {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached,
  });
  // A detached group must not outlive a test that fails half-way.
  if (detached) {
    const killGroup = (): void => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    process.once('exit', killGroup);
    child.once('exit', () => process.off('exit', killGroup));
  }
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "listening on" line within ${seconds} s; stdout: ${out} stderr: ${err}`));
    }, seconds * 1000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const url = /^listening on (http:\/\/\S+)$/m.exec(out)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve({ child, url, stdout: () => out, stderr: () => err, exited });
      }
    });
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening; stderr: ${err}`));
    });
  });
}

/** Resolves once the started process has printed something that matches `pattern` on `stream`. */
export function printed(
  server: Started,
  pattern: RegExp,
  stream: 'stdout' | 'stderr' = 'stdout',
): Promise<void> {
  const read = stream === 'stdout' ? server.stdout : server.stderr;
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!pattern.test(read())) return;
      server.child[stream]!.off('data', check);
      resolve();
    };
    // Registered after the buffer's own listener, so each check sees the chunk that woke it.
    server.child[stream]!.on('data', check);
    void server.exited.then(() =>
      reject(new Error(`exited before printing ${pattern}; ${stream}: ${read()}`)),
    );
    check();
  });
}

/** Resolves once `url`'s port refuses a connection: the server stopped accepting (each try is answered). */
export async function refusing(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname);
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs the example expecting it to refuse to start: its exit code and what it printed on stderr. */
export async function refused(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn('node', EXAMPLE, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

/** Stops a started server with SIGTERM and waits for its exit. */
export async function stop(server: Started): Promise<[number | null, NodeJS.Signals | null]> {
  server.child.kill('SIGTERM');
  return server.exited;
}

/** A folder of its own for the example's embedded database, removed when the test process ends. */
export function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sevenfold-posts-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let created: Promise<string> | undefined;

/**
 * A folder of its own whose embedded database the example has already created (empty, migrated, unlocked):
 * a copy of the one its first start in this process made, which also checks that first start's output.
 */
export async function createdDataDir(): Promise<string> {
  created ??= (async () => {
    const dir = freshDataDir();
    const first = await start('node', EXAMPLE, { PORT: '0', DATA_DIR: dir }, 60);
    const [code, signal] = await stop(first);
    // What start.test checks of every start holds for this one too, the only one that creates a database.
    if (code !== 0 || first.stdout().trim().split('\n').length !== 1)
      throw new Error(`the example's first start printed ${first.stdout()}and exited with ${code ?? signal}`);
    return dir;
  })();
  const dir = freshDataDir();
  cpSync(await created, dir, { recursive: true });
  return dir;
}

/** The worker pids under a primary. */
export function workersOf(primary: Started): number[] {
  const out = spawnSync('ps', ['-o', 'pid=', '--ppid', String(primary.child.pid)], {
    encoding: 'utf8',
  }).stdout;
  return out
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(Number);
}
