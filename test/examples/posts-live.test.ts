// Watching posts (examples/posts/README.md, "Watching posts (live)") as an independent client over real HTTP
// against the spawned example: one process on memory and PGlite (polka and node:http), and WORKERS=2 on a
// PostgreSQL server, where a write through one worker reaches the watchers of both.
import { request, type IncomingHttpHeaders } from 'node:http';
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { controller, Resource } from '../../core/controllers/index.js';
import { RouteDefinitionError } from '../../core/errors.js';
import { live, type LiveEvent, type Reload } from '../../core/features/live/index.js';
import { postsContainer, postsResource } from '../../examples/posts/app.js';
import { postsLive } from '../../examples/posts/live.js';
import {
  pgliteListen,
  PostgresBroker,
  serverListen,
  type Listen,
} from '../../examples/posts/deploy/live-broker.js';
import { migrate } from '../../examples/posts/deploy/migrations.js';
import { parseEventBlock, within, type ServerSentEvent } from '../support/event-stream-client.js';
import { raw, type RawResponse } from '../support/http.js';
import { needs } from '../support/needs.js';
import { needPostgres, sharedPostgres, type Postgres } from '../support/postgres.js';
import { createdDataDir, EXAMPLE, start, type Started } from '../support/spawn.js';

const watching = suite('controller() :: { watch }, the hub of the app that serves it');

watching(
  'the posts controller given a hub streams its index and show; a watch on @Resource too is refused',
  () => {
    const posts = postsResource(postsContainer(), postsLive());
    assert.equal(
      posts.routes.filter((route) => route.events !== undefined).map((route) => route.action),
      ['index', 'show'],
    );
    @Resource('notes', { watch: live() })
    class NotesController {
      index(): unknown[] {
        return [];
      }
    }
    assert.throws(
      () => controller(NotesController, { watch: live() }),
      (error: unknown) => error instanceof RouteDefinitionError && /given both/.test(error.message),
    );
  },
);

watching.run();

/** How long any one read waits before the test fails: a safety net so that nothing hangs, never a measure. */
const PATIENCE_MS = 15_000;

/** A stream being watched, read as it comes over a connection of its own. */
interface Watch {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The next event not yet taken (comments are not events); rejects if the stream ends first. */
  next(): Promise<ServerSentEvent>;
  /** The next `count` events. */
  take(count: number): Promise<ServerSentEvent[]>;
  /** Resolves once the server ends the stream: `true` when it ended it cleanly (its last chunk came). */
  readonly ended: Promise<boolean>;
  /** The client goes away. */
  close(): void;
}

/** `promise`, or a failure naming `what` once `PATIENCE_MS` have passed. */
const patiently = <T>(promise: Promise<T>, what: string): Promise<T> => within(promise, PATIENCE_MS, what);

/**
 * `GET path` with `Accept: text/event-stream` (and `headers`) on a connection of its own, resolved once the
 * stream's first bytes came (the server subscribed before it wrote them), or once a non-stream answer ends.
 */
function watch(url: string, path: string, headers: Record<string, string> = {}): Promise<Watch> {
  const { hostname, port } = new URL(url);
  const opened = new Promise<Watch>((resolve, reject) => {
    const req = request({
      host: hostname,
      port,
      path,
      agent: false,
      headers: { Accept: 'text/event-stream', ...headers },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      res.setEncoding('utf8');
      const events: ServerSentEvent[] = [];
      const wake = new Set<() => void>();
      let taken = 0;
      let buffer = '';
      let done = false;
      let finish!: (clean: boolean) => void;
      const ended = new Promise<boolean>((settle) => {
        finish = (clean) => {
          if (done) return;
          done = true;
          settle(clean);
          for (const wakeUp of [...wake]) wakeUp();
        };
      });
      const next = (): Promise<ServerSentEvent> =>
        patiently(
          new Promise<ServerSentEvent>((resolveNext, rejectNext) => {
            const look = (): boolean => {
              if (taken < events.length) return (resolveNext(events[taken++]!), true);
              if (done)
                return (rejectNext(new Error(`${path}: the stream ended; events: ${show(events)}`)), true);
              return false;
            };
            if (look()) return;
            const wakeUp = (): void => void (look() && wake.delete(wakeUp));
            wake.add(wakeUp);
          }),
          `the next event on ${path} (after ${show(events)})`,
        );
      const stream: Watch = {
        status: res.statusCode!,
        headers: res.headers,
        next,
        take: async (count) => {
          const out: ServerSentEvent[] = [];
          for (let i = 0; i < count; i++) out.push(await next());
          return out;
        },
        ended,
        close: () => req.destroy(),
      };
      res.on('end', () => finish(res.complete));
      res.on('close', () => finish(res.complete));
      res.on('error', () => finish(false));
      if (!String(res.headers['content-type']).startsWith('text/event-stream')) {
        res.resume();
        return void ended.then(() => resolve(stream));
      }
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let at = buffer.indexOf('\n\n'); at !== -1; at = buffer.indexOf('\n\n')) {
          const event = parseEventBlock(buffer.slice(0, at));
          buffer = buffer.slice(at + 2);
          if (event !== undefined) events.push(event);
          resolve(stream);
        }
        for (const wakeUp of [...wake]) wakeUp();
      });
    });
    req.end();
  });
  return patiently(opened, `GET ${path} as a watcher`);
}

