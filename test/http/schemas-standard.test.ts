import * as assert from 'uvu/assert';
import { z } from 'zod';
import { formatRoutes, guard, openapi, prefix, resource } from '../../core/index.js';
import { json } from '../support/http.js';
import { onEvery, withServers } from '../support/servers.js';

// Standard Schema (zod 4) on every adapter, and the JSON Schema a route keeps of it for listings and OpenAPI.

const JSON_TYPE = { 'Content-Type': 'application/json' };
const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' };

const Note = z.object({ title: z.string().min(1).max(10), stars: z.number().int().min(0).default(0) });
const notes = resource(
  'notes',
  {
    index: (req) => ({ query: req.query }),
    create: (req) => ({ body: req.body, upper: req.body.title.toUpperCase() }),
  },
  {
    schemas: {
      index: { query: z.object({ page: z.number().int().min(1).default(1) }) },
      create: { body: Note },
    },
  },
);

const standard = withServers('Standard Schema', notes, { checkResponses: false });

standard(
  'zod validates with its own messages; its output (defaults) is what the handler sees',
  async ({ servers }) => {
    const post = (body: string, headers = JSON_TYPE) =>
      onEvery(servers, { method: 'POST', path: '/notes', headers, body });
    const ok = await post('{"title":"hello"}');
    assert.equal(json(ok), { body: { title: 'hello', stars: 0 }, upper: 'HELLO' });
    const bad = await post('{"title":"","stars":-2}');
    assert.is(bad.status, 422);
    assert.equal(Object.keys(json(bad).errors), ['title', 'stars']);
    assert.ok(json(bad).errors.title[0].length > 0);
    // A form's text is coerced by the JSON Schema zod gives, so z.number() takes "3" from a form.
    assert.equal(json(await post('title=hi&stars=3', FORM_TYPE)).body, { title: 'hi', stars: 3 });
    assert.equal(json(await onEvery(servers, { path: '/notes?page=2' })).query, { page: 2 });
    assert.is((await onEvery(servers, { path: '/notes?page=0' })).status, 400);
  },
);

standard('the route keeps the JSON Schema zod converts to, for the listing and OpenAPI', () => {
  const create = notes.actions.create;
  assert.equal(create.schema?.body, {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 10 },
      stars: { type: 'integer', minimum: 0, maximum: 9007199254740991, default: 0 },
    },
    required: ['title'],
  });
  const doc = openapi(notes) as any;
  const documented = doc.paths['/notes'].post.requestBody.content['application/json'].schema;
  // A shape used more than once is under components.schemas, a $ref where it was.
  const body =
    documented.$ref === undefined ? documented : doc.components.schemas[documented.$ref.split('/').pop()];
  assert.equal(body, create.schema?.body);
  // The JSON listing is data: the zod value itself is not printed.
  const listed = JSON.parse(formatRoutes(notes, 'json'));
  assert.is(listed[1].standard, undefined);
  assert.equal(listed[1].schema.body, create.schema?.body);
});

standard('JSON.stringify(route) is data: the JSON Schema and the guards by name, no zod internals', () => {
  const signedIn = guard('signedIn', () => undefined);
  const guarded = resource(
    'notes',
    { create: (req) => req.body },
    { schemas: { create: { body: Note } }, before: [signedIn] },
  );
  const route = guarded.actions.create;
  const printed = JSON.parse(JSON.stringify(route));
  assert.equal(Object.keys(printed), [
    'resource',
    'action',
    'method',
    'path',
    'params',
    'name',
    'body',
    'schema',
    'guards',
  ]);
  assert.equal(printed.guards, [{ name: 'signedIn', errors: [401, 403] }]);
  assert.not.ok(JSON.stringify(route).includes('~standard'), 'no Standard Schema value is printed');
  assert.not.ok(JSON.stringify(route).includes('_zod'), 'no zod internals are printed');
  // Code still reads both, and prefix() keeps them.
  assert.is(route.standard?.body, Note);
  assert.is(route.guards?.[0], signedIn);
  const moved = prefix('/api', guarded).find((r) => r.name === 'notes.create')!;
  assert.is(moved.standard?.body, Note);
  assert.is(moved.path, '/api/notes');
  assert.not.ok(JSON.stringify(moved).includes('_zod'));
});

standard.run();
