// Time limits for the async steps of the request path: one coarse sweep for all requests, or a timer per step
// where timers belong to a request.
import type { Exchange } from './exchange.js';

/** An async step under way (a handler, a guard, a schema check), for the timeout sweep. */
interface Waiting {
  readonly request: Exchange;
  /** When it is cut, on `performance.now()`'s clock: the sweep compares times, not its own ticks. */
  readonly expires: number;
}

/**
 * Time limits for async steps of the request path. One coarse sweep cuts every step past its
 * time, instead of a timer per request: a step is cut at most one tick late, however busy the
 * event loop is. Whoever settles first (the step or the sweep) answers; the other does nothing.
 */
export class Deadlines {
  readonly #waiting = new Set<Waiting>();
  readonly #tick: number;
  #sweeper: ReturnType<typeof setInterval> | undefined = undefined;

  constructor(
    private readonly timeout: number,
    /** Answers a request whose step ran out of time (and frees its connection). */
    private readonly expire: (request: Exchange) => void,
    /**
     * `per-step`: a timer for each waiting step instead of the shared sweep, where a timer belongs to the request
     * that set it (workerd cancels it when that request ends, so one request's sweep cannot serve another's).
     */
    private readonly timers: 'sweep' | 'per-step' = 'sweep',
  ) {
    this.#tick = Math.max(5, Math.min(250, Math.floor(timeout / 8)));
  }

  /**
   * Runs a step of the request path, then `next`: a step that answers at once goes straight on, a
   * promised one waits under the time limit, a failed one is `refused`.
   */
  step(
    request: Exchange,
    run: () => void | Promise<void>,
    next: () => void,
    refused: (error: unknown) => void,
  ): void {
    let pending: void | Promise<void>;
    try {
      pending = run();
    } catch (error) {
      return refused(error);
    }
    if (pending === undefined) return next();
    this.wait(request, pending, next, refused);
  }

  /** Runs `then` with the step's value or `otherwise` with its error, unless the sweep cut it first. */
  wait<T>(
    request: Exchange,
    step: PromiseLike<T>,
    then: (value: T) => void,
    otherwise: (error: unknown) => void,
  ): void {
    const entry: Waiting = { request, expires: performance.now() + this.timeout };
    this.#waiting.add(entry);
    if (this.timers === 'per-step') return this.#timed(entry, step, then, otherwise);
    if (this.#sweeper === undefined) {
      this.#sweeper = setInterval(() => this.#sweep(), this.#tick);
      // Node's timer keeps the process alive unless unref'd; Web runtimes' timers are plain numbers.
      (this.#sweeper as { unref?: () => void }).unref?.();
    }
    Promise.resolve(step).then(
      (value) => {
        if (this.#waiting.delete(entry)) then(value);
      },
      (error: unknown) => {
        if (this.#waiting.delete(entry)) otherwise(error);
      },
    );
  }

  #timed<T>(
    entry: Waiting,
    step: PromiseLike<T>,
    then: (value: T) => void,
    otherwise: (error: unknown) => void,
  ) {
    const timer = setTimeout(() => {
      if (this.#waiting.delete(entry)) this.expire(entry.request);
    }, this.timeout);
    // As the sweep's: a step left waiting must not keep a Node process alive.
    (timer as { unref?: () => void }).unref?.();
    Promise.resolve(step).then(
      (value) => {
        clearTimeout(timer);
        if (this.#waiting.delete(entry)) then(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (this.#waiting.delete(entry)) otherwise(error);
      },
    );
  }

  #sweep(): void {
    const now = performance.now();
    for (const entry of this.#waiting) {
      if (entry.expires > now) continue;
      this.#waiting.delete(entry);
      this.expire(entry.request);
    }
    if (this.#waiting.size === 0) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
  }
}
