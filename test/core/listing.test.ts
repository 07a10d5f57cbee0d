import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filterRoutes, formatRoutes, guard, openapi, resource, routes } from '../../core/index.js';
import { posts } from '../../examples/posts/table.js';
import { ROOT } from '../support/paths.js';
import { LIVE_SCRIPT, STYLESHEET } from '../../examples/posts/views/layout.js';

const ok = () => null;
// The example's table without its style sheet's routes, whose fingerprint changes with the file.
const table = routes(
  posts.filter((route) => route.resource !== 'assets'),
  resource('tags', { index: ok, show: ok }, { param: 'name' }),
);

test('formatRoutes() :: text is aligned columns, one route a line', () => {
  assert.is(
    formatRoutes(table),
    [
      'Name             Method  Path                  Action           Guards       Hooks                                 Streams',
      'posts.index      GET     /posts                posts#index      -            requestId, requestLog, session, etag  created, updated, destroyed, reload',
      'posts.show       GET     /posts/:post_id       posts#show       -            requestId, requestLog, session, etag  created, updated, destroyed, reload',
      'posts.new        GET     /posts/:post_id/new   posts#new        signInFirst  requestId, requestLog, session, etag  -',
      'posts.edit       GET     /posts/:post_id/edit  posts#edit       signInFirst  requestId, requestLog, session, etag  -',
      'posts.create     POST    /posts                posts#create     bearer       requestId, requestLog, session, etag  -',
      'posts.update     PUT     /posts/:post_id       posts#update     bearer       requestId, requestLog, session, etag  -',
      'posts.destroy    DELETE  /posts/:post_id       posts#destroy    bearer       requestId, requestLog, session, etag  -',
      'session.new      GET     /session/new          session#new      -            requestId, requestLog, session, etag  -',
      'session.create   POST    /session              session#create   -            requestId, requestLog, session, etag  -',
      'session.destroy  DELETE  /session              session#destroy  -            requestId, requestLog, session, etag  -',
      'tags.index       GET     /tags                 tags#index       -            -                                     -',
      'tags.show        GET     /tags/:name           tags#show        -            -                                     -',
      '',
    ].join('\n'),
  );
});

test('formatRoutes() :: md is a Markdown table', () => {
  assert.is(
    formatRoutes(resource('tags', { index: ok, show: ok }), 'md'),
    [
      '| Name       | Method | Path          | Action     |',
      '|------------|--------|---------------|------------|',
      '| tags.index | GET    | /tags         | tags#index |',
      '| tags.show  | GET    | /tags/:tag_id | tags#show  |',
      '',
    ].join('\n'),
  );
});

test('formatRoutes() :: json is the route records without handlers', () => {
  const parsed = JSON.parse(formatRoutes(resource('tags', { show: ok }).routes, 'json'));
  assert.equal(parsed, [
    {
      resource: 'tags',
      action: 'show',
      method: 'GET',
      path: '/tags/:tag_id',
      params: ['tag_id'],
      name: 'tags.show',
      body: false,
    },
  ]);
});

test('formatRoutes() :: an empty table prints the header only', () => {
  assert.is(formatRoutes([]), 'Name  Method  Path  Action\n');
});

const FILTERS: ReadonlyArray<[label: string, filter: Parameters<typeof filterRoutes>[1], names: string[]]> = [
  ['no filter', {}, table.map((r) => r.name)],
  ['resource', { resource: 'tags' }, ['tags.index', 'tags.show']],
  ['method, any case', { method: 'put' }, ['posts.update']],
  ['grep on the path', { grep: 'EDIT' }, ['posts.edit']],
  ['grep on the action', { grep: 'tags#' }, ['tags.index', 'tags.show']],
  ['grep and method', { grep: 'post_id', method: 'GET' }, ['posts.show', 'posts.new', 'posts.edit']],
  ['nothing matches', { resource: 'nope' }, []],
];
for (const [label, filter, names] of FILTERS) {
  test(`filterRoutes() :: ${label}`, () =>
    assert.equal(
      filterRoutes(table, filter).map((r) => r.name),
      names,
    ));
}

