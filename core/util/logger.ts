// The logger shape sevenfold writes to: pino's, so pino itself (or anything shaped like it) works unchanged.

/** One level's method, as pino's: an object of fields and a message, or a message alone. */
export interface LogMethod {
  (fields: object, message?: string): void;
  (message: string): void;
}

/** A pino-compatible logger: the levels sevenfold writes at, and `child()` for the per-request one. */
export interface Logger {
  readonly trace: LogMethod;
  readonly debug: LogMethod;
  readonly info: LogMethod;
  readonly warn: LogMethod;
  readonly error: LogMethod;
  readonly fatal: LogMethod;
  child(bindings: object): Logger;
}

const nothing = (): void => {};

/** The logger of a request no hook gave one: it writes nothing, and costs a call. */
export const SILENT: Logger = Object.freeze({
  trace: nothing,
  debug: nothing,
  info: nothing,
  warn: nothing,
  error: nothing,
  fatal: nothing,
  child: () => SILENT,
});
