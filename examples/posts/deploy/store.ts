// Which store the example uses: PostgreSQL (DATABASE_URL), PGlite (DATA_DIR) or memory.
import cluster from 'node:cluster';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { takeLock } from './lock.js';
import { migrate } from './migrations.js';
import { PostgresPostRepository } from './postgres.js';
import { MemoryPostRepository, type PostRepository } from '../repository.js';

/** Where the posts are kept, from the environment (see README: "Where posts are kept"). */
export interface StoreOptions {
  /** `postgres://…`: a PostgreSQL server, shared by every process. */
  readonly databaseUrl?: string | undefined;
  /** The folder of the embedded database (default `./data`), or `memory` for posts kept in memory only. */
  readonly dataDir?: string | undefined;
  /** Connections per process to a server. Default 10. */
  readonly poolSize?: number | undefined;
}

/** An open store: the repository the app uses, and how to close it. */
export interface Store {
  readonly kind: 'postgres' | 'pglite' | 'memory';
  readonly repository: PostRepository;
  /** Waits for queries in flight, then closes the database and releases its lock. */
  close(): Promise<void>;
}

/** `openStore`, or exit 1 with the reason: a start-up that cannot reach its store has nothing to serve. */
export async function openStoreOrExit(options: StoreOptions): Promise<Store> {
  try {
    return await openStore(options);
  } catch (error) {
    console.error(`cannot open the posts store: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

/** The store the options name: a PostgreSQL server, PGlite in `dataDir`, or memory. */
export async function openStore(options: StoreOptions = {}): Promise<Store> {
  if (options.databaseUrl) return openServer(options.databaseUrl, options.poolSize ?? 10);
  const dataDir = options.dataDir || './data';
  if (dataDir === 'memory') {
    return { kind: 'memory', repository: new MemoryPostRepository(), close: async () => {} };
  }
  return openEmbedded(resolve(dataDir));
}

async function openServer(url: string, poolSize: number): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection the server drops must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { kind: 'postgres', repository: new PostgresPostRepository(pool), close: () => pool.end() };
}

/**
 * PGlite in `dir`/posts, locked for this process: PGlite takes no lock of its own, and two
 * processes on one folder corrupt it without a word (shared/design/database.md, §3).
 */
async function openEmbedded(dir: string): Promise<Store> {
  if (cluster.isWorker) {
    throw new Error('the embedded database serves one process only: set DATABASE_URL to run several workers');
  }
  mkdirSync(dir, { recursive: true });
  const release = takeLock(join(dir, 'lock'), `the posts database in ${dir}`);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
    const lite = await PGlite.create(join(dir, 'posts'));
    // One connection: PGlite runs one query at a time, so calls queue in the pool.
    const pool = new pg.Pool(createPgConfig(lite) as pg.PoolConfig);
    await migrate(pool);
    return {
      kind: 'pglite',
      repository: new PostgresPostRepository(pool),
      close: async () => {
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
