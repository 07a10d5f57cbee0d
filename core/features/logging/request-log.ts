// requestLog(): one line per answered request, in pino-http's shape, written to the app's pino-compatible logger.
import { hook, type Hook, type HookRequest, type HttpResponse, type Logger } from 'sevenfold';

/** A level a request's line is written at; `silent` writes none. */
export type RequestLogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

/** What `requestLog()` takes besides the logger. */
export interface RequestLogOptions {
  /**
   * Headers, request or response, whose values are written `[Redacted]`, besides those always redacted
   * (`REDACTED_HEADERS`): the app's own secrets, e.g. `['X-Api-Key']`.
   */
  readonly redact?: readonly string[];
  /**
   * The level of a request's line, from the request and the answer's status: by default `error` for a
   * 5xx and `info` for anything else; `silent` writes no line (a health check's, say).
   */
  readonly level?: (req: HookRequest, status: number) => RequestLogLevel;
}

/** The headers a request's line never shows: they carry credentials. */
export const REDACTED_HEADERS: readonly string[] = Object.freeze([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);

/** What a redacted header's value is written as: pino's own `redact` censor. */
const CENSOR = '[Redacted]';

const LEVELS: readonly string[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** The default level: what failed on the server is an error, anything else (a refusal too) is information. */
const byStatus = (_req: HookRequest, status: number): RequestLogLevel => (status >= 500 ? 'error' : 'info');

/** Where a request's start is kept, on the request itself: no per-request map to look it up in. */
const STARTED = Symbol('requestLog.started');

/**
 * A hook that logs every answered request to `logger` (pino, or anything shaped like it), one line each,
 * in pino-http's shape: `{ reqId, req: { id, method, url, headers, remoteAddress }, res: { statusCode,
 * headers }, err?, responseTime, route: { name, pattern } }` with the message `request completed`, or
 * `request errored` for a 5xx, whose `err` (type, message, stack; nothing else the error carries) is
 * what `onError` got. `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` are `[Redacted]`.
 * `req.log` is `logger.child({ reqId })` for the handler's own lines. `responseTime` is in milliseconds
 * until the answer is ready to send. Put it right after `requestId()`, before the hooks whose answers it
 * should log as sent.
 */
export function requestLog(logger: Logger, options: RequestLogOptions = {}): Hook {
  if (!isLogger(logger))
    throw new TypeError(
      'requestLog(logger): logger must be pino-compatible (trace, debug, info, warn, error, fatal and child), e.g. pino()',
    );
  if (options === null || typeof options !== 'object')
    throw new TypeError(
      'requestLog(logger, options): options must be an object such as { redact: ["X-Api-Key"] }',
    );
  for (const key of Object.keys(options)) {
    if (key !== 'redact' && key !== 'level')
      throw new TypeError(`requestLog(logger, options): unknown option "${key}"; it takes redact and level`);
  }
  if (options.redact !== undefined && !Array.isArray(options.redact))
    throw new TypeError('requestLog(logger, { redact }): redact must be an array of header names');
  const level = options.level ?? byStatus;
  if (typeof level !== 'function')
    throw new TypeError(
      'requestLog(logger, { level }): level must be a function from (req, status) to a level',
    );
  const secret = new Set(REDACTED_HEADERS);
  for (const name of options.redact ?? []) {
    if (typeof name !== 'string' || name === '')
      throw new TypeError(
        `requestLog(logger, { redact }): redact must list header names, got ${JSON.stringify(name)}`,
      );
    secret.add(name.toLowerCase());
  }
  const enabled = levelCheck(logger);
  return hook('requestLog', {
    onRequest: (req) => {
      (req as Started)[STARTED] = performance.now();
      req.log = logger.child({ reqId: req.id });
    },
    onSend: (req, out) => {
      const at = level(req, out.status);
      if (!LEVELS.includes(at))
        throw new TypeError(
          `requestLog(logger, { level }): level answered ${JSON.stringify(at)}, not a level`,
        );
      if (at === 'silent' || !enabled(at)) return;
      try {
        logger[at](line(req, out, secret), out.status >= 500 ? 'request errored' : 'request completed');
      } catch {
        // A destination that fails (closed while draining) is pino's to report on its stream: the answer stands.
      }
    },
  });
}

type Started = HookRequest & { [STARTED]?: number };

/** The fields of a request's line, as pino-http writes them, with the route it matched. */
function line(req: HookRequest, out: HttpResponse, secret: ReadonlySet<string>): Record<string, unknown> {
  const started = (req as Started)[STARTED];
  const fields: Record<string, unknown> = {
    reqId: req.id,
    req: {
      id: req.id,
      method: req.method,
      url: req.url,
      headers: redacted(req.headers, secret),
      remoteAddress: req.ip,
    },
    res: { statusCode: out.status, headers: responseHeaders(out, secret) },
  };
  if (req.error !== undefined) fields.err = loggable(req.error);
  // A request refused before any hook ran (a target too long, a bad Host) was decided from its head alone.
  fields.responseTime = started === undefined ? 0 : Math.round((performance.now() - started) * 1000) / 1000;
  if (req.route !== undefined) fields.route = { name: req.route.name, pattern: req.route.path };
  return fields;
}

/** The answer's headers as logged, its Set-Cookie lines among them (redacted unless the app says otherwise). */
function responseHeaders(out: HttpResponse, secret: ReadonlySet<string>): Record<string, unknown> {
  const copy = redacted(out.headers, secret);
  if (out.cookies !== undefined && out.cookies.length > 0)
    copy['Set-Cookie'] = secret.has('set-cookie') ? CENSOR : out.cookies;
  return copy;
}

/** A copy of headers with the secret ones' values replaced by `[Redacted]`. */
function redacted(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  secret: ReadonlySet<string>,
): Record<string, unknown> {
  // A header a client named `__proto__` is one more key here, not the copy's prototype.
  const copy: Record<string, unknown> = Object.create(null);
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value !== undefined) copy[name] = secret.has(name.toLowerCase()) ? CENSOR : value;
  }
  return copy;
}

