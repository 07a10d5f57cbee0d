import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postsContainer, postsResource } from '../examples/posts/app.js';
import type { PostRepository } from '../examples/posts/repository.js';
import { POST_REPOSITORY } from '../examples/posts/tokens.js';
import { deterministicPosts } from './support/posts.js';
import { json, raw, type RawRequest, type RawResponse } from './support/http.js';
import { ADAPTERS } from './support/servers.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' };
const ACCEPT_JSON = { Accept: 'application/json' };

/** Runs the spec against one server, asserting as it goes; returns every response's bytes. */
async function scenario(url: string): Promise<string[]> {
  const wires: string[] = [];
  const call = async (request: RawRequest, status: number): Promise<RawResponse> => {
    const response = await raw(url, request);
    assert.is(
      response.status,
      status,
      `${request.method ?? 'GET'} ${request.path} ${request.body ?? ''}`.slice(0, 200),
    );
    if (status >= 400) {
      assert.is(response.headers['content-type'], 'application/problem+json');
      assert.is(json(response).status, status);
    }
    wires.push(response.wire);
    return response;
  };
  const post = (body: string, status: number, headers: Record<string, string> = JSON_TYPE) =>
    call({ method: 'POST', path: '/posts', headers, body }, status);

  // index, empty
  assert.equal(json(await call({ path: '/posts' }, 200)), []);

  // create: JSON with a client id; the title is trimmed, body defaults, unknown fields ignored
  const hello = await post('{"id":"hello","title":"  Hello  ","admin":true}', 201);
  assert.is(hello.headers.location, '/posts/hello');
  assert.equal(json(hello), {
    id: 'hello',
    title: 'Hello',
    body: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  // create: a form without id gets a server id
  const form = await post('title=From+a+form&body=text', 201, FORM_TYPE);
  assert.is(json(form).id, 'gen-1');
  assert.is(form.headers.location, '/posts/gen-1');
  assert.is(json(form).body, 'text');

  // create: errors
  assert.match(json(await post('{"id":"hello","title":"again"}', 409)).detail, /hello/);
  assert.equal(json(await post('{"body":"no title"}', 422)).errors, { title: ['is required'] });
  assert.equal(json(await post('{"title":"   "}', 422)).errors, { title: ['is required'] });
  assert.ok(json(await post(JSON.stringify({ title: 't'.repeat(201) }), 422)).errors.title);
  await post(JSON.stringify({ id: 'long-title', title: '✓'.repeat(200) }), 201);
  assert.ok(json(await post(JSON.stringify({ title: 't', body: 'b'.repeat(100_001) }), 422)).errors.body);
  assert.ok(json(await post('{"title":"t","body":7}', 422)).errors.body);
  assert.ok(json(await post('{"title":7}', 422)).errors.title);
  assert.ok(json(await post('{"id":"bad id!","title":"t"}', 422)).errors.id);
  assert.ok(json(await post(JSON.stringify({ id: 'x'.repeat(65), title: 't' }), 422)).errors.id);
  await post('[{"title":"t"}]', 422);
  await post('"just a string"', 422);
  await post('{"title":', 400);
  await post('', 400);
  await post('{"__proto__":{"title":"x"}}', 400);
  await post('title=x', 415, { 'Content-Type': 'text/plain' });
  await post(JSON.stringify({ title: 't', body: 'b'.repeat(1024 * 1024) }), 413);

  // show, new, edit
  assert.is(json(await call({ path: '/posts/hello' }, 200)).title, 'Hello');
  await call({ path: '/posts/absent' }, 404);
  await call({ path: '/posts/__proto__' }, 404);
  await call({ path: '/posts/constructor' }, 404);
  await call({ path: '/posts/%E0%A4%A' }, 400);
  assert.equal(json(await call({ path: '/posts/fresh-one/new', headers: ACCEPT_JSON }, 200)), {
    id: 'fresh-one',
    title: '',
    body: '',
  });
  await call({ path: '/posts/bad.id/new', headers: ACCEPT_JSON }, 400);
  assert.is(json(await call({ path: '/posts/hello/edit', headers: ACCEPT_JSON }, 200)).id, 'hello');
  await call({ path: '/posts/absent/edit', headers: ACCEPT_JSON }, 404);

  // update: full replacement
  const put = (path: string, body: string, status: number, headers: Record<string, string> = JSON_TYPE) =>
    call({ method: 'PUT', path, headers, body }, status);
  const updated = json(await put('/posts/gen-1', '{"title":"Renamed"}', 200));
  assert.equal(updated, {
    id: 'gen-1',
    title: 'Renamed',
    body: '',
    createdAt: '2026-01-01T00:00:00.001Z',
    updatedAt: updated.updatedAt,
  });
  assert.ok(updated.updatedAt > updated.createdAt);
  assert.is(json(await put('/posts/gen-1', 'title=Form+put&body=b', 200, FORM_TYPE)).body, 'b');
  await put('/posts/gen-1', '{"id":"gen-1","title":"Same id"}', 200);
  assert.ok(json(await put('/posts/gen-1', '{"id":"other","title":"x"}', 422)).errors.id);
  assert.equal(json(await put('/posts/gen-1', '{"id":"other","title":""}', 422)).errors, {
    id: ['must match the id in the path'],
    title: ['is required'],
  });
  await put('/posts/gen-1', '{"title":""}', 422);
  await put('/posts/absent', '{"title":"x"}', 404);
  await put('/posts/gen-1', 'x', 415, { 'Content-Type': 'text/csv' });
  assert.is(json(await call({ path: '/posts/gen-1' }, 200)).title, 'Same id');

  // index: order, paging, Link, bad values
  for (const id of ['c', 'b', 'a']) await post(JSON.stringify({ id, title: id }), 201);
  const all = await call({ path: '/posts' }, 200);
  assert.equal(
    json(all).map((p: { id: string }) => p.id),
    ['hello', 'gen-1', 'long-title', 'c', 'b', 'a'],
  );
  assert.is(all.headers.link, undefined);
  const page = await call({ path: '/posts?limit=2&offset=1' }, 200);
  assert.equal(
    json(page).map((p: { id: string }) => p.id),
    ['gen-1', 'long-title'],
  );
  assert.is(page.headers.link, '</posts?limit=2&offset=3>; rel="next"');
  assert.is((await call({ path: '/posts?limit=2&offset=4' }, 200)).headers.link, undefined);
  assert.equal(json(await call({ path: '/posts?offset=10' }, 200)), []);
  for (const query of [
    'limit=0',
    'limit=101',
    'limit=abc',
    'limit=1.5',
    'limit=-1',
    'limit=',
    'offset=-1',
    'offset=x',
    'limit=1&limit=2',
  ]) {
    await call({ path: `/posts?${query}` }, 400);
  }

  // protocol answers
  const head = await call({ method: 'HEAD', path: '/posts' }, 200);
  assert.is(head.body, '');
  assert.is(head.headers['content-length'], all.headers['content-length']);
  assert.is(
    (await call({ method: 'OPTIONS', path: '/posts' }, 204)).headers.allow,
    'GET, HEAD, POST, OPTIONS',
  );
  assert.is(
    (await call({ method: 'DELETE', path: '/posts' }, 405)).headers.allow,
    'GET, HEAD, POST, OPTIONS',
  );
  await call({ path: '/nowhere' }, 404);

  // destroy
  const gone = await call({ method: 'DELETE', path: '/posts/hello' }, 204);
  assert.is(gone.body, '');
  await call({ method: 'DELETE', path: '/posts/hello' }, 404);
  await call({ path: '/posts/hello' }, 404);
  return wires;
}

test('examples/posts :: the spec, answered the same, byte for byte, on every adapter', async () => {
  const runs: Array<[string, string[]]> = [];
  for (const adapter of ADAPTERS) {
    const running = await adapter.start(deterministicPosts());
    try {
      runs.push([adapter.name, await scenario(running.url)]);
    } catch (error) {
      (error as Error).message = `[${adapter.name}] ${(error as Error).message}`;
      throw error;
    } finally {
      await running.close();
    }
  }
  const [[firstName, first], ...rest] = runs as [[string, string[]], ...Array<[string, string[]]>];
  for (const [name, wires] of rest) {
    wires.forEach((wire, i) =>
      assert.is(wire, first[i], `${name} differs from ${firstName} at response ${i}`),
    );
  }
});

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
      { id, title: 'fixed', body: '', createdAt: 'then', updatedAt: 'then' }
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