const show = (events: readonly ServerSentEvent[]): string =>
  JSON.stringify(events.map((e) => `${e.event} ${e.id} ${e.data.slice(0, 60)}`));

const JSON_BODY = { 'Content-Type': 'application/json', Accept: 'application/json' };
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' };

/** A write on a connection of its own (`Connection: close`), checked to be answered `status`. */
async function write(url: string, status: number, request: Parameters<typeof raw>[1]): Promise<RawResponse> {
  const answer = await raw(url, request);
  assert.is(answer.status, status, answer.wire.slice(0, 400));
  return answer;
}

const create = (url: string, id: string, title = id, headers: Record<string, string> = {}) =>
  write(url, 201, {
    method: 'POST',
    path: '/posts',
    headers: { ...JSON_BODY, ...headers },
    body: JSON.stringify({ id, title }),
  });
const update = (url: string, id: string, title: string) =>
  write(url, 200, {
    method: 'PUT',
    path: `/posts/${id}`,
    headers: JSON_BODY,
    body: JSON.stringify({ title }),
  });
const destroy = (url: string, id: string) => write(url, 204, { method: 'DELETE', path: `/posts/${id}` });

/** The post as show answers it, byte for byte. */
async function shown(url: string, id: string): Promise<string> {
  return (await write(url, 200, { path: `/posts/${id}`, headers: { Accept: 'application/json' } })).body;
}

/** Checks an event's name, that it has an id, and its data. */
function expectEvent(event: ServerSentEvent, name: string, data: string | RegExp): void {
  assert.is(event.event, name, JSON.stringify(event));
  assert.ok(event.id !== undefined && event.id !== '', `${name} carries an id: ${JSON.stringify(event)}`);
  if (typeof data === 'string') assert.is(event.data, data);
  else assert.match(event.data, data);
}

/** Stops the server with SIGTERM, failing rather than hanging when it does not exit. */
async function stopped(app: Started): Promise<[number | null, NodeJS.Signals | null]> {
  app.child.kill('SIGTERM');
  return patiently(app.exited, 'the example exiting on SIGTERM');
}

/** Signs in with the token, as a browser's form does: the session cookie. */
async function signIn(url: string): Promise<string> {
  const answer = await write(url, 303, {
    method: 'POST',
    path: '/session',
    headers: FORM,
    body: `token=${TOKEN}`,
  });
  return (answer.cookies ?? []).find((line) => line.startsWith('posts-session='))!.split(';')[0]!;
}

const signOut = (url: string, cookie: string) =>
  write(url, 303, {
    method: 'POST',
    path: '/session',
    headers: { ...FORM, Cookie: cookie },
    body: '_method=DELETE',
  });

const TOKEN = 'a-token-for-the-live-test';
const SIGN_IN = {
  POSTS_TOKEN: TOKEN,
  SESSION_SECRET: 'a test secret of thirty-two chars!!',
};
const BEARER = { Authorization: `Bearer ${TOKEN}` };

/** The history kept per resource in these runs: small, so that a client falls too far behind in a few writes. */
const HISTORY = 5;

/** Where a single process keeps its posts, and whether its history outlives it. */
interface Store {
  readonly name: string;
  env(): Promise<Record<string, string>>;
  readonly durable: boolean;
}

const STORES: readonly Store[] = [
  { name: 'memory', env: async () => ({ DATA_DIR: 'memory' }), durable: false },
  { name: 'PGlite', env: async () => ({ DATA_DIR: await createdDataDir() }), durable: true },
];

