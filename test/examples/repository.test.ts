import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { migrate, MIGRATIONS, SchemaTooNewError } from '../../examples/posts/deploy/migrations.js';
import type { Post } from '../../examples/posts/post.js';
import { PostgresPostRepository } from '../../examples/posts/deploy/postgres.js';
import { MemoryPostRepository, type PostRepository } from '../../examples/posts/repository.js';
import { quietHandler } from '../support/in-process.js';
import { postsContract } from '../support/posts-contract.js';
import { needs, type Need } from '../support/needs.js';
import { needPostgres, sharedPostgres, type Postgres } from '../support/postgres.js';
import { deterministicPosts } from '../support/posts.js';
import { refused } from '../support/spawn.js';

/**
 * One contract for every PostRepository: memory, PGlite (PostgreSQL in WASM) and a PostgreSQL
 * server run the same checks, and the spec's HTTP exchanges answered on each store (in process) are
 * byte for byte the same as on memory.
 */

const at = (ms: number): string => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
const make = (id: string, ms = 0, title = id): Post => ({
  id,
  title,
  body: `body of ${id}`,
  createdAt: at(ms),
  updatedAt: at(ms),
});

/** A store under test: an empty repository per call, and how to let go of everything at the end. */
interface Store {
  empty(): Promise<PostRepository>;
  close(): Promise<void>;
}

/** The bytes of the spec answered on memory, which every database store must repeat. */
let memoryWires: string[] | undefined;

// Answered in process: what is compared is what each store makes the app say, which no socket changes.
function contractWires(repository: PostRepository): Promise<string[]> {
  return postsContract(quietHandler(deterministicPosts(undefined, repository)), { deterministic: true });
}

function storeSuite(name: string, open: () => Promise<Store>, need?: Need): void {
  const plain = suite(`PostRepository on ${name}`);
  const it = need === undefined ? plain : needs(need, plain);
  let store: Store | undefined;
  it.before(async () => void (store = await open()));
  it.after(async () => void (await store?.close()));
  const check = (title: string, body: (repository: PostRepository) => Promise<void>) =>
    it(title, async () => body(await store!.empty()));

  check('starts empty', async (repository) => {
    assert.equal(await repository.list(10, 0), { posts: [], total: 0 });
    assert.is(await repository.get('absent'), undefined);
  });

  check(
    'insert stores a post and get gives it back unchanged; a taken id is refused and kept',
    async (repository) => {
      const post = { ...make('hello'), title: 'Quotes \' " \\ and 😀 é', body: 'x'.repeat(100_000) };
      assert.is(await repository.insert(post), true);
      assert.equal(await repository.get('hello'), post);
      assert.is(await repository.insert({ ...post, title: 'again' }), false);
      assert.is((await repository.get('hello'))!.title, post.title);
      assert.is(await repository.get('HELLO'), undefined);
    },
  );

  check('replace changes a stored post only; remove deletes once', async (repository) => {
    await repository.insert(make('a'));
    const renamed = { ...make('a'), title: 'renamed', updatedAt: at(5) };
    assert.is(await repository.replace(renamed), true);
    assert.equal(await repository.get('a'), renamed);
    assert.is(await repository.replace(make('absent')), false);
    assert.is(await repository.get('absent'), undefined);
    assert.is(await repository.remove('a'), true);
    assert.is(await repository.remove('a'), false);
    assert.is(await repository.get('a'), undefined);
  });

  check(
    'list is oldest first, then by id in code-unit order, whatever the locale; limit, offset, total',
    async (repository) => {
      // At one instant, ids sort as JavaScript compares strings (byAge), not as a locale would.
      for (const id of ['b', '_x', 'Z9', 'a', '-y', 'B']) await repository.insert(make(id, 10));
      await repository.insert(make('zz-oldest', 0));
      await repository.insert(make('00-newest', 20));
      const ids = (page: { posts: readonly Post[] }) => page.posts.map((post) => post.id);
      const all = await repository.list(100, 0);
      assert.equal(ids(all), ['zz-oldest', '-y', 'B', 'Z9', '_x', 'a', 'b', '00-newest']);
      assert.is(all.total, 8);
      assert.equal(await repository.list(3, 2), { posts: all.posts.slice(2, 5), total: 8 });
      assert.equal(await repository.list(5, 8), { posts: [], total: 8 });
    },
  );

  check(
    'concurrent inserts of one id: exactly one wins; concurrent distinct inserts all land',
    async (repository) => {
      const racing = await Promise.all(
        Array.from({ length: 40 }, (_, i) => repository.insert(make('contested', 0, `writer ${i}`))),
      );
      assert.is(racing.filter(Boolean).length, 1);
      const winner = racing.indexOf(true);
      assert.is((await repository.get('contested'))!.title, `writer ${winner}`);
      const distinct = await Promise.all(
        Array.from({ length: 100 }, (_, i) => repository.insert(make(`p${i}`, i))),
      );
      assert.ok(distinct.every(Boolean));
      assert.is((await repository.list(1, 0)).total, 101);
    },
  );

  check('the spec over HTTP answers the same bytes as on memory', async (repository) => {
    const wires = await contractWires(repository);
    memoryWires ??= wires;
    assert.is(wires.length, memoryWires.length);
    wires.forEach((wire, i) => assert.is(wire, memoryWires![i], `response ${i} differs from memory's`));
  });

  it.run();
}

