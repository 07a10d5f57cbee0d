import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Post } from '../../examples/posts/post.js';
import { postsContract } from '../support/posts-contract.js';
import { needs } from '../support/needs.js';
import { needPostgres, sharedPostgres, type Postgres } from '../support/postgres.js';
import {
  createdDataDir,
  EXAMPLE,
  freshDataDir,
  refused,
  start,
  stop,
  workersOf,
  type Started,
} from '../support/spawn.js';

/**
 * "Nothing acknowledged is lost", tried on the running example: writes in flight when a process
 * is killed with SIGKILL, then the store read back. A write answered 2xx must be there; a write
 * whose answer never came may or may not be; nothing the clients did not send may appear.
 */

const JSON_TYPE = { 'content-type': 'application/json' };

/** What one write asked for and what became of it. */
interface Write {
  readonly kind: 'create' | 'update' | 'destroy';
  readonly id: string;
  readonly title: string;
  /** The status answered, or `undefined` when the connection failed first. */
  status: number | undefined;
}

/** Every post in the store, paging through the index. */
async function everyPost(url: string): Promise<Map<string, Post>> {
  const posts = new Map<string, Post>();
  for (let offset = 0; ; offset += 100) {
    const response = await fetch(`${url}/posts?limit=100&offset=${offset}`);
    assert.is(response.status, 200);
    const page = (await response.json()) as Post[];
    for (const post of page) posts.set(post.id, post);
    if (page.length < 100) return posts;
  }
}

/**
 * Writers that each create their own posts and update or delete their own seeded ones, one
 * write at a time, until `stopped()`; each write and its answer is recorded in `writes` as it goes.
 */
async function burst(
  url: string,
  writers: number,
  seeds: readonly string[],
  stopped: () => boolean,
  writes: Write[],
): Promise<Write[]> {
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const mine = seeds.filter((_, i) => i % writers === w);
      for (let n = 0; !stopped(); n++) {
        const seed = mine[n % mine.length]!;
        const write: Write =
          n % 4 === 3
            ? { kind: 'destroy', id: seed, title: '', status: undefined }
            : n % 4 === 2
              ? { kind: 'update', id: seed, title: `w${w} update ${n}`, status: undefined }
              : { kind: 'create', id: `w${w}-${n}`, title: `w${w} create ${n}`, status: undefined };
        writes.push(write);
        const init: RequestInit =
          write.kind === 'create'
            ? {
                method: 'POST',
                headers: JSON_TYPE,
                body: JSON.stringify({ id: write.id, title: write.title }),
              }
            : write.kind === 'update'
              ? { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ title: write.title }) }
              : { method: 'DELETE' };
        try {
          // node:cluster loses a connection it was handing to a worker SIGKILLed at that instant: such a
          // write is unanswered, not waited for forever.
          const response = await fetch(`${url}${write.kind === 'create' ? '/posts' : `/posts/${write.id}`}`, {
            ...init,
            signal: AbortSignal.timeout(10_000),
          });
          await response.arrayBuffer();
          write.status = response.status;
        } catch {
          // The server went away mid-write: this write's fate is unknown; a breath before the next.
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    }),
  );
  return writes;
}

// The state of a post as the check compares it: its title, or absent.
const ABSENT = Symbol('absent');
type State = string | typeof ABSENT;

/**
 * Checks the store after the kill, post by post. A post nobody wrote to is as it was. For a
 * post the writes touched (one writer each, so one write at a time), the state is the effect of
 * its last acknowledged write (or what was there before, if none), or of one of the unanswered
 * writes after it, which may or may not have been applied; a write answered 4xx changed nothing.
 */
function checkSurvivors(before: Map<string, Post>, writes: readonly Write[], after: Map<string, Post>): void {
  const histories = new Map<string, Write[]>();
  for (const write of writes) histories.set(write.id, [...(histories.get(write.id) ?? []), write]);
  const state = (posts: Map<string, Post>, id: string): State => posts.get(id)?.title ?? ABSENT;
  for (const id of new Set([...before.keys(), ...after.keys(), ...histories.keys()])) {
    const history = histories.get(id) ?? [];
    let expected: State = state(before, id);
    let possible: State[] = [expected];
    for (const write of history) {
      const effect: State = write.kind === 'destroy' ? ABSENT : write.title;
      if (write.status === undefined) possible.push(effect);
      else if (write.status < 300) possible = [(expected = effect)];
    }
    const found = state(after, id);
    assert.ok(
      possible.includes(found),
      `${id}: the store holds ${String(found)}, the acknowledged state is ${String(expected)}` +
        (possible.length > 1
          ? ` (or an unanswered write's: ${possible.slice(1).map(String).join(', ')})`
          : ''),
    );
  }
}

async function seed(url: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    const response = await fetch(`${url}/posts`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ id, title: `seeded ${id}` }),
    });
    assert.is(response.status, 201);
  }
}

const until = async (ready: () => boolean, ms: number, what: string): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const SEEDS = Array.from({ length: 24 }, (_, i) => `seed-${i}`);
const acknowledged = (writes: readonly Write[]) =>
  writes.filter((w) => w.status !== undefined && w.status < 300).length;

