// Which store the example uses: PostgreSQL (DATABASE_URL), PGlite (DATA_DIR) or memory.
import cluster from 'node:cluster';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { memoryBroker, type Broker } from 'sevenfold/live';
import { memorySessionStore, type SessionStore } from 'sevenfold/sessions';
import { takeLock } from './lock.js';
import type { Logger } from './log.js';
import { migrate } from './migrations.js';
import { guarded, Outage } from './outage.js';
import { pgliteListen, PostgresBroker, serverListen, type PostgresBrokerOptions } from './live-broker.js';
import { seedFromTemplate } from './pglite-template.js';
import { PostgresPostRepository, type Queryable } from './postgres.js';
import { PostgresSessionStore } from './sessions.js';
import { MemoryPostRepository, type PostRepository } from '../repository.js';

/** Where the posts are kept, from the environment (see README: "Where posts are kept"). */
export interface StoreOptions {
  /** `postgres://…`: a PostgreSQL server, shared by every process. */
  readonly databaseUrl?: string | undefined;
  /** The folder of the embedded database (default `./data`), or `memory` for posts kept in memory only. */
  readonly dataDir?: string | undefined;
  /** Connections per process to a server. Default 10. */
  readonly poolSize?: number | undefined;
  /** Milliseconds to get a connection to a server before the request is answered 503. Default 5000. */
  readonly connectTimeout?: number | undefined;
  /** Milliseconds a statement may run on a server before it is cancelled and answered 503. Default 5000. */
  readonly statementTimeout?: number | undefined;
  /** Milliseconds an unused connection to a server stays open. Default 10 000. */
  readonly idleTimeout?: number | undefined;
  /** Changes kept per watched resource for clients that resume (`Last-Event-ID`). Default 1 000. */
  readonly liveHistory?: number | undefined;
}

/** An open store: the repository the app uses, and how to close it. */
export interface Store {
  readonly kind: 'postgres' | 'pglite' | 'memory';
  readonly repository: PostRepository;
  /** Where signed-in sessions are kept: the same database (memory for the memory store). */
  readonly sessions: SessionStore;
  /**
   * What carries watched posts' changes between the processes of this store, and keeps their history: the
   * database's `LISTEN`/`NOTIFY` and `live_events` table (deploy/live-broker.ts), or this process's memory.
   */
  readonly broker: Broker;
  /** Whether the store answers a trivial query now: what readiness asks. Never rejects. */
  ping(): Promise<boolean>;
  /** Closes the broker, waits for queries in flight, then closes the database and releases its lock. */
  close(): Promise<void>;
}

/** `openStore`, or exit 1 with the reason: a start-up that cannot reach its store has nothing to serve. */
export async function openStoreOrExit(options: StoreOptions, log: Logger): Promise<Store> {
  try {
    return await openStore(options, log);
  } catch (error) {
    console.error(`cannot open the posts store: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

/** The store the options name: a PostgreSQL server, PGlite in `dataDir`, or memory. */
export async function openStore(options: StoreOptions, log: Logger): Promise<Store> {
  if (options.databaseUrl) return openServer(options.databaseUrl, options, new Outage(log));
  const dataDir = options.dataDir || './data';
  if (dataDir === 'memory') {
    const broker = memoryBroker({ history: options.liveHistory ?? 1000 });
    return {
      kind: 'memory',
      repository: new MemoryPostRepository(),
      sessions: memorySessionStore(),
      broker,
      ping: async () => true,
      close: async () => broker.close?.(),
    };
  }
  return openEmbedded(resolve(dataDir), options, new Outage(log));
}

/**
 * How the broker tells of its listening connection: a loss is the store's outage (logged once with the
 * requests' failures, the pool and the listener reaching the same database), and its return ends it.
 */
function brokerOptions(options: StoreOptions, outage: Outage): PostgresBrokerOptions {
  return {
    history: options.liveHistory ?? 1000,
    onLost: (error) => outage.failed(error, false),
    onBack: () => outage.succeeded(),
  };
}

async function openServer(url: string, options: StoreOptions, outage: Outage): Promise<Store> {
  const { poolSize = 10, connectTimeout = 5000, statementTimeout = 5000, idleTimeout = 10_000 } = options;
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: connectTimeout,
    idleTimeoutMillis: idleTimeout,
    // The server cancels a slow statement itself; the client's own limit, a little later, catches a server
    // that no longer answers at all.
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout + 1000,
  });
  // An idle connection the server drops must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  let broker: PostgresBroker;
  try {
    await migrate(pool);
    // Its reads go to the pool itself, not through `guarded`: they are no request's, and count as none.
    broker = await PostgresBroker.open(
      pool,
      serverListen({
        connectionString: url,
        connectionTimeoutMillis: connectTimeout,
        query_timeout: statementTimeout + 1000,
      }),
      brokerOptions(options, outage),
    );
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = guarded(pool, outage);
  return {
    kind: 'postgres',
    repository: new PostgresPostRepository(db),
    sessions: new PostgresSessionStore(db),
    broker,
    ping: () => ping(db),
    // A server that froze never answers the goodbye of its connections: the stop waits no longer than a
    // connection would.
    close: async () => {
      await broker.close();
      await within(pool.end(), connectTimeout);
    },
  };
}

async function ping(db: Queryable): Promise<boolean> {
  try {
    await db.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/** `promise`, or nothing once `ms` have passed. */
function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * PGlite in `dir`/posts, locked for this process: PGlite takes no lock of its own, and two
 * processes on one folder corrupt it without a word (shared/design/database.md, §3).
 */
async function openEmbedded(dir: string, options: StoreOptions, outage: Outage): Promise<Store> {
  if (cluster.isWorker) {
    throw new Error('the embedded database serves one process only: set DATABASE_URL to run several workers');
  }
  mkdirSync(dir, { recursive: true });
  const release = takeLock(join(dir, 'lock'), `the posts database in ${dir}`);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
    const folder = join(dir, 'posts');
    await seedFromTemplate(folder);
    const lite = await PGlite.create(folder);
    // One connection: PGlite runs one query at a time, so calls queue in the pool.
    const pool = new pg.Pool(createPgConfig(lite) as pg.PoolConfig);
    await migrate(pool);
    const broker = await PostgresBroker.open(pool, pgliteListen(lite), brokerOptions(options, outage));
    const db = guarded(pool, outage);
    return {
      kind: 'pglite',
      repository: new PostgresPostRepository(db),
      sessions: new PostgresSessionStore(db),
      broker,
      ping: () => ping(db),
      close: async () => {
        await broker.close();
        // pool.end() leaves PGlite open; close() checkpoints its WAL into the folder.
        await pool.end();
        await lite.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
