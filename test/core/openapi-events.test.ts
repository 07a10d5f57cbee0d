import { Validator } from '@seriousme/openapi-schema-validator';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openapi, resource, routes, type Route } from '../../core/index.js';
import { live } from '../../core/features/live/index.js';

const ok = () => null;
const Post = {
  type: 'object',
  title: 'Post',
  required: ['id', 'title'],
  properties: {
    id: { type: 'string' },
    title: { type: 'string', minLength: 1, errorMessage: 'is required' },
  },
} as const;
const changes = live();
const handlers = { index: ok, show: ok, create: ok, update: ok, destroy: ok };
const schemas = {
  index: { response: { type: 'array', items: Post } },
  show: {
    params: { type: 'object', properties: { post_id: { type: 'string', pattern: '^[a-z-]+$' } } },
    response: Post,
  },
  create: { body: Post, response: Post },
} as const;
const tags = resource('tags', { index: ok, show: ok });
const watched = routes(resource('posts', handlers, { watch: changes, schemas }), tags);
const plain = routes(resource('posts', handlers, { schemas }), tags);
const info = { title: 'posts', version: '1.0.0' };

async function validate(document: object): Promise<void> {
  const result = await new Validator().validate(document as never);
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
}

/** The document as OpenAPI 3.2 would have it: each `x-itemSchema` its `itemSchema`, the 3.1 `schema` dropped. */
function as32(document: any): any {
  const copy = JSON.parse(JSON.stringify(document));
  copy.openapi = '3.2.0';
  for (const item of Object.values<any>(copy.paths))
    for (const op of Object.values<any>(item))
      for (const response of Object.values<any>(op.responses ?? {})) {
        const media = response.content?.['text/event-stream'];
        if (media === undefined) continue;
        media.itemSchema = media['x-itemSchema'];
        delete media['x-itemSchema'];
        delete media.schema;
      }
  return copy;
}

test('openapi() :: a watched table gives a valid OpenAPI 3.1 document', async () => {
  const doc = openapi(watched, info) as any;
  assert.is(doc.openapi, '3.1.0');
  await validate(doc);
});

test('openapi() :: its x-itemSchema is what 3.2 takes as itemSchema, and the 3.2 validator reads it', async () => {
  const doc = as32(openapi(watched, info));
  await validate(doc);
  // The validator does check an itemSchema, so the check above can fail.
  doc.paths['/posts'].get.responses['200'].content['text/event-stream'].itemSchema = 5;
  assert.not.ok((await new Validator().validate(doc)).valid);
});

test('openapi() :: index and show also answer text/event-stream, one oneOf branch per event', () => {
  const doc = openapi(watched, info) as any;
  for (const path of ['/posts', '/posts/{post_id}']) {
    const content = doc.paths[path].get.responses['200'].content;
    assert.equal(Object.keys(content), ['application/json', 'text/event-stream'], path);
    const stream = content['text/event-stream'];
    assert.is(stream.schema.type, 'string');
    assert.match(stream.schema.description, 'created, updated, destroyed, reload');
    const item = stream['x-itemSchema'];
    assert.equal(item.required, ['data']);
    assert.equal(
      item.oneOf.map((branch: any) => [branch.required, branch.properties.event]),
      ['created', 'updated', 'destroyed', 'reload'].map((name) => [['event'], { const: name }]),
    );
    for (const branch of item.oneOf) assert.is(branch.properties.data.contentMediaType, 'application/json');
  }
});

test('openapi() :: created and updated data use the component the JSON answers use', () => {
  const doc = openapi(watched, info) as any;
  const show = doc.paths['/posts/{post_id}'].get.responses['200'].content;
  assert.equal(show['application/json'].schema, { $ref: '#/components/schemas/Post' });
  assert.equal(doc.paths['/posts'].get.responses['200'].content['application/json'].schema, {
    type: 'array',
    items: { $ref: '#/components/schemas/Post' },
  });
  for (const path of ['/posts', '/posts/{post_id}']) {
    const [created, updated] =
      doc.paths[path].get.responses['200'].content['text/event-stream']['x-itemSchema'].oneOf;
    assert.equal(created.properties.data.contentSchema, { $ref: '#/components/schemas/Post' });
    assert.equal(updated.properties.data.contentSchema, { $ref: '#/components/schemas/Post' });
  }
  // ajv's own keywords are renamed in the shared component, as for any schema.
  assert.is(doc.components.schemas.Post.properties.title['x-errorMessage'], 'is required');
});

