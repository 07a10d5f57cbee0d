// WORKERS=N: a primary that forks, replaces, restarts one at a time (SIGHUP) and drains node:cluster workers.
import cluster, { type Worker } from 'node:cluster';

/** What a worker tells the primary once it listens. */
export interface Listening {
  readonly listening: string;
}

/** What a draining worker asks once its server is closed, and the primary's answer. */
export interface Settle {
  readonly settle: true;
}
export interface Settled {
  readonly settled: true;
}

// Workers that die this soon after starting, this many times in a row, mean the app cannot start: stop
// instead of looping.
const QUICK_EXIT_MS = 5_000;
const QUICK_EXITS_MAX = 5;

// How a worker's exit code ranks when the primary reports the stop of all: a cut by a person's Ctrl-C (130)
// says most, then one by the drain deadline (124), then any other failure.
const severity = (code: number): number => (code === 130 ? 3 : code === 124 ? 2 : code === 0 ? 0 : 1);

/**
 * The primary of `WORKERS` processes on one port (node:cluster): starts them, prints the one
 * `listening on` line once every worker listens, and replaces a worker that dies. SIGHUP restarts
 * the workers one at a time: a new one is forked and listens before an old one drains, so no
 * connection is refused. SIGTERM and SIGINT are passed on to every worker as they come (each drains,
 * and cuts only on a person's second Ctrl-C, as `closeOnSignals` rules); the primary exits when they
 * all have, with the code that says most of theirs. A worker that cannot start makes it exit 1.
 */
export function runPrimary(workers: number): void {
  const listening = new Set<Worker>();
  const started = new Map<Worker, number>();
  // Workers a restart replaced and told to drain: their exit is expected, and nobody replaces them.
  const retiring = new Set<Worker>();
  // The new worker a restart waits for: if it dies before listening, the restart stops, the others serve on.
  let trial: Worker | undefined;
  let restarting = false;
  let announced = false;
  let stopping = false;
  let quickExits = 0;
  let exitCode = 0;

  // The workers still running; one whose exit is being handled may still be listed.
  const running = (): Worker[] =>
    Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
  const fork = (): Worker => {
    const worker = cluster.fork();
    started.set(worker, Date.now());
    return worker;
  };
  const exitWhenAllGone = (): void => {
    if (running().length === 0) process.exit(exitCode);
  };

  cluster.on('message', (worker, message: Partial<Listening & Settle>) => {
    // Answered after every message the worker sent before, its server's close included (one ordered channel).
    if (message?.settle === true) return void worker.send({ settled: true } satisfies Settled, () => {});
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
      // Ended by the signal itself, it had not installed its handlers yet, so it was serving nothing.
      const mine = signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : (code ?? 1);
      if (severity(mine) > severity(exitCode)) exitCode = mine;
      return exitWhenAllGone();
    }
    if (retiring.delete(worker) || worker === trial) return;
    console.error(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
    if (!wasListening && lived < QUICK_EXIT_MS && ++quickExits >= (announced ? QUICK_EXITS_MAX : 1)) {
      console.error('workers exit as soon as they start: stopping (the message above says why)');
      stopping = true;
      exitCode = 1;
      for (const other of running()) other.process.kill('SIGTERM');
      return exitWhenAllGone();
    }
    fork();
  });

  /** Replaces the listening workers one by one: the new one listens before the old one is told to drain. */
  const restart = async (): Promise<void> => {
    restarting = true;
    console.error(`SIGHUP: restarting ${listening.size} workers one at a time`);
    let replaced = 0;
    for (const old of [...listening]) {
      if (stopping) break;
      trial = fork();
      if (!(await listens(trial))) {
        console.error(
          `SIGHUP: the new worker ${trial.process.pid} exited before listening; the restart stops after ${replaced} of ${workers}, the others serve on`,
        );
        break;
      }
      trial = undefined;
      if (stopping) break;
      retiring.add(old);
      const gone = exited(old);
      old.process.kill('SIGTERM');
      await gone;
      replaced++;
    }
    trial = undefined;
    restarting = false;
    if (!stopping && replaced === workers) console.error(`SIGHUP: all ${workers} workers restarted`);
  };

  process.on('SIGHUP', () => {
    if (stopping) return;
    if (restarting) return void console.error('SIGHUP: a restart is under way already; ignored');
    void restart();
  });

  // Each signal is passed on as it comes, so every worker sees what the primary saw, copies and all.
  const stop = (signal: NodeJS.Signals): void => {
    stopping = true;
    for (const worker of running()) worker.process.kill(signal);
    exitWhenAllGone();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  for (let i = 0; i < workers; i++) fork();
}

/** Whether `worker` comes to listen (true) or exits first (false). */
function listens(worker: Worker): Promise<boolean> {
  return new Promise((resolve) => {
    const onMessage = (message: Partial<Listening>): void => {
      if (typeof message?.listening !== 'string') return;
      worker.off('exit', onExit);
      resolve(true);
    };
    const onExit = (): void => {
      worker.off('message', onMessage);
      resolve(false);
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}

function exited(worker: Worker): Promise<void> {
  return new Promise((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve())));
}
