// examples/posts, JSON side: its contract on every adapter, the index's order, and the seams of its container
// (routes, store, token).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postsContainer, postsOptions, postsResource } from '../../examples/posts/app.js';
import type { PostRepository } from '../../examples/posts/repository.js';
import { routesOf } from '../../examples/posts/routes.js';
import { POST_REPOSITORY, POSTS_ROUTES } from '../../examples/posts/tokens.js';
import { unreachableIds } from '../../core/index.js';
import { deterministicPosts, served } from '../support/posts.js';
import { postsContract, sameOnEveryAdapter } from '../support/posts-contract.js';
import { json, raw } from '../support/http.js';
import { inProcess, quietHandler } from '../support/in-process.js';
import { startAll } from '../support/servers.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };

test('examples/posts :: the spec, answered the same, byte for byte, on every adapter', () =>
  sameOnEveryAdapter(postsContract));

// The order is the app's, not the wire's: answered in process (the contract above holds every adapter to it).
test('examples/posts :: index orders posts created at the same instant by id', async () => {
  const handler = quietHandler(deterministicPosts(() => new Date(Date.UTC(2026, 0, 1))));
  for (const id of ['m', 'z', 'a']) {
    const created = await inProcess(handler, {
      method: 'POST',
      path: '/posts',
      headers: JSON_TYPE,
      body: JSON.stringify({ id, title: id }),
    });
    assert.is(created.status, 201, created.body);
  }
  assert.equal(
    json(await inProcess(handler, { path: '/posts' })).map((p: { id: string }) => p.id),
    ['a', 'm', 'z'],
  );
});

test('examples/posts :: the controller reads its paths and unreachable ids from the finished resource, registered before it as a function', () => {
  const app = postsContainer();
  const posts = postsResource(app);
  const routes = app.resolve(POSTS_ROUTES)();
  // The spec's seven routes shadow no id, so the example's own set is empty.
  assert.equal([...routes.unreachableIds], []);
  assert.equal([...routes.unreachableIds], [...unreachableIds(posts, posts)]);
  assert.is(routes.paths.posts.show({ post_id: 'a b' }), '/posts/a%20b');
  assert.equal(routes.paths.posts.update.form({ post_id: 'x' }).fields, { _method: 'PUT' });
});

test('examples/posts :: an id no member route could be reached with is refused with 422', async () => {
  // With a static route where an id goes (a collection action such as search), that id is refused.
  const app = postsContainer();
  app.register(POSTS_ROUTES, {
    useValue: () => ({ ...routesOf(postsResource()), unreachableIds: new Set(['search']) }),
  });
  const posts = postsResource(app);
  const servers = await startAll(posts, postsOptions(posts));
  try {
    for (const { name, running } of servers) {
      const refused = await raw(running.url, {
        method: 'POST',
        path: '/posts',
        headers: { 'Content-Type': 'application/json' },
        body: '{"id":"search","title":"t"}',
      });
      assert.is(refused.status, 422, name);
      assert.equal(json(refused).errors, {
        id: ['is the path of another route: /posts/search would never show this post'],
      });
      const taken = await raw(running.url, {
        method: 'POST',
        path: '/posts',
        headers: { 'Content-Type': 'application/json' },
        body: `{"id":"searching-${name.replace(/\W/g, '')}","title":"t"}`,
      });
      assert.is(taken.status, 201, `${name} ${taken.body}`);
    }
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

test('examples/posts :: another repository registered under POST_REPOSITORY replaces the store', async () => {
  const calls: string[] = [];
  const readOnly: PostRepository = {
    list: async (limit, offset) => (calls.push(`list ${limit} ${offset}`), { posts: [], total: 0 }),
    get: async (id) => (
      calls.push(`get ${id}`),
      {
        id,
        title: 'fixed',
        body: '',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }
    ),
    insert: async () => (calls.push('insert'), false),
    replace: async () => false,
    remove: async () => false,
  };
  const app = postsContainer();
  app.register(POST_REPOSITORY, { useValue: readOnly });
  // Which store answers is the container's business, so no socket: the handler answers in process.
  const handler = quietHandler(postsResource(app));
  assert.is(json(await inProcess(handler, { path: '/posts/any' })).title, 'fixed');
  assert.is(
    (
      await inProcess(handler, {
        method: 'POST',
        path: '/posts',
        headers: JSON_TYPE,
        body: '{"id":"x","title":"t"}',
      })
    ).status,
    409,
  );
  assert.equal(json(await inProcess(handler, { path: '/posts?limit=5' })), []);
  assert.equal(calls, ['get any', 'insert', 'list 5 0']);
});

test('examples/posts :: with POSTS_TOKEN set, writes need the bearer token; reads and an unset token do not', async () => {
  const servers = await startAll(...served());
  const saved = process.env.POSTS_TOKEN;
  process.env.POSTS_TOKEN = 's3cret';
  try {
    for (const { name, running } of servers) {
      const write = (headers: Record<string, string>, method = 'POST', path = '/posts') =>
        raw(running.url, {
          method,
          path,
          headers: { ...JSON_TYPE, ...headers },
          body: '{"id":"t","title":"t"}',
        });
      const none = await write({});
      assert.is(none.status, 401, name);
      assert.is(none.headers['www-authenticate'], 'Bearer', name);
      const wrong = await write({ Authorization: 'Bearer nope' });
      assert.is(wrong.status, 401, name);
      assert.is(wrong.headers['www-authenticate'], 'Bearer error="invalid_token"', name);
      assert.is((await write({ Authorization: 'Bearer s3cret' })).status, 201, name);
      assert.is((await write({}, 'PUT', '/posts/t')).status, 401, name);
      assert.is((await raw(running.url, { method: 'DELETE', path: '/posts/t' })).status, 401, name);
      assert.is((await raw(running.url, { path: '/posts/t' })).status, 200, name);
      const gone = await raw(running.url, {
        method: 'DELETE',
        path: '/posts/t',
        headers: { Authorization: 'bearer s3cret' },
      });
      assert.is(gone.status, 204, name);
    }
    delete process.env.POSTS_TOKEN;
    for (const { name, running } of servers) {
      const open = await raw(running.url, {
        method: 'POST',
        path: '/posts',
        headers: JSON_TYPE,
        body: '{"title":"t"}',
      });
      assert.is(open.status, 201, name);
    }
  } finally {
    if (saved === undefined) delete process.env.POSTS_TOKEN;
    else process.env.POSTS_TOKEN = saved;
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

test.run();
