// health(): the liveness and readiness routes a load balancer or an orchestrator asks, as a route table.
import {
  HttpError,
  json,
  RouteDefinitionError,
  routes,
  type Handler,
  type Route,
  type Table,
} from 'sevenfold';

export interface HealthOptions {
  /**
   * Whether the app can take requests now (its store answers, it is not draining): the app's own check. One
   * that answers anything but `true`, throws, rejects or outlasts `timeout` is "not ready".
   * Default: always ready.
   */
  readonly ready?: () => boolean | Promise<boolean>;
  /** Milliseconds the readiness check may take before it counts as "not ready". Default 2000. */
  readonly timeout?: number;
  /** Seconds a `503` from the readiness route asks a client to wait (`Retry-After`). Default 5. */
  readonly retryAfter?: number;
  /** The liveness route's path. Default `/healthz`. */
  readonly livePath?: string;
  /** The readiness route's path. Default `/readyz`. */
  readonly readyPath?: string;
}

// A cached answer about health is a wrong one.
const NO_STORE = { 'Cache-Control': 'no-store' } as const;

/** Why the readiness route answers `503`: said without the check's own error, which may name internals. */
const NOT_READY = {
  'said no': 'not ready: the readiness check answered false',
  failed: 'not ready: the readiness check failed',
  'timed out': 'not ready: the readiness check did not answer in time',
} as const;

type Verdict = 'ready' | keyof typeof NOT_READY;

/**
 * Two plain GET routes (HEAD too) to combine with the app's own, `routes(posts, health({ ready }))`:
 *
 *     GET  /healthz  health.live   200 {"status":"ok"} while the process serves
 *     GET  /readyz   health.ready  200 {"status":"ready"}, or 503 with Retry-After when `ready()` says no
 *
 * No I/O of its own: what "ready" means is the app's `ready()`. Answers are never cached.
 */
export function health(options: HealthOptions = {}): Table {
  const { ready = () => true, livePath = '/healthz', readyPath = '/readyz' } = options;
  const timeout = positive('timeout', options.timeout ?? 2000, 'milliseconds');
  const retryAfter = positive('retryAfter', options.retryAfter ?? 5, 'seconds');
  if (typeof ready !== 'function')
    throw new RouteDefinitionError(`health(): ready must be a function, got ${typeof ready}`);
  const unavailable = { 'Retry-After': String(retryAfter), ...NO_STORE };
  const live: Handler = () => json({ status: 'ok' }, 200, { ...NO_STORE });
  const check: Handler = async () => {
    const verdict = await readiness(ready, timeout);
    if (verdict === 'ready') return json({ status: 'ready' }, 200, { ...NO_STORE });
    throw new HttpError(503, NOT_READY[verdict], { headers: unavailable });
  };
  return routes(route('live', livePath, live), route('ready', readyPath, check));
}

function route(action: string, path: string, handler: Handler): Route {
  return Object.freeze({
    resource: 'health',
    action,
    method: 'GET',
    path,
    params: Object.freeze([]),
    name: `health.${action}`,
    body: false,
    handler,
  });
}

/** The check's verdict, never a rejection and never later than `timeout`. */
function readiness(ready: () => boolean | Promise<boolean>, timeout: number): Promise<Verdict> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Verdict>((resolve) => (timer = setTimeout(resolve, timeout, 'timed out')));
  // Called inside an async function, so a check that throws at once is a rejection like any other.
  const answered = (async (): Promise<Verdict> => ((await ready()) === true ? 'ready' : 'said no'))().catch(
    (): Verdict => 'failed',
  );
  return Promise.race([answered, late]).finally(() => clearTimeout(timer));
}

function positive(name: string, value: number, unit: string): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RouteDefinitionError(
      `health(): ${name} must be a whole number of ${unit} of at least 1, got ${value}`,
    );
  return value;
}
