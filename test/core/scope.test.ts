import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  bearer,
  formatRoutes,
  guard,
  hook,
  openapi,
  prefix,
  resource,
  RouteDefinitionError,
  routes,
  scope,
  singular,
} from '../../core/index.js';
import { tableHooks } from '../../core/table/scope.js';

// scope() and inherited guards as data: what each route record holds, what the listing and OpenAPI show,
// and the definition errors that name the fix.

const signedIn = bearer({ verify: (token) => (token === 't' ? { user: 'ada' } : false) });
const admin = guard('admin', () => {});
const audit = guard('audit', () => {});
const requestId = hook('requestId', { onSend: () => {} });
const timing = hook('timing', { onRequest: () => {} });

const posts = resource(
  'posts',
  { index: () => [], show: () => ({}), create: () => ({}) },
  { before: [signedIn] },
);
const comments = resource(
  'comments',
  { index: () => [], create: () => ({}), destroy: () => {} },
  { parent: posts, before: { destroy: [admin] } },
);
const likes = singular('like', { show: () => ({}) }, { parent: comments, before: [audit, signedIn] });

test('scope :: a child runs its parent’s every-action guards first, then its own; each guard once', () => {
  const names = (table: typeof comments.routes) => table.map((route) => route.guards?.map((g) => g.name));
  assert.equal(names(comments.routes), [['bearer'], ['bearer'], ['bearer', 'admin']]);
  assert.equal(
    names(likes.routes),
    [['bearer', 'audit']],
    'grandchildren inherit too, the repeated guard once',
  );
});

test('scope :: per-action guards of a parent are its own: children do not inherit them', () => {
  const parent = resource(
    'authors',
    { index: () => [], create: () => ({}) },
    { before: { create: [admin] } },
  );
  const child = resource('books', { index: () => [] }, { parent: parent });
  assert.is(child.routes[0]!.guards, undefined);
});

test('scope :: guards and hooks go on every route in it, the scope’s first; scopes nest outer first', () => {
  const inner = scope({ guards: [admin], hooks: [timing] }, posts);
  const outer = scope({ guards: [audit], hooks: [requestId] }, inner, comments);
  const show = outer.find((route) => route.name === 'posts.show')!;
  assert.equal(
    show.guards!.map((g) => g.name),
    ['audit', 'admin', 'bearer'],
  );
  assert.equal(
    show.hooks!.map((h) => h.name),
    ['requestId', 'timing'],
  );
  assert.equal(
    tableHooks(outer).map((h) => h.name),
    ['requestId'],
  );
  assert.equal(
    tableHooks(inner).map((h) => h.name),
    ['timing'],
  );
  assert.ok(Object.isFrozen(outer) && outer.every((route) => Object.isFrozen(route)));
  assert.equal(tableHooks(routes(outer)), [], 'a table combined from a scope is not that scope');
  assert.equal(tableHooks(prefix('/api', outer)), []);
});

test('scope :: the listing shows inherited guards, hooks in order, and what runs before matching', () => {
  const table = scope({ hooks: [requestId] }, scope({ hooks: [timing] }, posts), comments);
  const listing = formatRoutes(table);
  assert.match(listing, /posts\.show\s+GET\s+\/posts\/:post_id\s+posts#show\s+bearer\s+requestId, timing/);
  assert.match(listing, /comments\.destroy\s+DELETE\s+\S+\s+comments#destroy\s+bearer, admin\s+requestId\n/);
  assert.match(listing, /Around every request, misses included: requestId\n$/);
  assert.match(formatRoutes(table, 'md'), /\| Guards +\| Hooks +\|/);
  const json = JSON.parse(formatRoutes(table, 'json')) as { hooks: { name: string }[] }[];
  assert.equal(
    json[0]!.hooks.map((h) => h.name),
    ['requestId', 'timing'],
  );
  assert.not.match(formatRoutes(posts), 'Hooks', 'a table without hooks prints as before');
});

test('scope :: OpenAPI asks a nested route for its parent’s credentials', () => {
  const document = openapi(routes(posts, comments)) as {
    paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
  };
  const destroy = document.paths['/posts/{post_id}/comments/{comment_id}']!.delete!;
  assert.equal(destroy.security, [{ bearer: [] }]);
  assert.ok(destroy.responses['401'] !== undefined);
});

test('scope :: a hook’s OpenAPI data: its headers on every response, its responses on its methods', () => {
  const validator = hook('validator', {
    onSend: () => {},
    openapi: {
      methods: ['GET'],
      headers: { ETag: { description: 'A validator.', schema: { type: 'string' } } },
      responses: { '304': { description: 'Not Modified' } },
    },
  });
  type Op = { responses: Record<string, { headers?: Record<string, unknown> }> };
  const document = openapi(scope({ hooks: [validator] }, posts)) as {
    paths: Record<string, Record<string, Op>>;
  };
  const show = document.paths['/posts/{post_id}']!.get!;
  assert.equal(Object.keys(show.responses), ['200', '304', '400', '401', '404', 'default']);
  assert.ok(show.responses['200']!.headers!.ETag && show.responses.default!.headers!.ETag);
  const create = document.paths['/posts']!.post!;
  assert.is(create.responses['304'], undefined);
  assert.is(create.responses['201']!.headers!.ETag, undefined, 'not on the methods it leaves out');
});

test('scope :: bad options are definition errors that name the fix', () => {
  const throwsWith = (make: () => unknown, text: RegExp) => {
    try {
      make();
    } catch (error) {
      assert.instance(error, RouteDefinitionError);
      assert.match((error as Error).message, text);
      return;
    }
    assert.unreachable('expected a RouteDefinitionError');
  };
  throwsWith(
    () => scope({ gaurds: [admin] } as never, posts),
    /unknown option "gaurds"; a scope takes guards, hooks/,
  );
  throwsWith(() => scope({ guards: admin } as never, posts), /"guards" must be an array of guards/);
  throwsWith(() => scope({ hooks: [() => {}] } as never, posts), /hooks\[0\] must be made by hook/);
  throwsWith(
    () => resource('xs', { index: () => [] }, { hooks: requestId as never }),
    /resource\("xs"\): "hooks" must be an array of hooks/,
  );
  assert.throws(() => hook('', { onRequest: () => {} }), /name must be a non-empty string/);
  assert.throws(() => hook('empty', {}), /give it an onRequest or an onSend function/);
  assert.throws(() => hook('bad', { onSend: 'no' as never }), /onSend must be a function/);
});

test.run();
