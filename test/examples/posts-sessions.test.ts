// Signed-in sessions kept in a store: one contract for memory, PGlite and a PostgreSQL server, and examples/posts
// with its sessions in its database: signing out revokes a copied cookie, a row deleted signs its browser out,
// and sessions outlive a restart.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { memorySessionStore, type SessionStore } from '../../core/features/sessions/index.js';
import { postsOptions } from '../../examples/posts/app.js';
import { postsTable } from '../../examples/posts/hooks.js';
import { migrate } from '../../examples/posts/deploy/migrations.js';
import { PostgresPostRepository } from '../../examples/posts/deploy/postgres.js';
import { PostgresSessionStore } from '../../examples/posts/deploy/sessions.js';
import type { RawResponse } from '../support/http.js';
import { inProcess, quietHandler } from '../support/in-process.js';
import { needs, type Need } from '../support/needs.js';
import { needPostgres, sharedPostgres } from '../support/postgres.js';
import { deterministicPosts } from '../support/posts.js';

/** A store under test: an empty one per call, the pool to look at its table with, and how to let go. */
interface Opened {
  empty(): Promise<SessionStore>;
  readonly pool?: pg.Pool;
  close(): Promise<void>;
}

const HOUR = 3_600_000;

function contract(name: string, open: () => Promise<Opened>, need?: Need): void {
  const plain = suite(`SessionStore on ${name}`);
  const it = need === undefined ? plain : needs(need, plain);
  let opened: Opened | undefined;
  it.before(async () => void (opened = await open()));
  it.after(async () => void (await opened?.close()));
  const check = (title: string, body: (store: SessionStore) => Promise<void>) =>
    it(title, async () => body(await opened!.empty()));

  check('create, get, update and destroy; an update or destroy of nothing says so', async (store) => {
    assert.is(await store.get('k'), undefined);
    await store.create('k', '{"d":{"user":"ada"},"e":1}', Date.now() + HOUR);
    assert.equal(JSON.parse((await store.get('k'))!), { d: { user: 'ada' }, e: 1 });
    assert.is(await store.update('k', '{"d":{},"e":2}', Date.now() + HOUR), true);
    assert.equal(JSON.parse((await store.get('k'))!), { d: {}, e: 2 });
    assert.is(await store.destroy('k'), true);
    assert.is(await store.get('k'), undefined);
    assert.is(await store.update('k', '{"d":{},"e":3}', Date.now() + HOUR), false, 'an update never creates');
    assert.is(await store.get('k'), undefined);
    assert.is(await store.destroy('k'), false);
  });

  check('past its expiry a session reads as absent and cannot be updated or destroyed', async (store) => {
    await store.create('old', '{"d":{},"e":0}', Date.now() - 1);
    assert.is(await store.get('old'), undefined);
    assert.is(await store.update('old', '{"d":{},"e":0}', Date.now() + HOUR), false);
    assert.is(await store.destroy('old'), false);
  });

  check('of many requests destroying one session at once, exactly one is told it was kept', async (store) => {
    await store.create('contested', '{"d":{},"e":0}', Date.now() + HOUR);
    const told = await Promise.all(Array.from({ length: 20 }, () => store.destroy('contested')));
    assert.is(told.filter(Boolean).length, 1);
  });

  it.run();
}

contract('memory', async () => ({ empty: async () => memorySessionStore(), close: async () => {} }));

/** PGlite in memory with the example's migrations: the table the example keeps its sessions in. */
async function pglite(): Promise<{ pool: pg.Pool; close(): Promise<void> }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  const lite: PGlite = await PGlite.create('memory://');
  const pool = new pg.Pool(createPgConfig(lite) as pg.PoolConfig);
  await migrate(pool);
  return { pool, close: async () => (await pool.end(), await lite.close()) };
}

contract('PGlite', async () => {
  const { pool, close } = await pglite();
  return {
    pool,
    empty: async () => (await pool.query('TRUNCATE sessions'), new PostgresSessionStore(pool)),
    close,
  };
});

contract(
  'a PostgreSQL server',
  async () => {
    const server = await sharedPostgres();
    const pool = new pg.Pool({ connectionString: await server.database('sessions'), max: 20 });
    await migrate(pool);
    return {
      pool,
      empty: async () => (await pool.query('TRUNCATE sessions'), new PostgresSessionStore(pool)),
      close: async () => pool.end(),
    };
  },
  needPostgres('the PostgreSQL server half (test/examples/posts-sessions.test.ts)'),
);

const TOKEN = 'a-token-for-the-sessions-test';
const ENV = {
  POSTS_TOKEN: TOKEN,
  SESSION_SECRET: 'a test secret of thirty-two chars!!',
  LOG_LEVEL: 'silent',
};
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' };

const example = suite('examples/posts with its sessions in its database (PGlite)');
let database: Awaited<ReturnType<typeof pglite>>;
let saved: string | undefined;

example.before(async () => {
  database = await pglite();
  // The write guard reads POSTS_TOKEN as each write comes in, so the process has it while these run.
  saved = process.env.POSTS_TOKEN;
  process.env.POSTS_TOKEN = TOKEN;
});
example.after(async () => {
  await database.close();
  if (saved === undefined) delete process.env.POSTS_TOKEN;
  else process.env.POSTS_TOKEN = saved;
});

/** The example as a process serves it over the database: a new one is a restart. */
function start() {
  const posts = deterministicPosts(undefined, new PostgresPostRepository(database.pool));
  const handler = quietHandler(
    postsTable({ env: ENV, sessions: new PostgresSessionStore(database.pool) }, posts),
    postsOptions(posts),
  );
  return (path: string, cookie: string, init: { method?: string; body?: string } = {}) =>
    inProcess(handler, { path, headers: { ...FORM, Cookie: cookie }, ...init });
}

const cookieOf = (answer: RawResponse): string =>
  (answer.cookies ?? []).find((line) => line.startsWith('posts-session='))!.split(';')[0]!;

const signedInOn = (page: RawResponse): boolean => /<button>Sign out<\/button>/.test(page.body);

async function signIn(ask: ReturnType<typeof start>): Promise<string> {
  const answer = await ask('/session', '', { method: 'POST', body: `token=${TOKEN}` });
  assert.is(answer.status, 303);
  return cookieOf(answer);
}

example('signing out ends the session for every copy of its cookie', async () => {
  const ask = start();
  const cookie = await signIn(ask);
  const copy = cookie;
  const page = await ask('/posts', cookie);
  assert.ok(signedInOn(page));
  const out = await ask('/session', cookieOf(page), { method: 'POST', body: '_method=DELETE' });
  assert.is(out.status, 303);
  assert.not.ok(signedInOn(await ask('/posts', copy)), 'the copied cookie is signed out');
  const created = await ask('/posts', copy, { method: 'POST', body: 'title=stolen&body=x' });
  assert.is(created.status, 303, 'a write form sends the copy to sign in');
  assert.match(created.headers.location ?? '', /^\/session\/new/);
});

example("a session's row deleted (revoked by the documented statement) signs its browser out", async () => {
  const ask = start();
  const cookie = await signIn(ask);
  const deleted = await database.pool.query("DELETE FROM sessions WHERE value->'d'->>'user' = $1", [
    'writer',
  ]);
  assert.ok((deleted.rowCount ?? 0) >= 1);
  assert.not.ok(signedInOn(await ask('/posts', cookie)));
});

example('signed-in sessions outlive a restart (the same SESSION_SECRET, the same database)', async () => {
  const cookie = await signIn(start());
  const restarted = start();
  assert.ok(signedInOn(await restarted('/posts', cookie)));
});

example.run();