const embedded = suite('examples/posts on PGlite (DATA_DIR)');

embedded(
  'the contract, then a SIGKILL mid-burst: after a restart every acknowledged write is there, and nothing else',
  async () => {
    const dataDir = await createdDataDir();
    const first = await start('node', EXAMPLE, { PORT: '0', DATA_DIR: dataDir }, 60);
    await postsContract(first.url, { deterministic: false });
    await seed(first.url, SEEDS);
    const before = await everyPost(first.url);

    let killed = false;
    const writes: Write[] = [];
    const writing = burst(first.url, 8, SEEDS, () => killed, writes);
    // Kill once plenty is acknowledged (watched, not waited for by the clock), with writes certainly in flight.
    await until(() => acknowledged(writes) > 60, 30_000, 'sixty acknowledged writes');
    first.child.kill('SIGKILL');
    await first.exited;
    killed = true;
    await writing;
    assert.ok(existsSync(join(dataDir, 'lock')), 'the killed process left its lock (as a crash would)');

    // The stale lock is taken over; the data is read back by a new process.
    const second = await start('node', EXAMPLE, { PORT: '0', DATA_DIR: dataDir }, 60);
    try {
      checkSurvivors(before, writes, await everyPost(second.url));

      // A second process on the same folder is refused while this one runs.
      const other = await refused({ PORT: '0', DATA_DIR: dataDir });
      assert.is(other.code, 1);
      assert.match(other.stderr, new RegExp(`in use by process ${second.child.pid}`));
      assert.match(other.stderr, /DATABASE_URL/);
    } finally {
      assert.equal(await stop(second), [0, null]);
    }
    assert.not.ok(existsSync(join(dataDir, 'lock')), 'a clean stop releases the lock');
  },
);

embedded('WORKERS=2 without DATABASE_URL is refused with a message that names DATABASE_URL', async () => {
  const { code, stderr } = await refused({ PORT: '0', WORKERS: '2', DATA_DIR: freshDataDir() });
  assert.is(code, 1);
  assert.match(stderr, /^WORKERS=2 needs DATABASE_URL/);
});

embedded.run();

const server = needs(
  needPostgres('examples/posts on a PostgreSQL server (test/examples/persistence.test.ts)'),
  suite('examples/posts on a PostgreSQL server, WORKERS=2'),
);
let postgres: Postgres;
server.before(async () => void (postgres = await sharedPostgres()));

server(
  'the contract; then concurrent creates of one id give exactly one 201 across the processes',
  async () => {
    const url = await postgres.database('contract');
    const app = await start('node', EXAMPLE, { PORT: '0', WORKERS: '2', DATABASE_URL: url });
    try {
      assert.is(workersOf(app).length, 2);
      await postsContract(app.url, { deterministic: false });
      // Each request on a connection of its own, so the primary hands them to both workers.
      const statuses = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          fetch(`${app.url}/posts`, {
            method: 'POST',
            headers: { ...JSON_TYPE, connection: 'close' },
            body: JSON.stringify({ id: 'contested', title: `writer ${i}` }),
          }).then((response) => response.status),
        ),
      );
      assert.equal(
        statuses.filter((status) => status !== 409),
        [201],
      );
    } finally {
      assert.equal(await stop(app), [0, null]);
    }
  },
);

server(
  'SIGKILL one worker mid-burst: the other keeps serving, the primary replaces it, nothing acknowledged is lost',
  async () => {
    const url = await postgres.database('kill');
    const app = await start('node', EXAMPLE, { PORT: '0', WORKERS: '2', DATABASE_URL: url });
    try {
      await seed(app.url, SEEDS);
      const before = await everyPost(app.url);
      const [victim, survivor] = workersOf(app) as [number, number];

      let done = false;
      const writes: Write[] = [];
      const writing = burst(app.url, 8, SEEDS, () => done, writes);
      await until(() => acknowledged(writes) > 40, 30_000, 'forty acknowledged writes');
      process.kill(victim, 'SIGKILL');
      // The primary forks a replacement, which announces itself by listening.
      await until(
        () => workersOf(app).length === 2 && !workersOf(app).includes(victim),
        15_000,
        'a replacement worker',
      );
      const replacement = workersOf(app).find((pid) => pid !== survivor);
      assert.ok(replacement !== undefined && replacement !== victim);
      // Writing goes on until forty more writes, sent once the replacement was there, have been answered.
      const replaced = writes.length;
      await until(
        () => writes.slice(replaced).filter((w) => w.status !== undefined).length >= 40,
        30_000,
        'forty answers after the replacement',
      );
      done = true;
      await writing;

      // Service went on: writes sent after the kill were answered.
      const answeredAfter = writes.slice(-40).filter((w) => w.status !== undefined);
      assert.ok(
        answeredAfter.length >= 30,
        `only ${answeredAfter.length} of the last 40 writes were answered`,
      );
      assert.match(app.stderr(), new RegExp(`worker ${victim} exited \\(SIGKILL\\); starting another`));
      checkSurvivors(before, writes, await everyPost(app.url));
    } finally {
      assert.equal(await stop(app), [0, null]);
    }
  },
);

server.run();
