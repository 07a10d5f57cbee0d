import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { z } from 'zod';
import { createListener } from '../../adapters/node.js';
import {
  bearer,
  formatRoutes,
  guard,
  HttpError,
  openapi,
  prefix,
  resource,
  RouteDefinitionError,
  type Request,
} from '../../core/index.js';
import { json, raw, type RawResponse } from '../support/http.js';
import { ROOT } from '../support/paths.js';
import { startAll } from '../support/servers.js';

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

/** Sends one request to every adapter and returns the answers, which must be the same bytes. */
async function onEvery(
  servers: Array<{ name: string; running: { url: string } }>,
  request: Parameters<typeof raw>[1],
): Promise<RawResponse> {
  const answers = await Promise.all(servers.map(({ running }) => raw(running.url, request)));
  for (let i = 1; i < answers.length; i++) {
    assert.is(answers[i]!.wire, answers[0]!.wire, `${servers[i]!.name} answers like ${servers[0]!.name}`);
  }
  return answers[0]!;
}

function withServers(
  name: string,
  source: Parameters<typeof startAll>[0],
  options?: Parameters<typeof startAll>[1],
) {
  const s = suite<{ servers: Awaited<ReturnType<typeof startAll>> }>(name, { servers: [] });
  s.before(async (context) => {
    context.servers = await startAll(source, options);
  });
  s.after(async (context) => {
    await Promise.all(context.servers.map(({ running }) => running.close()));
  });
  return s;
}

// ---- JSON Schema

// These handlers echo what they got (200 for create too), which their OpenAPI would not say: no checkResponses here.
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

// ---- Standard Schema (zod 4)

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
  assert.equal(doc.paths['/notes'].post.requestBody.content['application/json'].schema, create.schema?.body);
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

// ---- definition errors

const definitions = suite('schemas at definition');
const ok = () => null;