/** The example in one process on `store` and `adapter`, with `env` beside the defaults of these runs. */
async function startOne(
  store: Record<string, string>,
  adapter: 'polka' | 'node',
  env: Record<string, string> = {},
): Promise<Started> {
  return start(
    'node',
    EXAMPLE,
    { PORT: '0', LOG_LEVEL: 'silent', LIVE_HISTORY: String(HISTORY), ADAPTER: adapter, ...store, ...env },
    60,
  );
}

for (const store of STORES)
  for (const adapter of ['polka', 'node'] as const) {
    // The node:http adapter's run covers the memory store; the store makes no difference to the adapter.
    if (adapter === 'node' && store.name !== 'memory') continue;
    const test = suite<{ app: Started }>(`examples/posts watched, one process on ${store.name} (${adapter})`);
    test.before(async (context) => {
      context.app = await startOne(await store.env(), adapter);
    });
    test.after(async ({ app }) => {
      if (app !== undefined) assert.equal(await stopped(app), [0, null]);
    });

    test('GET /posts :: 200 text/event-stream, not cached; create, update, destroy (JSON and forms) each an event whose data is the post as show answers it', async ({
      app,
    }) => {
      const watcher = await watch(app.url, '/posts');
      try {
        assert.is(watcher.status, 200);
        assert.match(String(watcher.headers['content-type']), /^text\/event-stream/);
        assert.match(String(watcher.headers['cache-control']), /no-store/);

        await create(app.url, 'live-1', 'First');
        expectEvent(await watcher.next(), 'created', await shown(app.url, 'live-1'));
        await update(app.url, 'live-1', 'First, again');
        expectEvent(await watcher.next(), 'updated', await shown(app.url, 'live-1'));
        // A form's answer is a redirect: the event still carries the whole post.
        await write(app.url, 303, {
          method: 'POST',
          path: '/posts',
          headers: FORM,
          body: 'id=live-form&title=By+form',
        });
        expectEvent(await watcher.next(), 'created', await shown(app.url, 'live-form'));
        await write(app.url, 303, {
          method: 'POST',
          path: '/posts/live-form',
          headers: FORM,
          body: '_method=PUT&title=By+form%2C+again',
        });
        const edited = await watcher.next();
        expectEvent(edited, 'updated', await shown(app.url, 'live-form'));
        assert.is(JSON.parse(edited.data).title, 'By form, again');
        await destroy(app.url, 'live-1');
        expectEvent(await watcher.next(), 'destroyed', /"id":"live-1"/);
        await write(app.url, 303, {
          method: 'POST',
          path: '/posts/live-form',
          headers: FORM,
          body: '_method=DELETE',
        });
        const gone = await watcher.next();
        expectEvent(gone, 'destroyed', /"id":"live-form"/);
        assert.equal(JSON.parse(gone.data), { id: 'live-form' });
      } finally {
        watcher.close();
      }
    });

    test('GET /posts/:post_id :: the events of that one post only', async ({ app }) => {
      await create(app.url, 'one');
      const watcher = await watch(app.url, '/posts/one');
      try {
        assert.is(watcher.status, 200);
        await create(app.url, 'another');
        await update(app.url, 'another', 'Not watched');
        await update(app.url, 'one', 'Watched');
        expectEvent(await watcher.next(), 'updated', await shown(app.url, 'one'));
        await destroy(app.url, 'another');
        await destroy(app.url, 'one');
        expectEvent(await watcher.next(), 'destroyed', /"id":"one"/);
      } finally {
        watcher.close();
      }
    });

    test('Last-Event-ID :: the reconnected watcher gets, in order and once, what came after it, then what comes next', async ({
      app,
    }) => {
      const first = await watch(app.url, '/posts');
      await create(app.url, 'r-a');
      await create(app.url, 'r-b');
      const [a, b] = await first.take(2);
      first.close();
      await create(app.url, 'r-c');
      await update(app.url, 'r-a', 'Updated while away');
      await destroy(app.url, 'r-b');

      const again = await watch(app.url, '/posts', { 'Last-Event-ID': a!.id! });
      try {
        const missed = await again.take(4);
        assert.equal(
          missed.map((event) => [event.event, JSON.parse(event.data).id]),
          [
            ['created', 'r-b'],
            ['created', 'r-c'],
            ['updated', 'r-a'],
            ['destroyed', 'r-b'],
          ],
        );
        assert.is(missed[0]!.id, b!.id, 'the same event, under the same id');
        await create(app.url, 'r-d');
        const next = await again.next();
        expectEvent(next, 'created', await shown(app.url, 'r-d'));
        const ids = [a, ...missed, next].map((event) => event!.id);
        assert.is(new Set(ids).size, ids.length, `no event twice: ${ids.join(' ')}`);
      } finally {
        again.close();
      }
    });

    test('Last-Event-ID :: a watcher further behind than the history kept, or with an id not given here, is told to reload', async ({
      app,
    }) => {
      const first = await watch(app.url, '/posts');
      await create(app.url, 'behind');
      const seen = await first.next();
      first.close();
      for (let i = 0; i <= HISTORY; i++) await update(app.url, 'behind', `Update ${i}`);

      const behind = await watch(app.url, '/posts', { 'Last-Event-ID': seen.id! });
      const reload = await behind.next();
      behind.close();
      assert.is(reload.event, 'reload', JSON.stringify(reload));
      assert.ok(reload.id !== undefined, 'a reload carries the latest id, where a later resume starts');

      const unknown = await watch(app.url, '/posts', { 'Last-Event-ID': 'not-an-id-of-this-server' });
      assert.is((await unknown.next()).event, 'reload');
      unknown.close();

      // Resuming from the reload's id: nothing missed, and what comes next arrives.
      const resumed = await watch(app.url, '/posts', { 'Last-Event-ID': reload.id! });
      try {
        await destroy(app.url, 'behind');
        expectEvent(await resumed.next(), 'destroyed', /"id":"behind"/);
      } finally {
        resumed.close();
      }
    });

    if (adapter === 'polka')
      test('SIGTERM under watch :: every stream ends cleanly and the process exits 0', async () => {
        const app = await startOne(await store.env(), adapter);
        const watchers = await Promise.all([watch(app.url, '/posts'), watch(app.url, '/posts')]);
        await create(app.url, 'before-stop');
        for (const watcher of watchers) assert.is((await watcher.next()).event, 'created');
        app.child.kill('SIGTERM');
        for (const watcher of watchers) assert.is(await patiently(watcher.ended, 'the stream ending'), true);
        assert.equal(await patiently(app.exited, 'the example exiting'), [0, null]);
      });

    if (adapter === 'polka')
      test(
        store.durable
          ? 'restarted on the same data :: Last-Event-ID resumes across the restart (the history is in the database)'
          : 'restarted :: a Last-Event-ID of the stopped process is told to reload (the history was in its memory)',
        async () => {
          const env = await store.env();
          const before = await startOne(env, adapter);
          const watcher = await watch(before.url, '/posts');
          await create(before.url, 'across-1');
          const seen = await watcher.next();
          watcher.close();
          await create(before.url, 'across-2');
          assert.equal(await stopped(before), [0, null]);

          const after = await startOne(env, adapter);
          try {
            if (store.durable) await create(after.url, 'across-3');
            const resumed = await watch(after.url, '/posts', { 'Last-Event-ID': seen.id! });
            try {
              if (!store.durable) {
                assert.is((await resumed.next()).event, 'reload');
                return;
              }
              const missed = await resumed.take(2);
              assert.equal(
                missed.map((event) => [event.event, JSON.parse(event.data).id]),
                [
                  ['created', 'across-2'],
                  ['created', 'across-3'],
                ],
              );
              await create(after.url, 'across-4');
              expectEvent(await resumed.next(), 'created', await shown(after.url, 'across-4'));
            } finally {
              resumed.close();
            }
          } finally {
            assert.equal(await stopped(after), [0, null]);
          }
        },
      );

    if (adapter === 'polka')
      test("DELETE /session :: signing out ends that session's streams; other watchers watch on", async () => {
        const app = await startOne(await store.env(), adapter, SIGN_IN);
        try {
          const leaving = await signIn(app.url);
          const staying = await signIn(app.url);
          const signedIn = await Promise.all([
            watch(app.url, '/posts', { Cookie: leaving }),
            watch(app.url, '/posts', { Cookie: leaving }),
          ]);
          const others = await Promise.all([
            watch(app.url, '/posts', { Cookie: staying }),
            watch(app.url, '/posts'),
          ]);
          await signOut(app.url, leaving);
          for (const watcher of signedIn)
            assert.is(await patiently(watcher.ended, "the signed-out session's stream ending"), true);
          await create(app.url, 'after-sign-out', 'Still watched', BEARER);
          for (const watcher of others) {
            expectEvent(await watcher.next(), 'created', await shown(app.url, 'after-sign-out'));
            watcher.close();
          }
        } finally {
          assert.equal(await stopped(app), [0, null]);
        }
      });

    test.run();
  }

