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
  {
    version: 2,
    // Signed-in sessions (deploy/sessions.ts): a digest of each id, the session's JSON, when it ends.
    sql: `CREATE TABLE sessions (
      key text COLLATE "C" PRIMARY KEY,
      value jsonb NOT NULL,
      expires_at bigint NOT NULL
    );
    CREATE INDEX sessions_by_expiry ON sessions (expires_at);`,
  },
  {
    version: 3,
    // Watched posts' changes (deploy/live-broker.ts): each channel's recent events, its newest id and the newest
    // id pruned from it, and the one statement that publishes.
    sql: `CREATE TABLE live_events (
      id bigserial PRIMARY KEY,
      channel text COLLATE "C" NOT NULL,
      name text NOT NULL,
      scope text NOT NULL,
      member text,
      data text NOT NULL
    );
    CREATE INDEX live_events_by_channel ON live_events (channel, id);
    CREATE TABLE live_channels (
      channel text COLLATE "C" PRIMARY KEY,
      latest bigint NOT NULL,
      pruned bigint NOT NULL DEFAULT 0
    );
    CREATE FUNCTION live_publish(
      p_channel text, p_name text, p_scope text, p_member text, p_data text, p_keep integer
    ) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      new_id bigint;
      cutoff bigint;
    BEGIN
      -- Publishers of a channel take turns until they commit, so its ids commit in order: a process that
      -- reads id 11 has 10 already.
      PERFORM pg_advisory_xact_lock(7100778, hashtext(p_channel));
      INSERT INTO live_events (channel, name, scope, member, data)
        VALUES (p_channel, p_name, p_scope, p_member, p_data)
        RETURNING id INTO new_id;
      SELECT id INTO cutoff FROM live_events
        WHERE channel = p_channel ORDER BY id DESC OFFSET p_keep LIMIT 1;
      IF cutoff IS NOT NULL THEN
        DELETE FROM live_events WHERE channel = p_channel AND id <= cutoff;
      END IF;
      INSERT INTO live_channels (channel, latest, pruned) VALUES (p_channel, new_id, coalesce(cutoff, 0))
        ON CONFLICT (channel) DO UPDATE
        SET latest = excluded.latest, pruned = greatest(live_channels.pruned, excluded.pruned);
      -- Sent on commit; listeners read the row, as a payload is capped at 8 000 bytes.
      PERFORM pg_notify('posts_live', new_id || ' ' || p_channel);
      RETURN new_id;
    END $$;`,
  },
];

// Any fixed number: processes starting at once on one server take turns on it.
const MIGRATION_LOCK = 7_100_777;

/**
 * Raised when the database records steps this code does not know: a newer version migrated it, and this one
 * could misread its tables.
 */
export class SchemaTooNewError extends Error {
  override readonly name = 'SchemaTooNewError';
}

/**
 * Brings the schema up to date: the steps not yet recorded in `schema_migrations` run in one
 * transaction, under an advisory lock, so processes that start together apply each step once.
 * A database that records a step this code does not know is refused (`SchemaTooNewError`).
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
    const known = new Set(MIGRATIONS.map((step) => step.version));
    const unknown = [...applied].filter((version) => !known.has(version)).sort((a, b) => a - b);
    if (unknown.length > 0) {
      throw new SchemaTooNewError(
        `the database's schema is newer than this code: schema_migrations records step ${unknown.join(', ')}, ` +
          `and this version knows steps up to ${Math.max(...known)}; run the version that migrated it (or a newer one), ` +
          'or restore a backup made for this version',
      );
    }
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
