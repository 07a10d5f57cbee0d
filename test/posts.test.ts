import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postsContainer, postsResource } from '../examples/posts/app.js';
import type { PostRepository } from '../examples/posts/repository.js';
import { POST_REPOSITORY } from '../examples/posts/tokens.js';
import { deterministicPosts } from './support/posts.js';
import { postsContract, sameOnEveryAdapter } from './support/contract.js';
import { json, raw } from './support/http.js';
import { ADAPTERS } from './support/servers.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };

test('examples/posts :: the spec, answered the same, byte for byte, on every adapter', () =>
  sameOnEveryAdapter(postsContract));

test('examples/posts :: index orders posts created at the same instant by id', async () => {
  const running = await ADAPTERS[0]!.start(deterministicPosts(() => new Date(Date.UTC(2026, 0, 1))));
  try {
    for (const id of ['m', 'z', 'a']) {
      await raw(running.url, {
        method: 'POST',
        path: '/posts',
        headers: JSON_TYPE,
        body: JSON.stringify({ id, title: id }),
      });
    }
    assert.equal(
      json(await raw(running.url, { path: '/posts' })).map((p: { id: string }) => p.id),
      ['a', 'm', 'z'],
    );
  } finally {
    await running.close();
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
  const running = await ADAPTERS[0]!.start(postsResource(app));
  try {
    assert.is(json(await raw(running.url, { path: '/posts/any' })).title, 'fixed');
    assert.is(
      (
        await raw(running.url, {
          method: 'POST',
          path: '/posts',
          headers: JSON_TYPE,
          body: '{"id":"x","title":"t"}',
        })
      ).status,
      409,
    );
    assert.equal(json(await raw(running.url, { path: '/posts?limit=5' })), []);
    assert.equal(calls, ['get any', 'insert', 'list 5 0']);
  } finally {
    await running.close();
  }
});

test.run();
