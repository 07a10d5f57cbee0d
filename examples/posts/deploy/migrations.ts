// The posts schema as versioned migrations, applied once under an advisory lock.
import type { Pool } from 'pg';

/**
 * The schema, as numbered steps applied in order, each once. Nothing here needs a PostgreSQL
 * newer than 15 (the servers Debian ships), and PGlite (PostgreSQL 18) runs the same text.
 */
export const MIGRATIONS: readonly { readonly version: number; readonly sql: string }[] = [
  {
    version: 1,
    // Ids and times sort by code unit under "C", as the app's byAge does, whatever the server's locale.
    sql: `CREATE TABLE posts (
      id text COLLATE "C" PRIMARY KEY,
      title text NOT NULL,
      body text NOT NULL,
      created_at text COLLATE "C" NOT NULL,
      updated_at text NOT NULL
    );
    CREATE INDEX posts_by_age ON posts (created_at, id);`,
  },
];

// Any fixed number: processes starting at once on one server take turns on it.
const MIGRATION_LOCK = 7_100_777;

/**
 * Brings the schema up to date: the steps not yet recorded in `schema_migrations` run in one
 * transaction, under an advisory lock, so processes that start together apply each step once.
 */
export async function migrate(pool: Pool): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at text NOT NULL)',
    );
    const done = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(done.rows.map((row) => row.version));
    const ran: number[] = [];
    for (const step of MIGRATIONS) {
      if (applied.has(step.version)) continue;
      await client.query(step.sql);
      await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [
        step.version,
        new Date().toISOString(),
      ]);
      ran.push(step.version);
    }
    await client.query('COMMIT');
    return ran;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
