// The example's configuration, read from the environment and checked with a message that names the fix.
import { logLevelError, postsHooks } from '../hooks.js';
import type { StoreOptions } from './store.js';

/** How the example runs, read from the environment (the spec's "Starting it"). */
export interface Config {
  readonly adapter: 'polka' | 'node';
  readonly host: string;
  readonly port: number;
  readonly workers: number;
  /** Milliseconds a stop lets requests in flight finish before it cuts them (`SHUTDOWN_TIMEOUT`, seconds). */
  readonly shutdownTimeout: number;
  /** How many proxies in front to believe about the client's address (`X-Forwarded-For`). */
  readonly trustProxy: number;
  readonly store: StoreOptions;
}

// Each timeout of the database in milliseconds: its variable, its default, and what it bounds.
const DATABASE_TIMEOUTS = [
  ['DATABASE_CONNECT_TIMEOUT', 5_000, 'connectTimeout'],
  ['DATABASE_STATEMENT_TIMEOUT', 5_000, 'statementTimeout'],
  ['DATABASE_IDLE_TIMEOUT', 10_000, 'idleTimeout'],
] as const;

// An hour: past any timeout that still means something, well short of a number that looks like a typo.
const MAX_TIMEOUT_MS = 3_600_000;

/** The configuration, or the message that says which variable is wrong and what it takes. */
export function readConfig(env: NodeJS.ProcessEnv): Config | { readonly error: string } {
  const adapter = env.ADAPTER ?? 'polka';
  if (adapter !== 'polka' && adapter !== 'node') {
    return { error: `ADAPTER must be "polka" or "node", got ${JSON.stringify(adapter)}` };
  }
  const port = whole(env.PORT, 3000);
  if (port === undefined || port > 65535) {
    return { error: `PORT must be a whole number from 0 to 65535, got ${JSON.stringify(env.PORT)}` };
  }
  const workers = whole(env.WORKERS, 1);
  if (workers === undefined || workers < 1 || workers > 64) {
    return { error: `WORKERS must be a whole number from 1 to 64, got ${JSON.stringify(env.WORKERS)}` };
  }
  const poolSize = whole(env.DATABASE_POOL_SIZE, 10);
  if (poolSize === undefined || poolSize < 1) {
    return {
      error: `DATABASE_POOL_SIZE must be a whole number of at least 1, got ${JSON.stringify(env.DATABASE_POOL_SIZE)}`,
    };
  }
  const shutdownSeconds = whole(env.SHUTDOWN_TIMEOUT, 10);
  if (shutdownSeconds === undefined || shutdownSeconds < 1 || shutdownSeconds > 3600) {
    return {
      error: `SHUTDOWN_TIMEOUT must be a whole number of seconds from 1 to 3600, got ${JSON.stringify(env.SHUTDOWN_TIMEOUT)}`,
    };
  }
  const trustProxy = whole(env.TRUST_PROXY, 0);
  if (trustProxy === undefined || trustProxy > 16) {
    return {
      error: `TRUST_PROXY must be the number of proxies in front, from 0 to 16, got ${JSON.stringify(env.TRUST_PROXY)}`,
    };
  }
  const timeouts: Record<(typeof DATABASE_TIMEOUTS)[number][2], number> = {
    connectTimeout: 0,
    statementTimeout: 0,
    idleTimeout: 0,
  };
  for (const [name, fallback, key] of DATABASE_TIMEOUTS) {
    const ms = whole(env[name], fallback);
    if (ms === undefined || ms < 1 || ms > MAX_TIMEOUT_MS) {
      return {
        error: `${name} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${JSON.stringify(env[name])}`,
      };
    }
    timeouts[key] = ms;
  }
  const liveHistory = whole(env.LIVE_HISTORY, 1000);
  if (liveHistory === undefined || liveHistory < 1 || liveHistory > 1_000_000) {
    return {
      error: `LIVE_HISTORY must be the number of changes kept for watchers that reconnect, from 1 to 1000000, got ${JSON.stringify(env.LIVE_HISTORY)}`,
    };
  }
  const logLevel = logLevelError(env);
  if (logLevel !== undefined) return { error: logLevel };
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return {
      error: 'DATABASE_URL must be a postgres:// URL, e.g. postgres://user:password@localhost:5432/posts',
    };
  }
  if (workers > 1 && databaseUrl === undefined) {
    return {
      error: `WORKERS=${workers} needs DATABASE_URL: the embedded database (DATA_DIR) serves one process only, so several share posts on a PostgreSQL server`,
    };
  }
  if (workers > 1 && env.POSTS_TOKEN && !env.SESSION_SECRET) {
    return {
      error: `WORKERS=${workers} with POSTS_TOKEN needs SESSION_SECRET: each worker would make a key of its own, and a session signed in on one would be unknown to the others`,
    };
  }
  // The hooks read their own variables (CORS_ORIGINS): one they refuse stops the start with its message.
  try {
    postsHooks(env);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  return {
    adapter,
    host: env.HOST || '127.0.0.1',
    port,
    workers,
    shutdownTimeout: shutdownSeconds * 1000,
    trustProxy,
    store: { databaseUrl, dataDir: env.DATA_DIR || './data', poolSize, liveHistory, ...timeouts },
  };
}

// An unset or empty variable takes the default; anything but plain digits is refused.
function whole(value: string | undefined, fallback: number): number | undefined {
  if (value === undefined || value === '') return fallback;
  return /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}
