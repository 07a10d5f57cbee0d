// A store that cannot be reached or answers too late: 503 with Retry-After for the client, and its cause
// logged once per outage instead of once per request.
import { HttpError } from 'sevenfold';
import type { Logger } from './log.js';
import type { Queryable } from './postgres.js';

/** Seconds a client is asked to wait before trying again while the store is out. */
export const RETRY_AFTER_SECONDS = 5;

// The system errors of a connection that could not be made or was lost.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs of a server that cannot serve now rather than of a wrong query: connection exceptions (08),
// insufficient resources (53), shutting down or starting (57P01-57P03), and statement_timeout (57014).
const UNAVAILABLE_STATES = /^(08...|53...|57P0[1-3]|57014)$/;

// pg gives no code to the connection it lost or never got, only these messages.
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error)/;

/** Whether `error` says the store is unreachable or too slow (a 503), as opposed to a bug (a 500). */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  // Node reports a host that resolves to several addresses, all refused, as one AggregateError.
  if (error instanceof AggregateError) return error.errors.length > 0 && error.errors.every(isUnavailable);
  return code === undefined && PG_CONNECTION_MESSAGES.test(error.message);
}

/** The cause as one line with no secret in it: a URL's credentials are blanked should a driver quote one. */
export function describeCause(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const line = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  return line.replace(/\/\/[^/@\s]*@/g, '//***@');
}

/**
 * The store's outages as the log tells them: the first failure logs its cause, a failure `summaryEvery` ms
 * after the last line logs how many requests failed since, and the first success after failures logs the
 * outage's end and its count. Nothing is logged per request.
 */
export class Outage {
  #since: number | undefined;
  #reported = 0;
  #failures = 0;
  #total = 0;

  constructor(
    private readonly log: Logger,
    private readonly summaryEvery = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A failure to reach the store: a request's (`request`, counted among those answered 503), or another
   * connection's, such as the live broker's listener, which starts or joins the outage without being counted.
   */
  failed(error: unknown, request = true): void {
    const now = this.now();
    if (request) this.#total++;
    if (this.#since === undefined) {
      this.#since = this.#reported = now;
      this.log.error(
        { cause: describeCause(error) },
        request
          ? `the posts store is unavailable: ${describeCause(error)}; answering 503 until it is back`
          : `the posts store is unavailable: ${describeCause(error)} (the live broker's listening connection); watchers are told to reload once it is back`,
      );
      return;
    }
    if (request) this.#failures++;
    if (!request || now - this.#reported < this.summaryEvery) return;
    this.log.warn(
      { cause: describeCause(error), failed: this.#failures, outageMs: now - this.#since },
      `the posts store is still unavailable: ${this.#failures} more requests answered 503 (${describeCause(error)})`,
    );
    this.#reported = now;
    this.#failures = 0;
  }

  succeeded(): void {
    if (this.#since === undefined) return;
    const outageMs = this.now() - this.#since;
    this.log.info(
      { failed: this.#total, outageMs },
      `the posts store answers again after ${Math.round(outageMs / 100) / 10} s; ${this.#total} requests were answered 503`,
    );
    this.#since = undefined;
    this.#total = this.#failures = 0;
  }
}

/**
 * `db` with its outages made answers: a query that fails because the store is unreachable or too slow throws
 * a 503 `HttpError` with `Retry-After` and tells `outage`; any other error is thrown as it is (a 500, reported).
 */
export function guarded(db: Queryable, outage: Outage): Queryable {
  return {
    async query(text, values) {
      try {
        const result = await db.query(text, values);
        outage.succeeded();
        return result as never;
      } catch (error) {
        if (!isUnavailable(error)) throw error;
        outage.failed(error);
        throw new HttpError(503, 'the posts store is unavailable; try again shortly', {
          headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
          cause: error,
        });
      }
    },
  };
}