definitions('a misspelt schema key, a body on a bodiless action, a params schema naming no param', () => {
  const cases: Array<[() => unknown, RegExp]> = [
    [
      () => resource('posts', { create: ok }, { schemas: { create: { bdoy: {} } as never } }),
      /schema of posts#create has unknown key "bdoy" \(did you mean "body"\?\)/,
    ],
    [
      () => resource('posts', { index: ok }, { schemas: { index: { body: {} } as never } }),
      /posts#index reads no request body, so it cannot have a body schema/,
    ],
    [
      () =>
        resource(
          'posts',
          { show: ok },
          { schemas: { show: { params: { properties: { id: {} } } } } as never },
        ),
      /params schema of posts#show describes "id", which is not a param of its path \(post_id\)/,
    ],
    [
      () => resource('posts', { create: ok }, { schemas: { create: { body: 'title' } } as never }),
      /body schema of posts#create must be a JSON Schema object/,
    ],
    [
      () =>
        resource(
          'posts',
          { create: ok },
          { schemas: { create: { body: v.object({ t: v.string() }) } } as never },
        ),
      /body schema of posts#create cannot be converted to JSON Schema.*valibot offers no Standard JSON Schema converter/,
    ],
    [
      () =>
        resource(
          'posts',
          { create: ok },
          { schemas: { create: { body: z.object({ at: z.date() }) } } as never },
        ),
      /body schema of posts#create cannot be converted to JSON Schema/,
    ],
  ];
  for (const [define, message] of cases) {
    const error = (() => {
      try {
        define();
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    assert.instance(error, RouteDefinitionError, String(message));
    assert.match((error as Error).message, message);
  }
});

definitions(
  'a schema ajv refuses (a misspelt keyword) fails when the table is mounted, naming the route',
  () => {
    const broken = resource(
      'posts',
      { create: ok },
      { schemas: { create: { body: { type: 'object', maxPropertys: 2 } } } },
    );
    assert.throws(
      () => createListener(broken),
      (error: Error) =>
        error instanceof RouteDefinitionError &&
        /route posts\.create: its body schema is not valid JSON Schema \(2020-12\): .*maxPropertys/.test(
          error.message,
        ),
    );
  },
);

definitions('a table that declares no schema never loads ajv', async () => {
  const script = `
    import { createRequire } from 'node:module';
    import { createListener } from './build/adapters/node.js';
    import { resource } from './build/core/index.js';
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/ajv/'));
    createListener(resource('posts', { index: () => [] }, { schemas: { index: { response: { type: 'array' } } } }));
    const before = loaded();
    createListener(resource('notes', { create: () => 1 }, { schemas: { create: { body: { type: 'object' } } } }));
    console.log(JSON.stringify([before, loaded()]));
  `;
  const { stdout } = await promisify(execFile)('node', ['--input-type=module', '-e', script], { cwd: ROOT });
  assert.equal(JSON.parse(stdout), [false, true]);
});

definitions.run();

// ---- guards

const token = bearer({ verify: (given) => (given === 'secret' ? { user: 'ada' } : false) });
async function slowGuard(_req: Request): Promise<{ checkedAt: number }> {
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { checkedAt: 1 };
}
const order: string[] = [];
const first = guard('first', () => void order.push('first'));
const second = guard('second', () => void order.push('second'));
const guarded = resource(
  'docs',
  {
    index: (req) => ({ context: req.context }),
    show: (req) => ({ user: req.context.user, at: req.context.checkedAt }),
    create: (req) => ({ user: req.context.user, body: req.body }),
    destroy: () => {
      throw new Error('never reached');
    },
  },
  {
    before: {
      show: [token, slowGuard],
      create: [token, first, second],
      destroy: [
        guard('closed', () => {
          throw new HttpError(403, 'documents cannot be deleted');
        }),
      ],
    },
  },
);

const guards = withServers('guards', guarded, { checkResponses: false });

guards(
  'no credentials: 401 with WWW-Authenticate; malformed: 400; a bad token: 401 invalid_token',
  async ({ servers }) => {
    const none = await onEvery(servers, { path: '/docs/1' });
    assert.is(none.status, 401);
    assert.is(none.headers['www-authenticate'], 'Bearer');
    const malformed = await onEvery(servers, { path: '/docs/1', headers: { Authorization: 'Basic abc' } });
    assert.is(malformed.status, 400);
    assert.is(malformed.headers['www-authenticate'], 'Bearer error="invalid_request"');
    const wrong = await onEvery(servers, { path: '/docs/1', headers: { Authorization: 'Bearer nope' } });
    assert.is(wrong.status, 401);
    assert.is(wrong.headers['www-authenticate'], 'Bearer error="invalid_token"');
  },
);

guards(
  'guards run in order, async ones too, and what they return is the handler’s req.context',
  async ({ servers }) => {
    const auth = { Authorization: 'Bearer secret' };
    assert.equal(json(await onEvery(servers, { path: '/docs/1', headers: auth })), { user: 'ada', at: 1 });
    assert.equal(json(await onEvery(servers, { path: '/docs' })), { context: {} });
    order.length = 0;
    const made = await onEvery(servers, {
      method: 'POST',
      path: '/docs',
      headers: { ...auth, ...JSON_TYPE },
      body: '{"a":1}',
    });
    assert.equal(json(made), { user: 'ada', body: { a: 1 } });
    assert.equal(order, ['first', 'second', 'first', 'second', 'first', 'second']);
    const refused = await onEvery(servers, { method: 'DELETE', path: '/docs/1' });
    assert.is(refused.status, 403);
    assert.is(json(refused).detail, 'documents cannot be deleted');
  },
);

guards(
  'a guard refuses before the body is read: the 401 comes while the upload is still unsent',
  async ({ servers }) => {
    for (const { name, running } of servers) {
      const { port } = new URL(running.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
        // 1 MiB announced, 10 bytes sent: only an answer that does not wait for the rest can arrive.
        socket.write(
          'POST /docs HTTP/1.1\r\nHost: test.local\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{"a":"aaaa',
        );
        setTimeout(() => reject(new Error(`${name}: no answer while the body was unsent`)), 3000).unref();
      });
      assert.match(answer, /^HTTP\/1\.1 401 /, name);
      assert.match(answer, /\r\nConnection: close\r\n/i, name);
    }
  },
);

guards('the listing names each route’s guards; OpenAPI marks them and lists the security scheme', () => {
  assert.match(formatRoutes(guarded), /docs\.create +POST +\/docs +docs#create +bearer, first, second\n/);
  assert.match(formatRoutes(guarded), /docs\.index +GET +\/docs +docs#index +-\n/);
  const doc = openapi(guarded) as any;
  assert.equal(doc.paths['/docs'].post.security, [{ bearer: [] }]);
  assert.equal(doc.paths['/docs'].post['x-guards'], ['bearer', 'first', 'second']);
  assert.equal(Object.keys(doc.paths['/docs'].post.responses).slice(0, 4), ['201', '400', '401', '403']);
  assert.is(doc.paths['/docs'].get.security, undefined);
  assert.equal(doc.components.securitySchemes, { bearer: { type: 'http', scheme: 'bearer' } });
});

guards(
  'an anonymous guard, an unknown action or a non-function is a definition error naming the resource',
  () => {
    assert.throws(
      () => resource('docs', { index: ok }, { before: [() => {}] }),
      /a guard is an anonymous function; give it a name/,
    );
    assert.throws(
      () => resource('docs', { index: ok }, { before: { indx: [first] } as never }),
      /"before" names unknown action "indx" \(did you mean "index"\?\)/,
    );
    assert.throws(
      () => resource('docs', { index: ok }, { before: ['auth'] as never }),
      /a guard must be a function or a guard\(\), got string/,
    );
  },
);

guards.run();

// ---- an optional bearer()

const maybeSignedIn = bearer({
  verify: (given) => (given === 'secret' ? { user: 'ada' } : false),
  optional: true,
});
const optionalGuarded = resource(
  'notes',
  { index: (req) => ({ user: req.context.user ?? null }) },
  { before: [maybeSignedIn] },
);
const optionalBearer = withServers('bearer({ optional: true })', optionalGuarded, { checkResponses: false });

optionalBearer(
  'no Authorization header passes with nothing added; a good token adds the user; a bad one is 401, a malformed header 400',
  async ({ servers }) => {
    assert.ok(
      servers.some(({ name }) => name === 'node'),
      'served through the node adapter too',
    );
    assert.equal(json(await onEvery(servers, { path: '/notes' })), { user: null });
    const good = await onEvery(servers, { path: '/notes', headers: { Authorization: 'Bearer secret' } });
    assert.equal(json(good), { user: 'ada' });
    const wrong = await onEvery(servers, { path: '/notes', headers: { Authorization: 'Bearer nope' } });
    assert.is(wrong.status, 401);
    assert.is(wrong.headers['www-authenticate'], 'Bearer error="invalid_token"');
    const malformed = await onEvery(servers, { path: '/notes', headers: { Authorization: 'Basic abc' } });
    assert.is(malformed.status, 400);
  },
);

optionalBearer('OpenAPI lists the scheme as optional; a non-boolean optional is a TypeError', () => {
  assert.equal((openapi(optionalGuarded) as any).paths['/notes'].get.security, [{ bearer: [] }, {}]);
  assert.is(maybeSignedIn.security?.optional, true);
  assert.is(token.security?.optional, undefined);
  assert.throws(
    () => bearer({ verify: () => true, optional: 'yes' as unknown as boolean }),
    /optional must be true or false/,
  );
});

optionalBearer.run();

// ---- checkResponses

const lying = resource(
  'lies',
  {
    index: () => [{ id: 1 }],
    show: () => {
      throw new HttpError(418, 'a teapot');
    },
  },
  {
    schemas: {
      index: {
        response: {
          type: 'array',
          items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        },
      },
      show: { response: { type: 'object' } },
    },
  },
);

const reported: string[] = [];
const responses = withServers('checkResponses', lying, {
  checkResponses: true,
  onError: (error) => void reported.push(String(error)),
});

responses(
  'a body that fails its response schema, or an undocumented status, is a reported 500',
  async ({ servers }) => {
    reported.length = 0;
    const index = await onEvery(servers, { path: '/lies' });
    assert.is(index.status, 500);
    const show = await onEvery(servers, { path: '/lies/1', headers: { Accept: 'application/json' } });
    assert.is(show.status, 500);
    // The client learns nothing of the mismatch: the detail is the developer's, through onError.
    assert.equal(json(show), { type: 'about:blank', title: 'Internal Server Error', status: 500 });
    assert.is(show.headers.vary, 'Accept');
    assert.match(
      reported[0]!,
      /lies\.index answered 200 with a body that does not match its response schema: 0\.id must be a string/,
    );
    assert.match(
      reported.at(-1)!,
      /lies\.show answered 418, which its OpenAPI operation does not list; declare 418 in schemas\.show\.errors/,
    );
  },
);

responses.run();
