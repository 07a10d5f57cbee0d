import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postsResource } from '../../examples/posts/app.js';
import { ADAPTERS } from '../support/servers.js';

const WORKERS = 16;
const ROUNDS = 12;

interface Post {
  id: string;
  title: string;
}

/** All posts, through the index's paging, following Link headers as a client would. */
async function everything(url: string): Promise<Post[]> {
  const posts: Post[] = [];
  let next: string | undefined = '/posts?limit=100';
  while (next !== undefined) {
    const res: Response = await fetch(url + next);
    assert.is(res.status, 200);
    posts.push(...((await res.json()) as Post[]));
    next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  return posts;
}

for (const adapter of ADAPTERS) {
  test(`examples/posts on ${adapter.name} :: concurrent CRUD keeps every acknowledged write and nothing else`, async () => {
    const running = await adapter.start(postsResource());
    const statuses = new Map<number, number>();
    const model = new Map<string, string>();
    const request = async (method: string, path: string, body?: unknown): Promise<number> => {
      const res = await fetch(running.url + path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      return res.status;
    };
    try {
      // Everyone races to create the same id: exactly one wins.
      const races = await Promise.all(
        Array.from({ length: WORKERS }, (_, w) =>
          request('POST', '/posts', { id: 'shared', title: `by ${w}` }),
        ),
      );
      assert.is(races.filter((s) => s === 201).length, 1);
      assert.is(races.filter((s) => s === 409).length, WORKERS - 1);
      const sharedTitles = new Set<string>([`by ${races.indexOf(201)}`]);

      await Promise.all(
        Array.from({ length: WORKERS }, async (_, w) => {
          for (let round = 0; round < ROUNDS; round++) {
            const id = `w${w}-${round}`;
            assert.is(await request('POST', '/posts', { id, title: `t ${id}` }), 201);
            model.set(id, `t ${id}`);
            if (round % 2 === 0) {
              assert.is(await request('PUT', `/posts/${id}`, { title: `u ${id}` }), 200);
              model.set(id, `u ${id}`);
            }
            if (round % 3 === 0) {
              assert.is(await request('DELETE', `/posts/${id}`), 204);
              model.delete(id);
              assert.is(await request('DELETE', `/posts/${id}`), 404);
            }
            // Contended updates on one post: each is acknowledged, the last one wins.
            const title = `shared ${w}.${round}`;
            assert.is(await request('PUT', '/posts/shared', { title }), 200);
            sharedTitles.add(title);
            assert.is(await request('GET', `/posts/${model.has(id) ? id : 'shared'}`), 200);
          }
        }),
      );

      const stored = await everything(running.url);
      const byId = new Map(stored.map((p) => [p.id, p.title]));
      assert.is(byId.size, stored.length, 'no post listed twice');
      const shared = byId.get('shared');
      assert.ok(
        shared !== undefined && sharedTitles.has(shared),
        `shared post holds an acknowledged title: ${shared}`,
      );
      byId.delete('shared');
      assert.equal(new Map([...byId].sort()), new Map([...model].sort()));
      for (const status of statuses.keys()) assert.ok(status < 500, `a ${status} was answered`);
    } finally {
      await running.close();
    }
  });
}

test.run();