// WORKERS=2 on a PostgreSQL server: each worker listens, and a client's connections land on either.
const server = needs(
  needPostgres('examples/posts watched on a PostgreSQL server (test/examples/posts-live.test.ts)'),
  suite<{ postgres: Postgres }>('examples/posts watched, WORKERS=2 on a PostgreSQL server'),
);
server.before(async (context) => {
  context.postgres = await sharedPostgres();
});

/** The example with two workers on a database of its own, logging each request with its worker's pid. */
async function startWorkers(databaseUrl: string, env: Record<string, string> = {}): Promise<Started> {
  return start(
    'node',
    EXAMPLE,
    { PORT: '0', WORKERS: '2', DATABASE_URL: databaseUrl, LIVE_HISTORY: String(HISTORY), ...env },
    60,
  );
}

/** The pids of the workers that answered watchers, from the request log's lines on stdout. */
function watcherPids(app: Started): Set<number> {
  const pids = new Set<number>();
  for (const line of app.stdout().split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { pid?: number; req?: { headers?: Record<string, string> } };
    if (entry.req?.headers?.accept === 'text/event-stream' && entry.pid !== undefined) pids.add(entry.pid);
  }
  return pids;
}

/** Watchers enough that both workers hold some (connections are dealt round-robin), checked in the log. */
async function watchersOnBoth(
  app: Started,
  path: string,
  headers: Record<string, string> = {},
): Promise<Watch[]> {
  const watchers: Watch[] = [];
  for (let i = 0; i < 6 || watcherPids(app).size < 2; i++) {
    if (i === 40) assert.unreachable(`the watchers all landed on one worker: ${app.stdout()}`);
    watchers.push(await watch(app.url, path, headers));
  }
  return watchers;
}

