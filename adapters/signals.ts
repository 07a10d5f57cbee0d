// closeOnSignals(): a process's graceful stop on SIGTERM/SIGINT (drain, then exit 0), so an app's start-up
// does not write its own.

/** What `closeOnSignals()` stops: a `Running` server, or anything whose `close()` drains and resolves. */
export interface Closable {
  close(): Promise<void>;
}

export interface CloseOnSignalsOptions {
  /** The signals that stop the process. Default `['SIGTERM', 'SIGINT']`. */
  readonly signals?: readonly NodeJS.Signals[];
  /**
   * What a second signal does while `close()` still drains, e.g. cut the connections left
   * (`Running.closeOnSignals()` does: `server.closeAllConnections()`). Default: nothing more.
   */
  readonly force?: () => void;
}

/**
 * On the first of `signals`, calls `target.close()` and exits 0 once it resolves (1, with the
 * reason on stderr, if it rejects); a later signal calls `force`. Returns the unsubscribe,
 * which removes the handlers (and with them the catching of those signals).
 */
export function closeOnSignals(target: Closable, options: CloseOnSignalsOptions = {}): () => void {
  if (target === null || typeof target !== 'object' || typeof target.close !== 'function')
    throw new TypeError('closeOnSignals(target): target must have a close() method');
  const signals = [...(options.signals ?? ['SIGTERM', 'SIGINT'])];
  let closing = false;
  const onSignal = (): void => {
    if (closing) return void options.force?.();
    closing = true;
    target.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(
          `closing on a signal failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        process.exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
