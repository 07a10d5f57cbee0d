import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatRoutes, paths, unreachableIds } from '../../core/index.js';
import { blogApp } from '../../examples/blog/app.js';
import { blog } from '../../examples/blog/table.js';
import { exchanges, sameWires } from '../support/wires.js';
import { expectProblem, json, type RawRequest, type RawResponse } from '../support/http.js';
import { ROOT } from '../support/paths.js';
import { needs } from '../support/needs.js';
import { needRuntimes } from '../support/runtimes.js';
import { start, stop } from '../support/spawn.js';
import { main } from '../../adapters/cli.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' };
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

// Every link below is what the table's own helpers give: the app must send exactly these.
const p = paths(blog);
const postLinks = (post_id: string) => ({
  self: p.posts.show({ post_id }),
  comments: p.comments.index({ post_id }),
  publish: p.posts.publish({ post_id }),
});
const commentLinks = (comment_id: string, post_id: string) => ({
  self: p.comments.show({ comment_id }),
  post: p.posts.show({ post_id }),
});
const profileLinks = () => ({ self: p.profile.show(), posts: p.posts.index() });

/**
 * The example with a clock one millisecond apart per call and numbered ids, so every adapter answers the same
 * bytes.
 */
function deterministicBlog() {
  let tick = Date.UTC(2026, 0, 1);
  let serial = 0;
  return blogApp({ now: () => new Date(tick++), newId: () => `gen-${++serial}` });
}

const sendJson = (method: string, path: string, body: unknown): RawRequest => ({
  method,
  path,
  headers: JSON_TYPE,
  body: JSON.stringify(body),
});
const ids = (response: RawResponse) => json(response).map((item: { id: string }) => item.id);

/** Every link, form action and Location the blog sent, to check that each is a path under /blog. */
function sentPaths(response: RawResponse): string[] {
  const found: string[] = [];
  if (response.headers.location !== undefined) found.push(response.headers.location);
  if (!response.headers['content-type']?.startsWith('application/json')) return found;
  for (const item of [json(response)].flat()) {
    const { links, form } = (item ?? {}) as { links?: Record<string, string>; form?: { action: string } };
    if (links !== undefined) found.push(...Object.values(links));
    if (form !== undefined) found.push(form.action);
  }
  return found;
}