server(
  'a write through one connection reaches every watcher, whichever worker holds it, in the same order',
  async ({ postgres }) => {
    const app = await startWorkers(await postgres.database('live_workers'));
    try {
      const watchers = await watchersOnBoth(app, '/posts');
      await create(app.url, 'w-1');
      await create(app.url, 'w-2');
      await update(app.url, 'w-1', 'Updated');
      const expected = [await shown(app.url, 'w-1'), await shown(app.url, 'w-2')];
      const first = await watchers[0]!.take(3);
      for (const watcher of watchers) {
        const got = watcher === watchers[0] ? first : await watcher.take(3);
        assert.equal(
          got.map((event) => [event.event, event.id]),
          first.map((event) => [event.event, event.id]),
          'every watcher sees the same events under the same ids',
        );
        assert.equal(JSON.parse(got[1]!.data), JSON.parse(expected[1]!));
        assert.is(got[2]!.data, expected[0]);
        watcher.close();
      }
    } finally {
      assert.equal(await stopped(app), [0, null]);
    }
  },
);

server(
  'Last-Event-ID :: a watcher reconnecting to either worker gets what it missed, in order and once; too far behind, reload',
  async ({ postgres }) => {
    const app = await startWorkers(await postgres.database('live_resume'));
    try {
      const first = await watch(app.url, '/posts');
      await create(app.url, 'm-0');
      const seen = await first.next();
      first.close();
      await create(app.url, 'm-1');
      await create(app.url, 'm-2');
      // Several reconnections, so that both workers answer some.
      for (let i = 0; i < 4; i++) {
        const again = await watch(app.url, '/posts', { 'Last-Event-ID': seen.id! });
        const missed = await again.take(2);
        again.close();
        assert.equal(
          missed.map((event) => JSON.parse(event.data).id),
          ['m-1', 'm-2'],
        );
      }
      assert.is(watcherPids(app).size, 2, 'both workers replayed');
      for (let i = 0; i < HISTORY; i++) await update(app.url, 'm-0', `Update ${i}`);
      const behind = await watch(app.url, '/posts', { 'Last-Event-ID': seen.id! });
      assert.is((await behind.next()).event, 'reload');
      behind.close();
    } finally {
      assert.equal(await stopped(app), [0, null]);
    }
  },
);