test('openapi() :: shapes only events hold stay inline, so every component is used outside an extension', () => {
  const doc = openapi(watched, info) as any;
  assert.equal(Object.keys(doc.components.schemas), ['Problem', 'Post']);
  const [, , destroyed, reload] =
    doc.paths['/posts/{post_id}'].get.responses['200'].content['text/event-stream']['x-itemSchema'].oneOf;
  // Written where they are, as live() declares them (the id's schema is the show params schema's).
  const { events } = watched.find((route) => route.name === 'posts.show')!;
  assert.equal(destroyed.properties.data.contentSchema, events!.destroyed!.data);
  assert.equal(destroyed.properties.data.contentSchema.properties.id, {
    type: 'string',
    pattern: '^[a-z-]+$',
  });
  assert.equal(reload.properties.data.contentSchema, events!.reload!.data);
});

test('openapi() :: events without a show response schema name no contentSchema', () => {
  const doc = openapi(resource('notes', { show: ok }, { watch: changes }), info) as any;
  const [created] =
    doc.paths['/notes/{note_id}'].get.responses['200'].content['text/event-stream']['x-itemSchema'].oneOf;
  assert.equal(created.properties.data, { contentMediaType: 'application/json' });
  assert.equal(doc.paths['/notes/{note_id}'].get.responses['200'].content['application/json'], {
    schema: {},
  });
});

test('openapi() :: ajv-only keywords in event data are x- extensions, as everywhere else', () => {
  const params = { type: 'object', properties: { note_id: { type: 'string', errorMessage: 'an id' } } };
  const notes = resource('notes', { show: ok }, { watch: changes, schemas: { show: { params } } });
  const doc = openapi(notes, info) as any;
  const [, , destroyed] =
    doc.paths['/notes/{note_id}'].get.responses['200'].content['text/event-stream']['x-itemSchema'].oneOf;
  assert.equal(destroyed.properties.data.contentSchema.properties.id, {
    type: 'string',
    'x-errorMessage': 'an id',
  });
});

test('openapi() :: streaming operations take an optional Last-Event-ID and document the 503 with Retry-After', () => {
  const doc = openapi(watched, info) as any;
  for (const path of ['/posts', '/posts/{post_id}']) {
    const get = doc.paths[path].get;
    const header = get.parameters.find((p: any) => p.in === 'header');
    assert.equal([header.name, header.required, header.schema], ['Last-Event-ID', false, { type: 'string' }]);
    const unavailable = get.responses['503'];
    assert.equal(unavailable.content['application/problem+json'].schema, {
      $ref: '#/components/schemas/Problem',
    });
    assert.equal(unavailable.headers['Retry-After'].schema, { type: 'integer', minimum: 0 });
    assert.match(unavailable.description, 'maxEventStreams');
    const statuses = Object.keys(get.responses);
    assert.equal(statuses, [...statuses.filter((s) => s !== 'default').sort(), 'default'], 'in status order');
  }
});

test('openapi() :: events appear on the watched routes only; the rest of the document is as unwatched', () => {
  const doc = openapi(watched, info) as any;
  const before = openapi(plain, info) as any;
  const text = JSON.stringify(doc);
  assert.is(text.split('"text/event-stream"').length - 1, 2);
  assert.is(text.split('"Last-Event-ID"').length - 1, 2);
  assert.equal(doc.paths['/tags'], before.paths['/tags']);
  assert.equal(doc.paths['/tags/{tag_id}'], before.paths['/tags/{tag_id}']);
  assert.equal(doc.paths['/posts'].post, before.paths['/posts'].post);
  for (const method of ['put', 'patch', 'delete', 'post'])
    assert.equal(doc.paths['/posts/{post_id}'][method], before.paths['/posts/{post_id}'][method], method);
  assert.equal(doc.components, before.components);
});

test('openapi() :: a table without events gives, byte for byte, the document of one never watched', () => {
  const stripped = watched.map(({ events: _events, ...route }) => route as Route);
  assert.is(JSON.stringify(openapi(stripped, info), null, 2), JSON.stringify(openapi(plain, info), null, 2));
});

test.after(() => changes.close());

test.run();
