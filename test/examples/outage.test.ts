// examples/posts with a store that is down or frozen: 503 with Retry-After, quickly, the cause logged once per
// outage and never a secret, and service again once the database is back; the classification and the log
// of outages, in process.
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError } from '../../core/index.js';
import { jsonLogger } from '../../examples/posts/deploy/log.js';
import { guarded, isUnavailable, Outage, RETRY_AFTER_SECONDS } from '../../examples/posts/deploy/outage.js';
import type { Queryable } from '../../examples/posts/deploy/postgres.js';
import { raw } from '../support/http.js';
import { needs } from '../support/needs.js';
import { needPostgres, startPostgres, type Postgres } from '../support/postgres.js';
import { EXAMPLE, start, type Started } from '../support/spawn.js';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('isUnavailable() :: unreachable or too slow is a 503; a wrong query or a bug is not', () => {
  const cases: Array<[unknown, boolean]> = [
    [coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), true],
    [coded('ECONNRESET'), true],
    [coded('ENOTFOUND'), true],
    [new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]), true],
    [coded('57P01', 'terminating connection due to administrator command'), true],
    [coded('57P03', 'the database system is starting up'), true],
    [coded('57014', 'canceling statement due to statement timeout'), true],
    [coded('08006'), true],
    [coded('53300', 'sorry, too many clients already'), true],
    [new Error('Connection terminated unexpectedly'), true],
    [new Error('Connection terminated due to connection timeout'), true],
    [new Error('timeout exceeded when trying to connect'), true],
    [new Error('Query read timeout'), true],
    [coded('42P01', 'relation "posts" does not exist'), false],
    [coded('23505', 'duplicate key value violates unique constraint'), false],
    [coded('ERR_X', 'Connection terminated'), false],
    [new TypeError("Cannot read properties of undefined (reading 'rows')"), false],
    [new AggregateError([]), false],
    ['ECONNREFUSED', false],
  ];
  for (const [error, expected] of cases) assert.is(isUnavailable(error), expected, String(error));
});