/** The blog's JSON contract against one server whose store starts empty; returns every response's bytes. */
async function blogContract(url: string, deterministic = true): Promise<{ wires: string[]; sent: string[] }> {
  const sent: string[] = [];
  // The n-th generated id: `gen-n` from deterministicBlog(), a UUID from the app as it runs.
  const generatedId = (id: unknown, n: number): string => {
    if (deterministic) assert.is(id, `gen-${n}`);
    else assert.match(String(id), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    return id as string;
  };
  const { wires, expect } = exchanges(url, {
    deterministic,
    // The Worker (the one run that is not deterministic) is served by workerd, which keeps connections open.
    firstAnswer: !deterministic,
    onExchange: (_, response) => sent.push(...sentPaths(response)),
  });
  const problem = async (request: RawRequest, status: number, detail?: RegExp) => {
    const response = await expect(request, status);
    expectProblem(status, detail)(response);
    return json(response);
  };

  // Posts: create, show, index, search.
  assert.equal(json(await expect({ path: p.posts.index() }, 200)), []);
  const created = await expect(
    sendJson('POST', p.posts.create(), { id: 'hello', title: '  Hello  ', body: 'The first post.' }),
    201,
  );
  assert.is(created.headers.location, p.posts.show({ post_id: 'hello' }));
  const hello = json(created);
  assert.equal(hello.links, postLinks('hello'));
  assert.is(hello.title, 'Hello');
  assert.is(hello.publishedAt, null);
  assert.match(hello.createdAt, ISO_TIME);
  const generated = await expect(
    sendJson('POST', p.posts.create(), { title: 'On search', body: 'How SEARCH works.' }),
    201,
  );
  const gen1 = generatedId(json(generated).id, 1);
  assert.is(generated.headers.location, p.posts.show({ post_id: gen1 }));
  assert.equal(json(generated).links, postLinks(gen1));

  const taken = await problem(sendJson('POST', p.posts.create(), { id: 'hello', title: 't' }), 409);
  assert.equal(taken.errors, { id: ['is taken by another post'] });
  // GET /blog/posts/search is the search, so a post with id "search" could never be shown.
  const unreachable = await problem(sendJson('POST', p.posts.create(), { id: 'search', title: 't' }), 422);
  assert.equal(unreachable.errors, {
    id: [`is the path of another route: ${p.posts.show({ post_id: 'search' })} would never show this post`],
  });
  const invalid = await problem(sendJson('POST', p.posts.create(), { title: '   ', extra: 1 }), 422);
  assert.equal(invalid.errors, { title: ['is required'], extra: ['is not allowed'] });

  assert.equal(json(await expect({ path: p.posts.show({ post_id: 'hello' }) }, 200)), hello);
  await problem({ path: p.posts.show({ post_id: 'nope' }) }, 404, /no post with id "nope"/);
  assert.equal(ids(await expect({ path: p.posts.index() }, 200)), ['hello', gen1]);
  assert.equal(ids(await expect({ path: p.posts.search(undefined, { q: 'search' }) }, 200)), [gen1]);
  assert.equal(ids(await expect({ path: p.posts.search(undefined, { q: 'THE FIRST' }) }, 200)), ['hello']);
  assert.equal((await problem({ path: p.posts.search() }, 400)).errors, { q: ['is required'] });

  // new and edit answer the fields and the form that sends them, built by paths().
  assert.equal(json(await expect({ path: p.posts.new({ post_id: 'draft' }) }, 200)), {
    id: 'draft',
    title: '',
    body: '',
    form: p.posts.create.form(),
  });
  await problem({ path: p.posts.new({ post_id: 'not ok!' }) }, 400);
  const edit = json(await expect({ path: p.posts.edit({ post_id: 'hello' }) }, 200));
  assert.equal(edit, {
    id: 'hello',
    title: 'Hello',
    body: 'The first post.',
    form: p.posts.update.form({ post_id: 'hello' }),
  });

  // publish, a member action: once; publishing again keeps the date.
  const published = json(await expect(sendJson('POST', p.posts.publish({ post_id: 'hello' }), {}), 200));
  assert.match(published.publishedAt, ISO_TIME);
  assert.is(published.updatedAt, published.publishedAt);
  const again = json(await expect(sendJson('POST', p.posts.publish({ post_id: 'hello' }), {}), 200));
  assert.is(again.publishedAt, published.publishedAt);
  await problem(sendJson('POST', p.posts.publish({ post_id: 'nope' }), {}), 404);
  await problem({ path: p.posts.publish({ post_id: 'hello' }) }, 405);

  // update on PATCH and PUT: the fields sent change, the others stay.
  const patched = json(
    await expect(sendJson('PATCH', p.posts.update({ post_id: 'hello' }), { body: 'Edited.' }), 200),
  );
  assert.equal(
    [patched.title, patched.body, patched.publishedAt],
    ['Hello', 'Edited.', published.publishedAt],
  );
  const put = json(
    await expect(sendJson('PUT', p.posts.update({ post_id: 'hello' }), { title: 'Hello again' }), 200),
  );
  assert.equal([put.title, put.body], ['Hello again', 'Edited.']);
  const renamed = await problem(sendJson('PATCH', p.posts.update({ post_id: 'hello' }), { id: 'x' }), 422);
  assert.equal(renamed.errors, { id: ['is not allowed'] });
  await problem(sendJson('PUT', p.posts.update({ post_id: 'nope' }), { title: 't' }), 404);

  // What an HTML form sends, as paths().posts.update.form() (and edit) say: POST with _method=PUT.
  const form = p.posts.update.form({ post_id: 'hello' });
  assert.equal(form, { action: '/blog/posts/hello', method: 'POST', fields: { _method: 'PUT' } });
  const fields = new URLSearchParams({ ...form.fields, title: 'Sent by a form' });
  const formed = json(
    await expect(
      { method: form.method, path: form.action, headers: FORM_TYPE, body: fields.toString() },
      200,
    ),
  );
  assert.equal([formed.id, formed.title, formed.body], ['hello', 'Sent by a form', 'Edited.']);
  assert.equal(formed.links, postLinks('hello'));

  const wrongMethod = await expect({ method: 'DELETE', path: p.posts.index() }, 405);
  expectProblem(405)(wrongMethod);
  assert.is(wrongMethod.headers.allow, 'GET, HEAD, POST, OPTIONS');

  // Comments: created and listed under their post, shown, changed and deleted by their own id.
  const comment = await expect(
    sendJson('POST', p.comments.create({ post_id: 'hello' }), { author: 'Ann', body: 'Nice post.' }),
    201,
  );
  const nice = json(comment);
  const gen2 = generatedId(nice.id, 2);
  assert.is(comment.headers.location, p.comments.show({ comment_id: gen2 }));
  assert.equal([nice.postId, nice.author, nice.body], ['hello', 'Ann', 'Nice post.']);
  assert.equal(nice.links, commentLinks(gen2, 'hello'));
  const anonymous = json(
    await expect(sendJson('POST', p.comments.create({ post_id: 'hello' }), { body: 'Me too.' }), 201),
  );
  const gen3 = generatedId(anonymous.id, 3);
  assert.is(anonymous.author, 'anonymous');
  await problem(sendJson('POST', p.comments.create({ post_id: 'nope' }), { body: 'x' }), 404);
  const empty = await problem(sendJson('POST', p.comments.create({ post_id: 'hello' }), {}), 422);
  assert.equal(empty.errors, { body: ['is required'] });
  assert.equal(ids(await expect({ path: p.comments.index({ post_id: 'hello' }) }, 200)), [gen2, gen3]);
  assert.equal(json(await expect({ path: p.comments.index({ post_id: gen1 }) }, 200)), []);
  await problem({ path: p.comments.index({ post_id: 'nope' }) }, 404);
  assert.equal(json(await expect({ path: p.comments.show({ comment_id: gen2 }) }, 200)), nice);
  assert.equal(json(await expect({ path: p.comments.edit({ comment_id: gen2 }) }, 200)), {
    id: gen2,
    body: 'Nice post.',
    form: p.comments.update.form({ comment_id: gen2 }),
  });
  const nicer = json(
    await expect(sendJson('PUT', p.comments.update({ comment_id: gen2 }), { body: 'Nicer post.' }), 200),
  );
  assert.equal([nicer.author, nicer.body, nicer.links], ['Ann', 'Nicer post.', commentLinks(gen2, 'hello')]);
  // Shallow: a comment's own routes are not nested, and comments take no PATCH.
  await problem({ path: `${p.comments.index({ post_id: 'hello' })}/gen-2` }, 404);
  await problem(sendJson('PATCH', p.comments.update({ comment_id: gen2 }), { body: 'x' }), 405);
  await expect({ method: 'DELETE', path: p.comments.destroy({ comment_id: gen3 }) }, 204);
  await problem({ path: p.comments.show({ comment_id: gen3 }) }, 404);
  await problem({ method: 'DELETE', path: p.comments.destroy({ comment_id: gen3 }) }, 404);

  // The profile: one, never named by id.
  await problem({ path: p.profile.show() }, 404, /no profile/);
  await problem(sendJson('PUT', p.profile.update(), { name: 'Ada' }), 404);
  const made = await expect(sendJson('POST', p.profile.create(), { name: 'Ada' }), 201);
  assert.is(made.headers.location, p.profile.show());
  assert.equal([json(made).name, json(made).bio, json(made).links], ['Ada', '', profileLinks()]);
  await problem(sendJson('POST', p.profile.create(), { name: 'Eve' }), 409);
  const changed = json(
    await expect(sendJson('PUT', p.profile.update(), { name: 'Ada Lovelace', bio: 'Writes.' }), 200),
  );
  assert.equal([changed.name, changed.bio], ['Ada Lovelace', 'Writes.']);
  assert.equal(json(await expect({ path: p.profile.show() }, 200)), changed);
  await problem({ path: `${p.profile.show()}/edit` }, 404);
  await expect({ method: 'DELETE', path: p.profile.destroy() }, 204);
  await problem({ path: p.profile.show() }, 404);
  await problem({ method: 'DELETE', path: p.profile.destroy() }, 404);

  // Deleting a post deletes its comments.
  await expect({ method: 'DELETE', path: p.posts.destroy({ post_id: 'hello' }) }, 204);
  await problem({ path: p.comments.show({ comment_id: gen2 }) }, 404);
  await problem({ path: p.comments.index({ post_id: 'hello' }) }, 404);
  await problem({ method: 'DELETE', path: p.posts.destroy({ post_id: 'hello' }) }, 404);
  assert.equal(ids(await expect({ path: p.posts.index() }, 200)), [gen1]);
  // Nothing is served outside the prefix.
  await problem({ path: '/posts' }, 404);
  return { wires, sent };
}

test('examples/blog :: one table under /blog, names unchanged, "search" unreachable as a post id', () => {
  const { table, posts } = blogApp();
  assert.ok(
    table.every((route) => route.path.startsWith('/blog/')),
    'every path starts with /blog/',
  );
  assert.equal(
    table.map((route) => route.name),
    blog.map((route) => route.name),
  );
  assert.equal([...unreachableIds(table, posts)], ['search']);
  assert.is(p.posts.search.pattern, '/blog/posts/search');
  assert.is(p.comments.index.pattern, '/blog/posts/:post_id/comments');
  assert.is(p.comments.show.pattern, '/blog/comments/:comment_id');
  assert.is(p.profile.show.pattern, '/blog/profile');
  assert.equal(
    table.filter((route) => route.action === 'update' && route.resource === 'posts').map((r) => r.method),
    ['PUT', 'PATCH'],
  );
});

test('examples/blog :: the contract over HTTP, answered the same, byte for byte, on node and polka', async () => {
  await sameWires(
    (adapter) => adapter.start(deterministicBlog().table),
    async (url) => {
      const { wires, sent } = await blogContract(url);
      assert.ok(sent.length > 20, `only ${sent.length} links seen`);
      for (const path of sent) assert.ok(path.startsWith('/blog/'), `sent ${path}`);
      return wires;
    },
  );
});

test('examples/blog :: main.ts serves the table on PORT and prints where', async () => {
  const server = await start(process.execPath, ['build/examples/blog/main.js'], { PORT: '0' });
  try {
    const response = await fetch(`${server.url}${p.posts.index()}`);
    assert.is(response.status, 200);
    assert.equal(await response.json(), []);
  } finally {
    assert.equal(await stop(server), [0, null]);
  }
});

const workerd = needRuntimes(['workerd'] as const, 'examples/blog as a Worker (test/examples/blog.test.ts)');

needs(workerd, test)(
  'examples/blog :: runs as a Worker on workerd (`npm run start:worker`) and keeps the contract',
  async () => {
    const server = await start(process.execPath, ['build/examples/blog/serve-worker.js'], { PORT: '0' });
    try {
      const { sent } = await blogContract(server.url, false);
      assert.ok(sent.length > 20, `only ${sent.length} links seen`);
    } finally {
      assert.equal(await stop(server), [0, null]);
    }
  },
);

test('examples/blog/validators.ts :: is what `sevenfold validators` makes of the table (`npm run docs` regenerates it)', async () => {
  let out = '';
  const code = await main(['validators', 'build/examples/blog/table.js'], {
    out: (text) => (out += text),
    err: () => {},
    cwd: ROOT,
  });
  assert.is(code, 0);
  const committed = readFileSync(join(ROOT, 'examples/blog/validators.ts'), 'utf8');
  // The committed file is the TypeScript flavour: the same validators between the same header and footer.
  const body = (text: string) =>
    text.slice(text.indexOf('  const validators = {};'), text.lastIndexOf('  return {'));
  assert.is(
    body(committed),
    body(out),
    'examples/blog/validators.ts is stale: run `npm run docs` to regenerate it',
  );
});

test('docs/blog-routes.md :: is the listing of examples/blog (run `npm run docs` to regenerate)', () => {
  assert.is(
    readFileSync(join(ROOT, 'docs/blog-routes.md'), 'utf8'),
    formatRoutes(blog, 'md'),
    'docs/blog-routes.md is stale: run `npm run docs` to regenerate it',
  );
});

test.run();
