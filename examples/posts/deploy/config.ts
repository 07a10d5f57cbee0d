// The example's configuration, read from the environment and checked with a message that names the fix.
import { logLevelError } from '../hooks.js';
import type { StoreOptions } from './store.js';

/** How the example runs, read from the environment (the spec's "Starting it"). */
export interface Config {
  readonly adapter: 'polka' | 'node';
  readonly host: string;
  readonly port: number;
  readonly workers: number;
  readonly store: StoreOptions;
}

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
  return {
    adapter,
    host: env.HOST || '127.0.0.1',
    port,
    workers,
    store: { databaseUrl, dataDir: env.DATA_DIR || './data', poolSize },
  };
}

// An unset or empty variable takes the default; anything but plain digits is refused.
function whole(value: string | undefined, fallback: number): number | undefined {
  if (value === undefined || value === '') return fallback;
  return /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}