async function validate(document: object): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(document as never);
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
  assert.is(validator.version, '3.1');
}

test('openapi() :: the validator refuses a broken document, so the checks below can fail', async () => {
  const broken = { ...openapi(table), info: { title: 'no version' } };
  assert.not.ok((await new Validator().validate(broken as never)).valid);
});

test('openapi() :: the example gives a valid, specific OpenAPI 3.1 document', async () => {
  const doc = openapi(posts, { title: 'posts', version: '1.0.0' }) as any;
  await validate(doc);
  assert.equal(Object.keys(doc.paths), [
    '/posts',
    '/posts/{post_id}',
    '/posts/{post_id}/new',
    '/posts/{post_id}/edit',
    '/assets/live.js',
    LIVE_SCRIPT,
    '/assets/site.css',
    STYLESHEET,
    '/session/new',
    '/session',
  ]);
  // The style sheet's routes say what they send: its bytes as text/css, a range, a 304.
  assert.equal(Object.keys(doc.paths[STYLESHEET].get.responses['200'].content), ['text/css']);
  // The POST is the one HTML forms send for put and delete (method override).
  assert.equal(Object.keys(doc.paths['/posts/{post_id}']), ['parameters', 'get', 'put', 'delete', 'post']);
  assert.equal(doc.paths['/posts/{post_id}'].parameters, [
    { name: 'post_id', in: 'path', required: true, schema: { type: 'string' } },
  ]);
  const create = doc.paths['/posts'].post;
  assert.is(create.operationId, 'posts.create');
  assert.equal(Object.keys(create.requestBody.content), [
    'application/json',
    'application/x-www-form-urlencoded',
  ]);
  // A shape used more than once is written once under components.schemas, a $ref where it was.
  const resolved = (schema: any) =>
    schema.$ref === undefined ? schema : doc.components.schemas[schema.$ref.split('/').pop()];
  assert.equal(resolved(create.requestBody.content['application/json'].schema).required, ['title']);
  assert.equal(Object.keys(create.responses), [
    '201',
    '303',
    '400',
    '401',
    '403',
    '409',
    '413',
    '415',
    '422',
    'default',
  ]);
  assert.ok(create.responses['201'].headers.Location);
  // The guard on writes: a bearer token or the session cookie, optional since POSTS_TOKEN may be unset, and
  // named in x-guards.
  assert.equal(create.security, [{ bearer: [] }, { session: [] }, {}]);
  assert.equal(create['x-guards'], ['bearer']);
  assert.equal(Object.keys(doc.components.securitySchemes), ['bearer', 'session']);
  assert.equal(doc.components.securitySchemes.session.in, 'cookie');
  assert.equal(doc.paths['/posts'].get.security, [], 'a public route says so');
  assert.equal(doc.servers, [{ url: '/' }]);
  // new's params schema types its path parameter in the operation.
  assert.equal(doc.paths['/posts/{post_id}/new'].get.parameters[0].schema.pattern, '^[A-Za-z0-9_-]{1,64}$');
  assert.equal(Object.keys(create.responses['201'].content), ['application/json']);
  assert.ok(create.responses['303'].headers.Location);
  assert.is(create.responses['303'].content, undefined);
  // A browser gets every problem as a page (the error page, or the form again with its messages).
  assert.equal(Object.keys(create.responses['422'].content), ['application/problem+json', 'text/html']);
  // Pages: index and show beside JSON (and their event streams: the example watches itself), new and edit as their default.
  assert.equal(Object.keys(doc.paths['/posts'].get.responses['200'].content), [
    'application/json',
    'text/html',
    'text/event-stream',
  ]);
  assert.equal(Object.keys(doc.paths['/posts/{post_id}/new'].get.responses['200'].content), [
    'text/html',
    'application/json',
  ]);
  // A signed-out browser is sent to sign in (303) when POSTS_TOKEN is set.
  assert.equal(Object.keys(doc.paths['/posts/{post_id}/new'].get.responses), [
    '200',
    '303',
    '304',
    '400',
    '404',
    'default',
  ]);
  assert.is(
    resolved(create.responses['201'].content['application/json'].schema).properties.createdAt.format,
    'date-time',
  );
  assert.is(
    create.responses['422'].content['application/problem+json'].schema.$ref,
    '#/components/schemas/Problem',
  );
  assert.equal(
    doc.paths['/posts'].get.parameters.map((p: { name: string }) => p.name),
    ['limit', 'offset', 'Last-Event-ID'],
  );
  assert.equal(Object.keys(doc.paths['/posts/{post_id}'].delete.responses), [
    '204',
    '303',
    '400',
    '401',
    '403',
    '404',
    'default',
  ]);
  assert.is(doc.paths['/posts/{post_id}'].delete.responses['204'].content, undefined);
  const form = doc.paths['/posts/{post_id}'].post;
  assert.is(form.operationId, 'posts.update_or_destroy.form');
  assert.equal(Object.keys(form.requestBody.content), ['application/x-www-form-urlencoded']);
  const [put, del] = form.requestBody.content['application/x-www-form-urlencoded'].schema.oneOf;
  assert.equal(put.allOf[0].properties._method.const, 'PUT');
  assert.equal(resolved(put.allOf[1]).required, ['title']);
  assert.equal(del.properties._method.const, 'DELETE');
  assert.equal(Object.keys(form.responses), [
    '200',
    '204',
    '303',
    '400',
    '401',
    '403',
    '404',
    '405',
    '413',
    '415',
    '422',
    'default',
  ]);
  assert.equal(form.security, [{ bearer: [] }, { session: [] }, {}]);
});