server('restarted on the same database :: Last-Event-ID resumes across the restart', async ({ postgres }) => {
  const databaseUrl = await postgres.database('live_restart');
  const before = await startWorkers(databaseUrl);
  const watcher = await watch(before.url, '/posts');
  await create(before.url, 'x-1');
  const seen = await watcher.next();
  await create(before.url, 'x-2');
  assert.is((await watcher.next()).event, 'created');
  before.child.kill('SIGTERM');
  assert.is(await patiently(watcher.ended, 'the stream ending on SIGTERM'), true);
  assert.equal(await patiently(before.exited, 'the example exiting'), [0, null]);

  const after = await startWorkers(databaseUrl);
  try {
    await create(after.url, 'x-3');
    const resumed = await watch(after.url, '/posts', { 'Last-Event-ID': seen.id! });
    const missed = await resumed.take(2);
    resumed.close();
    assert.equal(
      missed.map((event) => JSON.parse(event.data).id),
      ['x-2', 'x-3'],
    );
  } finally {
    assert.equal(await stopped(after), [0, null]);
  }
});

server(
  "DELETE /session :: signing out on one worker ends that session's streams on both",
  async ({ postgres }) => {
    const app = await startWorkers(await postgres.database('live_sign_out'), SIGN_IN);
    try {
      const leaving = await signIn(app.url);
      const signedIn = await watchersOnBoth(app, '/posts', { Cookie: leaving });
      const other = await watch(app.url, '/posts');
      await signOut(app.url, leaving);
      for (const watcher of signedIn)
        assert.is(await patiently(watcher.ended, "the signed-out session's stream ending"), true);
      await create(app.url, 'still-watched', 'Still watched', BEARER);
      expectEvent(await other.next(), 'created', await shown(app.url, 'still-watched'));
      other.close();
    } finally {
      assert.equal(await stopped(app), [0, null]);
    }
  },
);

server(
  'the listening connection lost (pg_terminate_backend) :: every watcher is told to reload, and later changes still arrive',
  async ({ postgres }) => {
    const databaseUrl = await postgres.database('live_listener_lost');
    const app = await startWorkers(databaseUrl);
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      await create(app.url, 'l-1');
      const watchers = await watchersOnBoth(app, '/posts');
      const members = await Promise.all([watch(app.url, '/posts/l-1'), watch(app.url, '/posts/l-1')]);
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'posts live listener'",
      );
      assert.is(killed.rowCount, 2, 'one listening connection per worker');
      for (const watcher of [...watchers, ...members]) assert.is((await watcher.next()).event, 'reload');
      await update(app.url, 'l-1', 'Heard after the reload');
      for (const watcher of [...watchers, ...members]) {
        expectEvent(await watcher.next(), 'updated', await shown(app.url, 'l-1'));
        watcher.close();
      }
      const listening = await admin.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'posts live listener'",
      );
      assert.is(listening.rows[0].n, 2, 'each worker listens again');
    } finally {
      await admin.end();
      assert.equal(await stopped(app), [0, null]);
    }
    assert.match(app.stderr(), /live broker's listening connection/, 'the loss is logged');
  },
);

server(
  'SIGTERM under watch :: every stream on both workers ends cleanly, and the process exits 0',
  async ({ postgres }) => {
    const app = await startWorkers(await postgres.database('live_sigterm'));
    const watchers = await watchersOnBoth(app, '/posts');
    app.child.kill('SIGTERM');
    for (const watcher of watchers) assert.is(await patiently(watcher.ended, 'the stream ending'), true);
    assert.equal(await patiently(app.exited, 'the example exiting'), [0, null]);
  },
);

server.run();

/** A database as two processes share it: a pool and a way to listen for each, and how to let go. */
interface Shared {
  readonly pools: readonly [pg.Pool, pg.Pool];
  readonly listen: Listen;
  close(): Promise<void>;
}