storeSuite('memory', async () => ({ empty: async () => new MemoryPostRepository(), close: async () => {} }));

/** A pool over PGlite `memory://`: one instance per file (each start runs initdb), emptied between tests. */
storeSuite('PGlite', async () => {
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  const lite: PGlite = await PGlite.create('memory://');
  const pool = new pg.Pool(createPgConfig(lite) as pg.PoolConfig);
  assert.equal(
    await migrate(pool),
    MIGRATIONS.map((step) => step.version),
  );
  return {
    empty: async () => {
      await pool.query('TRUNCATE posts');
      return new PostgresPostRepository(pool);
    },
    close: async () => {
      await pool.end();
      await lite.close();
    },
  };
});

const onServer = needPostgres('the PostgreSQL server half (test/examples/repository.test.ts)');
let server: Postgres;

storeSuite(
  'a PostgreSQL server',
  async () => {
    server = await sharedPostgres();
    const pool = new pg.Pool({ connectionString: await server.database('repository'), max: 20 });
    await migrate(pool);
    return {
      empty: async () => {
        await pool.query('TRUNCATE posts');
        return new PostgresPostRepository(pool);
      },
      close: async () => pool.end(),
    };
  },
  onServer,
);

const migrations = needs(onServer, suite('migrations on a PostgreSQL server'));

migrations(
  'processes starting at once apply each step exactly once; a later start applies nothing',
  async () => {
    const url = await server.database('migrations');
    const pools = Array.from({ length: 6 }, () => new pg.Pool({ connectionString: url, max: 1 }));
    try {
      const ran = await Promise.all(pools.map((pool) => migrate(pool)));
      const all = MIGRATIONS.map((step) => step.version);
      assert.equal(
        ran.filter((versions) => versions.length > 0),
        [all],
      );
      assert.equal(await migrate(pools[0]!), []);
      const recorded = await pools[0]!.query('SELECT version FROM schema_migrations ORDER BY version');
      assert.equal(
        recorded.rows.map((row) => row.version),
        all,
      );
      // The ordered text columns compare by code unit on any server, whatever its default collation.
      const collations = await pools[0]!.query(
        "SELECT column_name, collation_name FROM information_schema.columns WHERE table_name = 'posts' AND collation_name IS NOT NULL ORDER BY column_name",
      );
      assert.equal(collations.rows, [
        { column_name: 'created_at', collation_name: 'C' },
        { column_name: 'id', collation_name: 'C' },
      ]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  },
);

migrations('a failing step rolls back whole and is retried by the next start', async () => {
  const url = await server.database('broken');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    // A table named posts already there makes step 1 fail; nothing of it may stay behind.
    await pool.query('CREATE TABLE posts (unrelated int)');
    await migrate(pool).then(
      () => assert.unreachable('migrated over a conflicting table'),
      (error: Error) => assert.match(error.message, /posts/),
    );
    const recorded = await pool.query("SELECT to_regclass('schema_migrations') AS t");
    assert.is(recorded.rows[0].t, null);
    await pool.query('DROP TABLE posts');
    assert.equal(
      await migrate(pool),
      MIGRATIONS.map((step) => step.version),
    );
  } finally {
    await pool.end();
  }
});

migrations(
  'a database that records a step this code does not know is refused, and left as it was',
  async () => {
    const url = await server.database('newer');
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      await migrate(pool);
      const next = Math.max(...MIGRATIONS.map((step) => step.version)) + 1;
      await pool.query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 'later')", [next]);
      await migrate(pool).then(
        () => assert.unreachable('ran on a schema newer than the code'),
        (error: Error) => {
          assert.instance(error, SchemaTooNewError);
          assert.match(
            error.message,
            new RegExp(`newer than this code: schema_migrations records step ${next}`),
          );
        },
      );
      const recorded = await pool.query('SELECT count(*)::int AS n FROM schema_migrations');
      assert.is(recorded.rows[0].n, MIGRATIONS.length + 1);

      // The example itself stops at start with that message and exit 1.
      const { code, stderr } = await refused({ PORT: '0', DATABASE_URL: url });
      assert.is(code, 1);
      assert.match(stderr, /^cannot open the posts store: the database's schema is newer than this code/);
    } finally {
      await pool.end();
    }
  },
);

migrations.run();