test('openapi() :: options say what the adapters were told: no method override, no cross-site check', async () => {
  const doc = openapi(posts, undefined, { methodOverride: false, crossSiteProtection: false }) as any;
  await validate(doc);
  assert.equal(Object.keys(doc.paths['/posts/{post_id}']), ['parameters', 'get', 'put', 'delete']);
  assert.is(doc.paths['/posts'].post.responses['403'], undefined);
});

test('openapi() :: a path with a POST route of its own keeps it; no override operation is added there', () => {
  const both = resource('things', { create: ok, update: ok }, { path: 'things' });
  const custom = routes(both, {
    resource: 'things',
    action: 'replaceAll',
    method: 'PUT',
    path: '/things',
    params: [],
    name: 'things.replaceAll',
    body: true,
    handler: ok,
  } as const);
  const doc = openapi(custom) as any;
  assert.is(doc.paths['/things'].post.operationId, 'things.create');
  assert.is(doc.paths['/things/{thing_id}'].post.operationId, 'things.update.form');
});

test('openapi() :: a table without schemas is still valid, with every route', async () => {
  const doc = openapi(table) as any;
  await validate(doc);
  assert.equal(doc.info, { title: 'API', version: '0.0.0' });
  assert.equal(doc.tags, [{ name: 'posts' }, { name: 'session' }, { name: 'tags' }]);
  assert.is(doc.paths['/tags/{name}'].get.summary, 'Show a tag');
  const operations = Object.values(doc.paths).flatMap((item: any) =>
    Object.keys(item).filter((k) => k !== 'parameters'),
  );
  // Every route, plus the POST an HTML form sends for the posts member path's PUT and DELETE.
  assert.is(operations.length, table.length + 1);
});

test('openapi() :: a hand-written route with an action of its own gets the generic summary and 200', () => {
  const handler = () => null;
  for (const action of ['publish', 'toString', 'constructor']) {
    const route = {
      resource: 'posts',
      action,
      method: 'POST',
      path: `/posts/${action}`,
      params: [],
      name: `posts.${action}`,
      body: false,
      handler,
    } as const;
    const operation = (openapi(routes(route)) as any).paths[`/posts/${action}`].post;
    assert.is(operation.summary, `posts#${action}`);
    assert.equal(Object.keys(operation.responses), ['200', '400', '403', 'default']);
  }
});

