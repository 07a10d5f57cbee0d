// Signed-in sessions in the posts database, so signing out ends a session everywhere (SessionStore on PostgreSQL).
import type { SessionStore } from 'sevenfold/sessions';
import type { Queryable } from './postgres.js';

/**
 * Sessions in the `sessions` table, one SQL text for a server and for PGlite. A key is a digest of the
 * session's id (the cookie holds the id), a value the session's JSON; rows past `expires_at` (milliseconds
 * since the epoch) read as absent and are purged as new sessions are made. Revoking someone's every session
 * is one statement: `DELETE FROM sessions WHERE value->'d'->>'user' = $1`.
 */
export class PostgresSessionStore implements SessionStore {
  constructor(private readonly db: Queryable) {}

  async get(key: string): Promise<string | undefined> {
    const result = await this.db.query<{ value: string }>(
      'SELECT value::text AS value FROM sessions WHERE key = $1 AND expires_at > $2',
      [key, Date.now()],
    );
    return result.rows[0]?.value;
  }

  async create(key: string, value: string, expires: number): Promise<void> {
    // Expired rows go as new ones come, in the same statement: no timer, and the table stays the size of use.
    await this.db.query(
      `WITH purged AS (DELETE FROM sessions WHERE expires_at <= $4)
       INSERT INTO sessions (key, value, expires_at) VALUES ($1, $2::jsonb, $3)`,
      [key, value, expires, Date.now()],
    );
  }

  async update(key: string, value: string, expires: number): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE sessions SET value = $2::jsonb, expires_at = $3 WHERE key = $1 AND expires_at > $4',
      [key, value, expires, Date.now()],
    );
    return result.rowCount === 1;
  }

  async destroy(key: string): Promise<boolean> {
    // One statement: of two requests destroying one session at once, exactly one is told it was kept.
    const result = await this.db.query('DELETE FROM sessions WHERE key = $1 AND expires_at > $2', [
      key,
      Date.now(),
    ]);
    return result.rowCount === 1;
  }
}
