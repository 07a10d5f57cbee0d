// WORKERS=N: a primary that forks, replaces and drains node:cluster workers.
import cluster, { type Worker } from 'node:cluster';

/** What a worker tells the primary once it listens. */
export interface Listening {
  readonly listening: string;
}

// Workers that die this soon after starting, this many times in a row, mean the app cannot start: stop
// instead of looping.
const QUICK_EXIT_MS = 5_000;
const QUICK_EXITS_MAX = 5;

/**
 * The primary of `WORKERS` processes on one port (node:cluster): starts them, prints the one
 * `listening on` line once every worker listens, replaces a worker that dies, and on SIGTERM or
 * SIGINT passes SIGTERM on, waits for every worker to drain and exits 0 (a second signal cuts
 * the connections still open). A worker that cannot start makes the primary exit 1.
 */
export function runPrimary(workers: number): void {
  const listening = new Set<Worker>();
  const started = new Map<Worker, number>();
  let announced = false;
  let stopping = false;
  let quickExits = 0;

  // The workers still running; one whose exit is being handled may still be listed.
  const running = (): Worker[] =>
    Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
  const fork = (): void => {
    started.set(cluster.fork(), Date.now());
  };

  cluster.on('message', (worker, message: Partial<Listening>) => {
    if (typeof message?.listening !== 'string') return;
    listening.add(worker);
    quickExits = 0;
    if (!announced && listening.size === workers) {
      announced = true;
      console.log(`listening on ${message.listening}`);
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker) ?? 0);
    const wasListening = listening.delete(worker);
    started.delete(worker);
    if (stopping) {
      if (running().length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    console.error(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
    if (!wasListening && lived < QUICK_EXIT_MS && ++quickExits >= (announced ? QUICK_EXITS_MAX : 1)) {
      console.error('workers exit as soon as they start: stopping (the message above says why)');
      stopping = true;
      process.exitCode = 1;
      for (const other of running()) other.process.kill('SIGTERM');
      if (running().length === 0) process.exit(1);
      return;
    }
    fork();
  });

  const stop = (): void => {
    // A second signal is passed on too: each worker then cuts the connections it still has.
    stopping = true;
    for (const worker of running()) worker.process.kill('SIGTERM');
    if (running().length === 0) process.exit(process.exitCode ?? 0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  for (let i = 0; i < workers; i++) fork();
}
