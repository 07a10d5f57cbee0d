// Operating examples/posts: a stop signalled to the whole process group drains (WORKERS=1 and 2, and under
// npm start), SIGHUP restarts workers one at a time without a refused connection, and a lone process drains
// on SIGHUP; /healthz and /readyz are served beside the posts table.
import { connect } from 'node:net';
import { once } from 'node:events';
import pg from 'pg';
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseResponse, raw, type RawResponse } from '../support/http.js';
import { needs } from '../support/needs.js';
import { needPostgres, sharedPostgres, type Postgres } from '../support/postgres.js';
import {
  createdDataDir,
  EXAMPLE,
  printed,
  refusing,
  start,
  workersOf,
  type Started,
} from '../support/spawn.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };

/**
 * Creates held in PostgreSQL: a transaction of the test's own locks the posts table, `count` creates are
 * sent, each on a connection of its own, and it resolves once all of them wait on the lock in the server.
 * `release()` lets them through.
 */
async function heldCreates(
  url: string,
  databaseUrl: string,
  count: number,
): Promise<{ answers: Promise<RawResponse[]>; release: () => Promise<void> }> {
  const locker = new pg.Client(databaseUrl);
  const watcher = new pg.Client(databaseUrl);
  await Promise.all([locker.connect(), watcher.connect()]);
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE posts IN ACCESS EXCLUSIVE MODE');
  const answers = Promise.all(
    Array.from({ length: count }, (_, i) =>
      raw(url, {
        method: 'POST',
        path: '/posts',
        headers: JSON_TYPE,
        body: JSON.stringify({ id: `held-${i}`, title: 'held across the stop' }),
      }),
    ),
  );
  // Watched from a connection of its own: a new backend does not start while the locker's transaction runs
  // statements.
  for (;;) {
    const waiting = await watcher.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
    );
    if (waiting.rows[0]!.n === count) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    answers,
    release: async () => {
      await locker.query('COMMIT');
      await Promise.all([locker.end(), watcher.end()]);
    },
  };
}

const server = needPostgres(
  'examples/posts stopped or restarted on a PostgreSQL server (test/examples/operations.test.ts)',
);
const group = suite('examples/posts stopped by a signal to its whole process group');
const groupOnServer = needs(server, group);
let postgres: Postgres;
groupOnServer.before(async () => void (postgres = await sharedPostgres()));

for (const workers of [1, 2]) {
  groupOnServer(
    `WORKERS=${workers} :: SIGTERM to the group (twice, as a supervisor may) lets creates held in PostgreSQL finish with 201, exit 0`,
    async () => {
      const databaseUrl = await postgres.database(`group_${workers}`);
      const app = await start(
        'node',
        EXAMPLE,
        {
          PORT: '0',
          WORKERS: String(workers),
          DATABASE_URL: databaseUrl,
          ADAPTER: workers === 1 ? 'polka' : 'node',
          // Held longer than this, a create would be cancelled: far above what the test holds it.
          DATABASE_STATEMENT_TIMEOUT: '60000',
        },
        30,
        { detached: true },
      );
      const held = await heldCreates(app.url, databaseUrl, 6);
      process.kill(-app.child.pid!, 'SIGTERM');
      await refusing(app.url);
      process.kill(-app.child.pid!, 'SIGTERM');
      await held.release();
      for (const answer of await held.answers) assert.is(answer.status, 201, answer.wire);
      assert.equal(await app.exited, [0, null]);
      assert.not.match(app.stderr(), /cut/);
    },
  );
}

