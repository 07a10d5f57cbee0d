import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { html, HttpError, json, resource, text } from '../../core/index.js';
import { toFetch } from '../../adapters/fetch.js';
import { inProcess, quietHandler, sameAnswer } from '../support/in-process.js';
import { onEvery, withServers } from '../support/servers.js';

// Response schemas on every adapter: only declared fields leave (nested, in arrays, per status), a JSON answer
// of an undeclared status is a reported 500 naming the fix, and what is not JSON is left alone.

const Author = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' } },
} as const;
const Post = {
  type: 'object',
  required: ['id', 'title'],
  properties: { id: { type: 'string' }, title: { type: 'string' }, author: Author },
} as const;
const Missing = { type: 'object', properties: { missing: { type: 'string' } } } as const;

// What a store gives: more than the API promises (a password hash, an internal flag), and a prototype's key.
const record = (id: string) =>
  Object.assign(Object.create({ inherited: 'from the prototype' }) as object, {
    id,
    title: 'Hello',
    passwordHash: '$2b$10$secret',
    author: { name: 'Ada', email: 'ada@example.com' },
  }) as { id: string; title: string; author: { name: string } };

const posts = resource(
  'posts',
  {
    index: () => [record('1'), record('2')],
    show: (req) =>
      req.params.post_id === 'gone'
        ? json({ missing: req.params.post_id, trace: 'internal' }, 404)
        : req.params.post_id === 'teapot'
          ? (json(record('x'), 418) as never)
          : req.params.post_id === 'page'
            ? html(html`<p>${record('p').title}</p>`)
            : req.params.post_id === 'text'
              ? text('plain')
              : req.params.post_id === 'refused'
                ? (() => {
                    throw new HttpError(403, 'not yours');
                  })()
                : record(req.params.post_id),
    create: (req, res) => res.created('/posts/3', record('3')),
  },
  {
    schemas: {
      index: { response: { type: 'array', items: Post } },
      show: { response: { 200: Post, 404: Missing }, html: true, errors: [403] },
      create: { response: Post },
    },
  },
);

const reported: unknown[] = [];
const onError = (error: unknown) => void reported.push(error);
// checkResponses off: the serializer alone keeps the promises here (a text answer is not in the document).
const served = withServers('response schemas', posts, { onError, checkResponses: false });

served(
  'only declared fields leave, nested, in arrays and per status, on every adapter',
  async ({ servers }) => {
    const one = await onEvery(servers, { path: '/posts/1' });
    assert.is(one.body, '{"id":"1","title":"Hello","author":{"name":"Ada"}}');
    const all = await onEvery(servers, { path: '/posts' });
    assert.equal(JSON.parse(all.body), [
      { id: '1', title: 'Hello', author: { name: 'Ada' } },
      { id: '2', title: 'Hello', author: { name: 'Ada' } },
    ]);
    const gone = await onEvery(servers, { path: '/posts/gone' });
    assert.is(gone.status, 404);
    assert.is(gone.body, '{"missing":"gone"}');
    const made = await onEvery(servers, {
      method: 'POST',
      path: '/posts',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.is(made.status, 201);
    assert.not.match(made.body, /passwordHash|email|inherited/);
    for (const answer of [one, all, gone, made])
      assert.not.match(answer.body, /secret|email|inherited|trace/);
  },
);

served(
  'a JSON answer of a status no schema declares is a reported 500; pages, text and problems are untouched',
  async ({ servers }) => {
    reported.length = 0;
    const teapot = await onEvery(servers, { path: '/posts/teapot' });
    assert.is(teapot.status, 500);
    assert.not.match(teapot.body, /secret|Hello/);
    assert.is(reported.length, servers.length);
    assert.match(
      String(reported[0]),
      /posts\.show answered 418 with JSON, but its response schemas declare 200, 404: answer one of those, or declare 418 in schemas\.show\.response/,
    );
    assert.is((await onEvery(servers, { path: '/posts/page' })).body, '<p>Hello</p>');
    assert.is((await onEvery(servers, { path: '/posts/text' })).body, 'plain');
    const refused = await onEvery(servers, { path: '/posts/refused' });
    assert.is(refused.status, 403);
    assert.match(refused.headers['content-type'] ?? '', /application\/problem\+json/);
  },
);

served.run();

test('response schemas :: toFetch answers the same bytes as node', async () => {
  const handler = quietHandler(posts, { onError, checkResponses: false });
  for (const path of ['/posts', '/posts/1', '/posts/gone', '/posts/teapot']) {
    const fetched = await inProcess(handler, { path });
    const again = await inProcess(handler, { path });
    sameAnswer(fetched, again, path);
    assert.not.match(fetched.body, /secret|email|inherited|trace/);
  }
});

test('response schemas :: one that cannot be serialized is refused when the table is mounted, naming the route', () => {
  const odd = resource(
    'oddities',
    { show: () => 1n as never },
    { schemas: { show: { response: { type: 'bigint' } } } },
  );
  assert.throws(() => toFetch(odd), /route oddities\.show: its response 200 schema cannot be serialized: /);
});

test.run();
