import * as assert from 'uvu/assert';
import { resource } from '../../core/index.js';
import { json } from '../support/http.js';
import { onEvery, startAll, withServers } from '../support/servers.js';

// JSON Schema on every adapter: bodies, queries and params validated, coerced and defaulted, and
// the 400s and 422s their failures give.

const JSON_TYPE = { 'Content-Type': 'application/json' };
const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' };

const Item = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 5 },
    count: { type: 'integer', minimum: 0, default: 1 },
    done: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;

const Page = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 10, default: 10 },
    tag: { type: 'array', items: { type: 'string' } },
  },
} as const;

// Each handler echoes what it received, so a test sees exactly what validation handed on.
const items = resource(
  'items',
  {
    index: (req) => ({ query: req.query }),
    show: (req) => ({ params: req.params }),
    create: (req) => ({ body: req.body }),
  },
  {
    schemas: {
      index: { query: Page },
      show: { params: { type: 'object', properties: { item_id: { type: 'integer', minimum: 1 } } } },
      create: { body: Item },
    },
  },
);

// These handlers echo what they got (200 for create too), which their OpenAPI would not say: no
// checkResponses here.
const jsonSchema = withServers('JSON Schema', items, { checkResponses: false });

jsonSchema(
  'a JSON body that passes gets its defaults; one that fails is 422 with errors per field',
  async ({ servers }) => {
    const post = (body: string, headers: Record<string, string> = JSON_TYPE) =>
      onEvery(servers, { method: 'POST', path: '/items', headers, body });
    const ok = await post('{"name":"tea"}');
    assert.is(ok.status, 200);
    assert.equal(json(ok).body, { name: 'tea', count: 1 });
    const bad = await post('{"name":"","count":-1,"extra":true,"done":"yes"}');
    assert.is(bad.status, 422);
    assert.is(bad.headers['content-type'], 'application/problem+json');
    assert.equal(json(bad), {
      type: 'about:blank',
      title: 'Unprocessable Content',
      status: 422,
      detail: 'the request body is not valid',
      errors: {
        name: ['must not be empty'],
        count: ['must be at least 0'],
        done: ['must be true or false'],
        extra: ['is not allowed'],
      },
    });
    assert.equal(json(await post('{}')).errors, { name: ['is required'] });
    assert.equal(json(await post('[1]')).errors, { '': ['must be an object'] });
    // JSON says what it means: a string is not coerced into a number.
    assert.equal(json(await post('{"name":"tea","count":"5"}')).errors, {
      count: ['must be a whole number'],
    });
  },
);

jsonSchema(
  'a urlencoded body is coerced by the schema types, and still refused when it cannot be',
  async ({ servers }) => {
    const post = (body: string) =>
      onEvery(servers, { method: 'POST', path: '/items', headers: FORM_TYPE, body });
    assert.equal(json(await post('name=tea&count=5&done=true')).body, { name: 'tea', count: 5, done: true });
    const bad = await post('name=tea&count=many&done=maybe');
    assert.is(bad.status, 422);
    assert.equal(json(bad).errors, { count: ['must be a whole number'], done: ['must be true or false'] });
  },
);

jsonSchema('the query and path params are coerced and defaulted; failures are 400', async ({ servers }) => {
  assert.equal(json(await onEvery(servers, { path: '/items' })).query, { limit: 10 });
  assert.equal(json(await onEvery(servers, { path: '/items?limit=3&tag=a' })).query, {
    limit: 3,
    tag: ['a'],
  });
  assert.equal(json(await onEvery(servers, { path: '/items?tag=a&tag=b' })).query, {
    limit: 10,
    tag: ['a', 'b'],
  });
  for (const query of ['limit=0', 'limit=11', 'limit=x', 'limit=', 'limit=1.5', 'limit=1&limit=2']) {
    const bad = await onEvery(servers, { path: `/items?${query}` });
    assert.is(bad.status, 400, query);
    assert.is(json(bad).detail, 'the query string is not valid');
    assert.ok(json(bad).errors.limit, query);
  }
  assert.equal(json(await onEvery(servers, { path: '/items/7' })).params, { item_id: 7 });
  const bad = await onEvery(servers, { path: '/items/seven' });
  assert.is(bad.status, 400);
  assert.equal(json(bad).errors, { item_id: ['must be a whole number'] });
});

jsonSchema('errorMessage replaces a message, for the whole schema or per keyword', async () => {
  const named = resource(
    'notes',
    { create: (req) => req.body },
    {
      schemas: {
        create: {
          body: {
            type: 'object',
            required: ['code'],
            properties: {
              code: { type: 'string', pattern: '^[A-Z]{3}$', errorMessage: 'must be three capital letters' },
              size: { type: 'integer', maximum: 3, errorMessage: { maximum: 'is too big' } },
            },
          },
        },
      },
    },
  );
  const servers = await startAll(named, { checkResponses: false });
  try {
    const bad = await onEvery(servers, {
      method: 'POST',
      path: '/notes',
      headers: JSON_TYPE,
      body: '{"code":"abc","size":9}',
    });
    assert.equal(json(bad).errors, { code: ['must be three capital letters'], size: ['is too big'] });
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

jsonSchema.run();