group(
  'npm start :: SIGTERM to the group (npm passes its own copy on) lets requests in flight finish, exit 0',
  async () => {
    const app = await start('npm', ['start'], { PORT: '0', DATA_DIR: await createdDataDir() }, 60, {
      detached: true,
    });
    const { hostname, port } = new URL(app.url);
    // Each create has half its body on the wire when the signal comes: in flight, held by the client.
    const sockets = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const socket = connect(Number(port), hostname);
        await once(socket, 'connect');
        const body = JSON.stringify({ id: `npm-${i}`, title: 'sent across the signal' });
        socket.write(
          `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
        );
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk));
        const closed = once(socket, 'close').then(() => answer);
        return { socket, rest: body.slice(10), closed };
      }),
    );
    // The server answers a request it has begun to read: a first GET on a fresh connection proves it listens.
    assert.is((await raw(app.url, { path: '/healthz' })).status, 200);
    process.kill(-app.child.pid!, 'SIGTERM');
    await refusing(app.url);
    for (const { socket, rest } of sockets) socket.write(rest);
    for (const { closed } of sockets) assert.is(parseResponse(await closed).status, 201);
    const [code] = await app.exited;
    assert.is(code, 0);
  },
);

group.run();

const restarts = needs(server, suite('examples/posts restarted by SIGHUP'));
restarts.before(async () => void (postgres = await sharedPostgres()));

restarts(
  'WORKERS=2 :: SIGHUP replaces both workers one at a time while clients keep asking: no connection refused, every answer 200',
  async () => {
    const app = await start('node', EXAMPLE, {
      PORT: '0',
      WORKERS: '2',
      DATABASE_URL: await postgres.database('rolling'),
    });
    try {
      const before = workersOf(app);
      assert.is(before.length, 2);
      let done = false;
      const statuses: number[] = [];
      const failures: string[] = [];
      // Four clients, each request on a new connection, so every one is handed to a worker by the primary.
      const clients = Array.from({ length: 4 }, async () => {
        while (!done) {
          await raw(app.url, { path: '/posts' }).then(
            (answer) => void statuses.push(answer.status),
            (error: Error) => void failures.push(error.message),
          );
        }
      });
      app.child.kill('SIGHUP');
      await printed(app, /SIGHUP: all 2 workers restarted/, 'stderr');
      const during = statuses.length;
      // Still served after the last old worker is gone: a few more answers from the new ones.
      while (statuses.length < during + 20 && failures.length === 0)
        await new Promise((r) => setTimeout(r, 10));
      done = true;
      await Promise.all(clients);
      assert.equal(failures, []);
      assert.ok(during > 0, 'no request was answered during the restart');
      assert.equal(
        statuses.filter((status) => status !== 200),
        [],
      );
      const after = workersOf(app);
      assert.is(after.length, 2);
      assert.equal(
        after.filter((pid) => before.includes(pid)),
        [],
        'every worker was replaced',
      );
      assert.not.match(app.stderr(), /exited \(/);
    } finally {
      app.child.kill('SIGTERM');
      assert.equal(await app.exited, [0, null]);
    }
  },
);

restarts.run();

test('WORKERS=1 :: SIGHUP drains like SIGTERM (a lone process cannot be replaced without a gap): exit 0, not 129', async () => {
  const app = await start('node', EXAMPLE, { PORT: '0', DATA_DIR: 'memory' });
  const { hostname, port } = new URL(app.url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const body = JSON.stringify({ id: 'hup', title: 'sent across the hangup' });
  socket.write(
    `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk));
  const closed = once(socket, 'close');
  assert.is((await raw(app.url, { path: '/readyz' })).status, 200);
  app.child.kill('SIGHUP');
  await refusing(app.url);
  socket.write(body.slice(5));
  await closed;
  assert.is(parseResponse(answer).status, 201);
  assert.equal(await app.exited, [0, null]);
});

test('examples/posts :: /healthz and /readyz answer 200 beside the posts table, which lists neither', async () => {
  const app = await start('node', EXAMPLE, { PORT: '0', DATA_DIR: 'memory', ADAPTER: 'node' });
  try {
    for (const path of ['/healthz', '/readyz']) {
      const answer = await raw(app.url, { path });
      assert.is(answer.status, 200, path);
      assert.is(answer.headers['cache-control'], 'no-store');
    }
  } finally {
    app.child.kill('SIGTERM');
    await app.exited;
  }
});

test.run();
