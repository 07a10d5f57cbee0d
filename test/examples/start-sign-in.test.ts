// examples/posts signed in as `npm start` runs it (POSTS_TOKEN and SESSION_SECRET set, sessions in its database):
// the whole sign-in flow on each adapter over PGlite and still signed in after a restart on the same DATA_DIR;
// with WORKERS=2 on a PostgreSQL server, a session made by one worker honoured by the other, and ended on both.
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RawResponse } from '../support/http.js';
import { needs } from '../support/needs.js';
import { needPostgres, sharedPostgres, type Postgres } from '../support/postgres.js';
import { SECRET, signedInOn, signedOutOn, signInFlow, TOKEN, Visitor } from '../support/posts-sign-in.js';
import { createdDataDir, EXAMPLE, printed, start, stop, workersOf, type Started } from '../support/spawn.js';

const SIGNED_IN = { POSTS_TOKEN: TOKEN, SESSION_SECRET: SECRET };

for (const adapter of ['polka', 'node']) {
  test(`examples/posts on ${adapter} and PGlite :: the sign-in flow, then a session that outlives a restart on the same DATA_DIR`, async () => {
    const env = {
      ...SIGNED_IN,
      ADAPTER: adapter,
      PORT: '0',
      DATA_DIR: await createdDataDir(),
      LOG_LEVEL: 'silent',
    };
    const first = await start('node', EXAMPLE, env);
    const browser = new Visitor(first.url);
    try {
      // Sessions are kept in the database: signing out ends a copy of the cookie too.
      await signInFlow(first.url, { revocable: true, post: `flow-on-${adapter}` });
      await browser.signIn();
      await browser.submit('/posts', { id: `kept-on-${adapter}`, title: 'Before the restart' }, 303);
    } finally {
      assert.equal(await stop(first), [0, null]);
    }

    const second = await start('node', EXAMPLE, env);
    try {
      const back = new Visitor(second.url, [], browser.cookie);
      const page = await back.page(`/posts/kept-on-${adapter}`);
      assert.ok(signedInOn(page), 'still signed in after the restart');
      assert.match(page.body, /Post created\./, 'the notice left before the restart is shown after it');
      const saved = await back.submit(`/posts/kept-on-${adapter}`, { _method: 'PUT', title: 'After' }, 303);
      assert.is(saved.headers.location, `/posts/kept-on-${adapter}`);
      const copy = back.cookie;
      await back.signOut();
      const stolen = new Visitor(second.url, [], copy);
      assert.ok(signedOutOn(await stolen.page('/posts')), 'the copied cookie is signed out');
      const refused = await stolen.submit('/posts', { id: 'stolen', title: 'Stolen' }, 303);
      assert.is(refused.headers.location, '/session/new');
    } finally {
      assert.equal(await stop(second), [0, null]);
    }
  });
}

/**
 * The pid of the worker that answered: its request log line (pino's, on the primary's stdout, which workers
 * share) names the answer's `X-Request-Id`; waits for that line.
 */
async function answeredBy(app: Started, answer: RawResponse): Promise<number> {
  const id = answer.headers['x-request-id']!;
  await printed(app, new RegExp(`"reqId":"${id}"`));
  const line = app
    .stdout()
    .split('\n')
    .find((one) => one.includes(`"reqId":"${id}"`))!;
  return (JSON.parse(line) as { pid: number }).pid;
}

/**
 * Sends `ask` again, each time on a new connection (which the primary hands to the next worker), until every
 * one of `workers` has answered it; at most 10 times each, so a primary that never hands one over fails here.
 */
async function onEveryWorker(
  app: Started,
  workers: readonly number[],
  ask: (i: number) => Promise<RawResponse>,
): Promise<void> {
  const seen = new Set<number>();
  for (let i = 0; seen.size < workers.length; i++) {
    assert.ok(i < workers.length * 10, `only workers ${[...seen]} of ${workers} answered`);
    const pid = await answeredBy(app, await ask(i));
    assert.ok(workers.includes(pid), `${pid} is one of the workers ${workers}`);
    seen.add(pid);
  }
}

const workers = needs(
  needPostgres('signing in with WORKERS=2 on a PostgreSQL server (test/examples/start-sign-in.test.ts)'),
  suite('examples/posts signed in with WORKERS=2 on a PostgreSQL server'),
);
let postgres: Postgres;
workers.before(async () => void (postgres = await sharedPostgres()));

workers(
  'WORKERS=2 :: a session made by one worker is honoured by the other, and signing out on one ends it on both',
  async () => {
    // LOG_LEVEL left at info: each answer's log line says which worker gave it.
    const app = await start('node', EXAMPLE, {
      ...SIGNED_IN,
      PORT: '0',
      WORKERS: '2',
      DATABASE_URL: await postgres.database('signed_in_workers'),
    });
    try {
      const pids = workersOf(app);
      assert.is(pids.length, 2);
      const browser = new Visitor(app.url);
      const signedInBy = await answeredBy(app, await browser.signIn());
      assert.ok(pids.includes(signedInBy));
      await onEveryWorker(app, pids, async (i) => {
        const page = await browser.page('/posts');
        assert.ok(signedInOn(page), `signed in on the worker of page ${i}`);
        return page;
      });
      await onEveryWorker(app, pids, async (i) => {
        const written = await browser.submit('/posts', { id: `by-worker-${i}`, title: 'Shared' }, 303);
        assert.is(written.headers.location, `/posts/by-worker-${i}`, 'written through the session');
        return written;
      });

      const copy = browser.cookie;
      const signedOutBy = await answeredBy(app, await browser.signOut());
      assert.ok(pids.includes(signedOutBy));
      const stolen = new Visitor(app.url);
      await onEveryWorker(app, pids, async (i) => {
        stolen.cookie = copy;
        const page = await stolen.page('/posts');
        assert.ok(signedOutOn(page), `the copied cookie is signed out on the worker of page ${i}`);
        return page;
      });
      await onEveryWorker(app, pids, async (i) => {
        stolen.cookie = copy;
        const refused = await stolen.submit('/posts', { id: `stolen-${i}`, title: 'Stolen' }, 303);
        assert.is(refused.headers.location, '/session/new', 'sent to sign in');
        return refused;
      });
    } finally {
      assert.equal(await stop(app), [0, null]);
    }
  },
);

workers.run();
test.run();