test('docs/routes.md and docs/openapi.json :: match the example (run `npm run docs` to regenerate)', () => {
  const stale = 'is stale: run `npm run docs` to regenerate it';
  assert.is(
    readFileSync(join(ROOT, 'docs/routes.md'), 'utf8'),
    formatRoutes(posts, 'md'),
    `docs/routes.md ${stale}`,
  );
  const expected = openapi(posts, { title: 'posts API (examples/posts)', version: '1.0.0' });
  assert.is(
    readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'),
    `${JSON.stringify(expected, null, 2)}\n`,
    `docs/openapi.json ${stale}`,
  );
});

test('openapi() :: servers given or /, ajv-only keywords as x- extensions, repeated shapes shared by $ref', () => {
  const Note = {
    type: 'object',
    required: ['title'],
    properties: {
      title: { type: 'string', minLength: 1, errorMessage: 'is required' },
      errorMessage: { type: 'string' },
      tags: { type: 'array', items: { type: 'string', errorMessage: 'a word' } },
    },
  } as const;
  const notes = resource(
    'notes',
    {
      index: ok,
      show: () => ({ title: 't' }),
      create: (req, res) => res.created('/notes/1', req.body),
      update: (req) => req.body,
    },
    {
      schemas: {
        show: { response: Note },
        create: { body: Note, response: Note },
        update: { body: Note, response: Note },
      },
    },
  );
  const doc = openapi(notes, {
    title: 'notes',
    version: '1',
    servers: [{ url: 'https://api.example', description: 'production' }],
  }) as any;
  assert.equal(doc.servers, [{ url: 'https://api.example', description: 'production' }]);
  assert.is(doc.info.servers, undefined);
  const shared = doc.components.schemas;
  const names = Object.keys(shared).filter((name) => name !== 'Problem');
  assert.equal(names.length, 1, names.join(', '));
  const note = shared[names[0]!];
  assert.is(note.properties.title['x-errorMessage'], 'is required');
  assert.is(note.properties.title.errorMessage, undefined);
  assert.equal(note.properties.errorMessage, { type: 'string' }, 'a field named errorMessage stays a field');
  assert.is(note.properties.tags.items['x-errorMessage'], 'a word');
  for (const schema of [
    doc.paths['/notes/{note_id}'].get.responses['200'].content['application/json'].schema,
    doc.paths['/notes'].post.requestBody.content['application/json'].schema,
    doc.paths['/notes/{note_id}'].put.responses['200'].content['application/json'].schema,
  ])
    assert.equal(schema, { $ref: `#/components/schemas/${names[0]}` });
  // The table's own schemas are left as they were: the document has copies.
  assert.is((notes.routes[1]!.schema!.response!['200'] as any).properties.title.errorMessage, 'is required');
});

test.run();

test('openapi :: a guard that accepts other schemes is one requirement per choice, with the other guards', () => {
  const token = { name: 'bearer', scheme: { type: 'http', scheme: 'bearer' } } as const;
  const key = { name: 'key', scheme: { type: 'apiKey', in: 'header', name: 'X-Key' } } as const;
  const cookie = { name: 'session', scheme: { type: 'apiKey', in: 'cookie', name: 'sid' } } as const;
  const either = guard('either', () => undefined, { security: { ...token, or: [cookie] } });
  const keyed = guard('keyed', () => undefined, { security: key });
  const doc = openapi(resource('notes', { destroy: () => undefined }, { before: [either, keyed] })) as any;
  assert.equal(doc.paths['/notes/{note_id}'].delete.security, [
    { bearer: [], key: [] },
    { session: [], key: [] },
  ]);
  assert.equal(Object.keys(doc.components.securitySchemes), ['bearer', 'session', 'key']);
});
