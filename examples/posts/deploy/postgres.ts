// PostRepository on PostgreSQL (a server through pg, or PGlite), one SQL text for both.
import type { Post } from '../post.js';
import type { Page, PostRepository } from '../repository.js';

/** What the repository needs of a connection pool: `pg.Pool` has it, on a server or on PGlite. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(
    text: string,
    values?: readonly unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
}

// One list of columns, so every read gives the same shape (the names the JSON uses).
const COLUMNS = 'id, title, body, created_at AS "createdAt", updated_at AS "updatedAt"';

/**
 * Posts in PostgreSQL, one SQL dialect for a server and for PGlite (PostgreSQL in WASM).
 * Every write is one statement, so each is atomic and answered only once committed.
 */
export class PostgresPostRepository implements PostRepository {
  constructor(private readonly db: Queryable) {}

  async list(limit: number, offset: number): Promise<Page> {
    const page = await this.db.query<Post>(
      `SELECT ${COLUMNS} FROM posts ORDER BY created_at, id LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    // count(*) is a bigint, which pg gives as a string.
    const count = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM posts');
    return { posts: page.rows, total: count.rows[0]!.n };
  }

  async get(id: string): Promise<Post | undefined> {
    const result = await this.db.query<Post>(`SELECT ${COLUMNS} FROM posts WHERE id = $1`, [id]);
    return result.rows[0];
  }

  async insert(post: Post): Promise<boolean> {
    const result = await this.db.query(
      'INSERT INTO posts (id, title, body, created_at, updated_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING',
      [post.id, post.title, post.body, post.createdAt, post.updatedAt],
    );
    return result.rowCount === 1;
  }

  async replace(post: Post): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE posts SET title = $2, body = $3, created_at = $4, updated_at = $5 WHERE id = $1',
      [post.id, post.title, post.body, post.createdAt, post.updatedAt],
    );
    return result.rowCount === 1;
  }

  async remove(id: string): Promise<boolean> {
    const result = await this.db.query('DELETE FROM posts WHERE id = $1', [id]);
    return result.rowCount === 1;
  }
}