/** `PostgresBroker` itself, on PGlite and on a server: two brokers on one database, as two processes have. */
function brokerSuite(name: string, open: () => Promise<Shared>, need?: Parameters<typeof needs>[0]): void {
  const plain = suite<{ shared: Shared; brokers: PostgresBroker[] }>(`PostgresBroker on ${name}`);
  const it = need === undefined ? plain : needs(need, plain);
  it.before(async (context) => {
    context.shared = await open();
    await migrate(context.shared.pools[0]);
    context.brokers = [];
  });
  it.after(async ({ shared, brokers }) => {
    for (const broker of brokers ?? []) await broker.close();
    await shared?.close();
  });
  const pair = async (context: { shared: Shared; brokers: PostgresBroker[] }, history = 1000) => {
    const made = await Promise.all(
      context.shared.pools.map((pool) => PostgresBroker.open(pool, context.shared.listen, { history })),
    );
    context.brokers.push(...made);
    return made as [PostgresBroker, PostgresBroker];
  };
  const change = (n: number) => ({ name: 'created', scope: '', member: String(n), data: `{"n":${n}}` });

  it("publish() :: changes published at once reach another process's subscriber once each, in id order", async (context) => {
    const [publisher, subscriber] = await pair(context);
    const heard: (LiveEvent | Reload)[] = [];
    const elsewhere: (LiveEvent | Reload)[] = [];
    let enough!: () => void;
    const all = new Promise<void>((resolve) => (enough = resolve));
    const count = 40;
    subscriber.subscribe('order', (event) => {
      heard.push(event);
      if (heard.length === count) enough();
    });
    subscriber.subscribe('elsewhere', (event) => elsewhere.push(event));
    const ids = await Promise.all(
      Array.from({ length: count }, (_, n) => publisher.publish('order', change(n))),
    );
    await patiently(all, `${count} events`);
    assert.equal(elsewhere, [], 'another channel hears nothing of it');
    assert.not.ok(
      heard.some((event) => event.name === 'reload'),
      'no reload while listening holds',
    );
    const order = heard.map((event) => BigInt(event.id!));
    assert.ok(
      order.every((id, i) => i === 0 || id > order[i - 1]!),
      `ids increase: ${order.join(' ')}`,
    );
    assert.equal([...heard.map((event) => event.id)].sort(), [...ids].sort());
    const first = heard[0] as LiveEvent;
    assert.equal(first, { id: first.id, ...change(Number(first.member)) });
  });

  it('since() :: what came after an id, in order; an id pruned, unknown or not of this database is a reload with the latest', async (context) => {
    const [broker] = await pair(context, 3);
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) ids.push(await broker.publish('history', change(n)));
    const after = (await broker.since('history', ids[2]!)) as readonly LiveEvent[];
    assert.equal(
      after.map((event) => event.id),
      ids.slice(3),
    );
    assert.equal(await broker.since('history', ids[4]!), []);
    const latest: Reload = { name: 'reload', id: ids[4] };
    assert.equal(await broker.since('history', ids[0]!), latest, 'pruned: the history keeps 3');
    assert.equal(await broker.since('history', '999999999999'), latest, 'newer than any id given');
    assert.equal(await broker.since('history', 'abc-1'), latest, 'not an id of this broker');
    assert.equal(await broker.since('never-published', ids[0]!), { name: 'reload' });
  });

  it('close() :: publish() rejects after it, and it can be called twice', async (context) => {
    const [broker] = await pair(context);
    await broker.close();
    await broker.close();
    let failed = false;
    await broker.publish('closed', change(1)).catch(() => (failed = true));
    assert.ok(failed, 'publish() rejects once closed');
  });

  it.run();
}

async function pglite(): Promise<Shared> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  const lite = await PGlite.create('memory://');
  // One pool for both: PGlite is one session, and a second pool's connection would wait on the first forever.
  const pool = new pg.Pool(createPgConfig(lite) as pg.PoolConfig);
  return {
    pools: [pool, pool],
    listen: pgliteListen(lite),
    close: async () => {
      await pool.end();
      await lite.close();
    },
  };
}

brokerSuite('PGlite', pglite);
brokerSuite(
  'a PostgreSQL server',
  async () => {
    const url = await (await sharedPostgres()).database('live_broker');
    const pools = [0, 1].map(() => new pg.Pool({ connectionString: url, max: 10 })) as [pg.Pool, pg.Pool];
    return {
      pools,
      listen: serverListen({ connectionString: url, connectionTimeoutMillis: 5000, query_timeout: 5000 }),
      close: async () => {
        for (const pool of pools) await pool.end();
      },
    };
  },
  needPostgres('PostgresBroker on a PostgreSQL server (test/examples/posts-live.test.ts)'),
);
