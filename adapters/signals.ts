// closeOnSignals(): a process's graceful stop on SIGTERM/SIGINT (drain, then exit), so an app's start-up
// does not write its own.

/** What a `close()` may report: how many requests in flight it had to cut, at its deadline or when forced. */
export interface Closed {
  readonly cut: number;
}

/** What `closeOnSignals()` stops: a `Running` server, or anything whose `close()` drains and resolves. */
export interface Closable {
  close(): Promise<void | Closed>;
}

export interface CloseOnSignalsOptions {
  /** The signals that stop the process. Default `['SIGTERM', 'SIGINT']`. */
  readonly signals?: readonly NodeJS.Signals[];
  /**
   * What a person's second Ctrl-C does while `close()` still drains: cut what is left
   * (`Running.closeOnSignals()` cuts every connection and counts the requests it cut). Default: nothing more.
   */
  readonly force?: () => void;
}

/**
 * A SIGINT this soon after the first is a copy of it (the terminal signals the whole group, and npm passes its
 * own on), not a person's second Ctrl-C.
 */
export const REPEAT_WINDOW_MS = 1000;

/** The exit codes of a process stopped by `closeOnSignals()`. */
export const EXIT_CODES = Object.freeze({
  /** Every request in flight was answered. */
  drained: 0,
  /** `close()` rejected. */
  failed: 1,
  /** The drain deadline (`shutdownTimeout`) cut requests in flight, as `timeout(1)` reports a timeout. */
  deadline: 124,
  /** A second SIGINT cut requests in flight, as a shell reports a command stopped by Ctrl-C. */
  forced: 130,
});

/**
 * On the first of `signals`, calls `target.close()` and exits once it resolves: 0 when it drained, 124 when
 * its deadline cut requests (counted on stderr), 130 when a second SIGINT did, 1 (with the reason) when it
 * rejects. Copies of a signal (a supervisor signals the whole process group; npm and a cluster primary pass
 * theirs on) never cut: SIGTERM never does, and a SIGINT cuts (`force`) only when it comes more than
 * `REPEAT_WINDOW_MS` after the first SIGINT. Returns the unsubscribe, which removes the handlers.
 */
export function closeOnSignals(target: Closable, options: CloseOnSignalsOptions = {}): () => void {
  if (target === null || typeof target !== 'object' || typeof target.close !== 'function')
    throw new TypeError('closeOnSignals(target): target must have a close() method');
  const signals = [...(options.signals ?? ['SIGTERM', 'SIGINT'])];
  let closing = false;
  let forced = false;
  let firstInterrupt: number | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signal === 'SIGINT') {
      const now = Date.now();
      if (firstInterrupt === undefined) firstInterrupt = now;
      else if (closing && !forced && now - firstInterrupt > REPEAT_WINDOW_MS) {
        forced = true;
        options.force?.();
      }
    }
    if (closing) return;
    closing = true;
    target.close().then(
      (closed) => {
        const cut = closed?.cut ?? 0;
        if (cut === 0) process.exit(EXIT_CODES.drained);
        const by = forced ? 'by a second SIGINT' : 'at the drain deadline';
        console.error(`stopped: ${cut} request${cut === 1 ? '' : 's'} in flight cut ${by}`);
        process.exit(forced ? EXIT_CODES.forced : EXIT_CODES.deadline);
      },
      (error: unknown) => {
        console.error(
          `closing on a signal failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        process.exit(EXIT_CODES.failed);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