/**
 * The error as a line may show it: its class, message, stack and causes, and nothing else it carries (an
 * HTTP client's error holds the request it made, credentials included). A plain `Error` whose `constructor`
 * is the error's class, so that pino's serializer writes `{ type, message, stack }` with the class's name.
 */
export function loggable(error: unknown, depth = 0): Error {
  if (!(error instanceof Error))
    return new Error(
      `a non-Error was thrown: ${error !== null && typeof error === 'object' ? 'an object' : String(error)}`,
    );
  // Not the error's own prototype: some (DOMException's) have getters that throw on any other object.
  const copy = Object.create(Error.prototype, {
    constructor: { value: error.constructor },
    name: { value: error.name },
    message: { value: error.message },
    stack: { value: error.stack },
  }) as Error;
  // A cause's message and stack are appended by the serializer; a chain longer than this is cut.
  if (error.cause instanceof Error && depth < 8)
    Object.defineProperty(copy, 'cause', { value: loggable(error.cause, depth + 1) });
  return copy;
}

/** Whether the logger writes a level: pino says so (`isLevelEnabled`), so a silent one costs no line. */
function levelCheck(logger: Logger): (level: Exclude<RequestLogLevel, 'silent'>) => boolean {
  const check = (logger as { isLevelEnabled?: unknown }).isLevelEnabled;
  if (typeof check !== 'function') return () => true;
  return (level) => (check as (level: string) => boolean).call(logger, level);
}

/** Whether a value looks like a pino-compatible logger: every level a function, and `child`. */
function isLogger(value: unknown): value is Logger {
  if (value === null || typeof value !== 'object') return false;
  const log = value as Record<string, unknown>;
  return ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'child'].every(
    (key) => typeof log[key] === 'function',
  );
}