test('guarded() :: a store that cannot answer is a 503 with Retry-After; any other error is thrown as it is', async () => {
  const lines: string[] = [];
  const outage = new Outage(jsonLogger((line) => lines.push(line)));
  let fails: unknown;
  const db: Queryable = {
    query: async () => {
      if (fails !== undefined) throw fails;
      return { rows: [], rowCount: 0 };
    },
  };
  const store = guarded(db, outage);
  fails = coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432');
  const refused = await store.query('SELECT 1').catch((error: unknown) => error);
  assert.instance(refused, HttpError);
  assert.is((refused as HttpError).status, 503);
  assert.equal((refused as HttpError).headers, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  assert.is((refused as HttpError).cause, fails);
  fails = coded('42601', 'syntax error at or near "SELEC"');
  assert.is(await store.query('SELEC 1').catch((error: unknown) => error), fails);
  fails = undefined;
  assert.equal(await store.query('SELECT 1'), { rows: [], rowCount: 0 });
  assert.is(lines.length, 2, lines.join(''));
});

test('Outage :: one line when it starts, a count every summaryEvery while it lasts, one when it ends; nothing per request', () => {
  const lines: Array<Record<string, unknown>> = [];
  let now = 1_000;
  const outage = new Outage(
    jsonLogger((line) => lines.push(JSON.parse(line))),
    10_000,
    () => now,
  );
  const cause = coded('ECONNREFUSED', 'connect ECONNREFUSED postgres://posts:sekrit@db:5432');
  outage.succeeded();
  for (let i = 0; i < 500; i++) outage.failed(cause);
  assert.is(lines.length, 1);
  assert.is(lines[0]!.level, 50);
  assert.match(String(lines[0]!.msg), /^the posts store is unavailable: connect ECONNREFUSED/);
  now += 10_000;
  outage.failed(cause);
  for (let i = 0; i < 99; i++) outage.failed(cause);
  assert.is(lines.length, 2);
  assert.is(lines[1]!.level, 40);
  assert.is(lines[1]!.failed, 500);
  now += 2_500;
  outage.succeeded();
  outage.succeeded();
  assert.is(lines.length, 3);
  assert.is(lines[2]!.level, 30);
  assert.equal([lines[2]!.failed, lines[2]!.outageMs], [600, 12_500]);
  assert.match(String(lines[2]!.msg), /answers again after 12.5 s; 600 requests were answered 503/);
  // A second outage is told again from its start.
  outage.failed(cause);
  assert.is(lines.length, 4);
  assert.not.match(JSON.stringify(lines), /sekrit/);
});

test.run();

// A cluster of its own: these tests stop and freeze it, which the shared one's other users must not see.
const down = needs(
  needPostgres('examples/posts with its PostgreSQL server down (test/examples/outage.test.ts)'),
  suite<{ postgres: Postgres }>('examples/posts with its PostgreSQL server down or frozen'),
);
down.before(async (context) => {
  context.postgres = await startPostgres();
});
down.after(async ({ postgres }) => {
  await postgres?.stop();
});

/** The example on `postgres`, its database URL carrying a password (trust ignores it) that must never show. */
async function startOn(postgres: Postgres, name: string): Promise<Started> {
  const url = (await postgres.database(name)).replace('postgres@', 'postgres:sekrit@');
  return start('node', EXAMPLE, {
    PORT: '0',
    DATABASE_URL: url,
    DATABASE_CONNECT_TIMEOUT: '500',
    DATABASE_STATEMENT_TIMEOUT: '500',
  });
}

/** `count` requests, `parallel` at a time, and the statuses answered. */
async function burst(url: string, count: number, parallel = 10): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += parallel) {
    const answers = await Promise.all(Array.from({ length: parallel }, () => raw(url, { path: '/posts' })));
    for (const answer of answers) {
      if (answer.status === 503) assert.is(answer.headers['retry-after'], String(RETRY_AFTER_SECONDS));
      statuses.push(answer.status);
    }
  }
  return statuses;
}

/** Asks until the store answers again (each try is answered, 503 or 200). */
async function back(url: string): Promise<void> {
  while ((await raw(url, { path: '/posts' })).status !== 200) await new Promise((r) => setTimeout(r, 50));
}

/** The JSON lines the example logged about its store. */
const storeLines = (app: Started) =>
  app
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; failed?: number });

for (const how of ['stopped', 'frozen'] as const) {
  down(
    `a database ${how} under requests :: 503 with Retry-After, one line for the outage, served again after`,
    async ({ postgres }) => {
      const app = await startOn(postgres, `outage_${how}`);
      let thaw: (() => void) | undefined;
      try {
        assert.equal(await burst(app.url, 10), Array(10).fill(200));
        if (how === 'stopped') postgres.halt();
        else thaw = postgres.freeze();
        assert.equal(await burst(app.url, 60), Array(60).fill(503));
        assert.is((await raw(app.url, { path: '/readyz' })).status, 503);
        assert.is((await raw(app.url, { path: '/healthz' })).status, 200);
        const during = storeLines(app);
        assert.is(during.length, 1, app.stderr());
        assert.is(during[0]!.level, 50);
        assert.match(during[0]!.msg, /^the posts store is unavailable: /);

        if (how === 'stopped') postgres.resume();
        else thaw!();
        await back(app.url);
        assert.is((await raw(app.url, { path: '/readyz' })).status, 200);
        const after = storeLines(app);
        assert.is(after.length, 2, app.stderr());
        assert.is(after[1]!.level, 30);
        assert.ok(after[1]!.failed! >= 60, after[1]!.msg);
        assert.not.match(app.stderr(), /sekrit|\n\s+at /);
      } finally {
        thaw?.();
        app.child.kill('SIGTERM');
        assert.equal(await app.exited, [0, null]);
      }
    },
  );
}

down.run();
