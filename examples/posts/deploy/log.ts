// The example's logger, made in one place: pino's shape, writing JSON lines to stderr until pino replaces it.

/** What the example logs through: pino's `logger.warn(fields, message)` shape, so pino can take its place. */
export interface Logger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

// pino's numeric levels, so a line reads the same once pino writes it.
const LEVELS = { info: 30, warn: 40, error: 50 } as const;

/** A logger that writes one JSON line per call (`{"level":40,"time":…,"pid":…,…fields,"msg":…}`) to `write`. */
export function jsonLogger(write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const at =
    (level: keyof typeof LEVELS) =>
    (fields: object, message: string): void =>
      write(
        `${JSON.stringify({ level: LEVELS[level], time: Date.now(), pid: process.pid, ...fields, msg: message })}\n`,
      );
  return { info: at('info'), warn: at('warn'), error: at('error') };
}
