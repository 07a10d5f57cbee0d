import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  formatRoutes,
  hook,
  openapi,
  resource,
  RouteDefinitionError,
  scope,
  singular,
  type HttpResponse,
  type HookRequest,
  type Route,
} from '../../core/index.js';
import { etag } from '../../core/features/caching/index.js';
import { CACHE_CONTROL } from '../../core/define/cache-control.js';

// The `cache` option as table data: Cache-Control per GET action on the route records, checked when the
// resource is defined, shown by the listing and OpenAPI, sent by a hook on those routes alone.

const ok = () => ({});
const all = { index: ok, show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };
const byAction = (routes: readonly Route[]) =>
  Object.fromEntries(routes.map((route) => [`${route.method} ${route.action}`, route.cacheControl]));

test('cache :: per action on the route records, with the hook that sends it innermost', () => {
  const timing = hook('timing', { onSend: () => {} });
  const posts = resource(
    'posts',
    { ...all, search: ok },
    {
      collection: { search: 'GET' },
      cache: { index: 'no-cache', show: 'private, max-age=60', search: 'no-store' },
      hooks: [timing],
    },
  );
  assert.equal(byAction(posts.routes), {
    'GET index': 'no-cache',
    'GET show': 'private, max-age=60',
    'GET new': undefined,
    'GET edit': undefined,
    'POST create': undefined,
    'PUT update': undefined,
    'DELETE destroy': undefined,
    'GET search': 'no-store',
  });
  assert.equal(
    posts.actions.show.hooks?.map((h) => h.name),
    ['timing', 'cacheControl'],
  );
  assert.equal(
    posts.actions.new.hooks?.map((h) => h.name),
    ['timing'],
    'a route without a value has no hook for it',
  );
  assert.is(resource('tags', { index: ok }).routes[0]!.hooks, undefined, 'nothing without the option');
  const scoped = scope({ hooks: [etag()] }, posts);
  assert.equal(
    scoped.find((route) => route.action === 'show')!.hooks?.map((h) => h.name),
    ['etag', 'timing', 'cacheControl'],
    'a scope’s hooks go outside it',
  );
});

test('cache :: one value for every GET action, a singular resource’s too', () => {
  assert.equal(byAction(resource('posts', all, { cache: 'no-cache', only: ['index', 'create'] }).routes), {
    'GET index': 'no-cache',
    'POST create': undefined,
  });
  const profile = singular('profile', { show: ok, edit: ok, update: ok }, { cache: { show: 'private' } });
  assert.equal(byAction(profile.routes), {
    'GET show': 'private',
    'GET edit': undefined,
    'PUT update': undefined,
  });
  const quoted = 'no-cache="Set-Cookie, Authorization", max-age=0, ';
  assert.is(resource('notes', { show: ok }, { cache: { show: quoted } }).routes[0]!.cacheControl, quoted);
});

const refusals: [string, () => unknown, RegExp, string | undefined][] = [
  [
    'an unknown action',
    () => resource('posts', all, { cache: { shwo: 'no-cache' } as never }),
    /"cache" names unknown action "shwo" \(did you mean "show"\?\); its GET actions are index, show, new, edit/,
    'shwo',
  ],
  [
    'an action that does not answer GET',
    () => resource('posts', all, { cache: { create: 'no-store' } as never }),
    /posts#create, which answers POST: Cache-Control is sent with the answers of GET actions .*\(res\.header\)/,
    'create',
  ],
  [
    'index on a singular resource',
    () => singular('profile', { show: ok }, { cache: { index: 'no-cache' } as never }),
    /unknown action "index"/,
    'index',
  ],
  [
    'a misspelt directive',
    () => resource('posts', all, { cache: { show: 'private, max_age=60' } }),
    /the "cache" of posts#show has "max_age=60", which is not a response directive \(did you mean "max-age"\?\)/,
    'show',
  ],
  [
    'seconds that are not a number',
    () => resource('posts', all, { cache: { show: 'max-age=1m' } }),
    /max-age takes a number of seconds, e.g. max-age=60/,
    'show',
  ],
  ['a bare max-age', () => resource('posts', all, { cache: 'max-age' }), /max-age takes a number/, 'index'],
  [
    'a value on a bare directive',
    () => resource('posts', all, { cache: { show: 'no-store=1' } }),
    /no-store takes no value/,
    'show',
  ],
  [
    'a directive twice',
    () => resource('posts', all, { cache: { show: 'max-age=1, max-age=2' } }),
    /names max-age twice/,
    'show',
  ],
  ['public and private', () => resource('posts', all, { cache: 'public, private' }), /both public/, 'index'],
  [
    'a line break',
    () => resource('posts', all, { cache: { show: 'no-cache\r\nSet-Cookie: a=1' } }),
    /printable ASCII/,
    'show',
  ],
  [
    'an unterminated quote',
    () => resource('posts', all, { cache: { show: 'private="Set-Cookie' } }),
    /private takes header names in quotes/,
    'show',
  ],
  [
    'an empty value',
    () => resource('posts', all, { cache: { show: ' ' } }),
    /must be a Cache-Control value/,
    'show',
  ],
  [
    'a value that is not a string',
    () => resource('posts', all, { cache: { show: 60 as never } }),
    /must be a Cache-Control value such as "no-cache"/,
    'show',
  ],
  [
    'an option that is neither',
    () => resource('posts', all, { cache: ['no-cache'] as never }),
    /"cache" must be a Cache-Control value for every GET action/,
    undefined,
  ],
];

for (const [label, define, message, action] of refusals) {
  test(`cache :: ${label} is a RouteDefinitionError naming the resource, the action and the fix`, () => {
    try {
      define();
      assert.unreachable('no error thrown');
    } catch (error) {
      assert.instance(error, RouteDefinitionError);
      assert.match((error as Error).message, message);
      assert.is((error as RouteDefinitionError).action, action);
    }
  });
}

const answerOf = CACHE_CONTROL.onSend!;
const route = resource('posts', { show: ok, destroy: ok }, { cache: { show: 'no-cache' } }).routes[0]!;
const answer = (status: number, method = 'GET', headers: Record<string, string> = {}) => {
  const out: HttpResponse = { status, headers: { ...headers }, body: '' };
  answerOf({ method, route, headers: {} } as unknown as HookRequest, out);
  return out.headers;
};

test('cache :: sent with 200 and 304 to GET and HEAD; never with errors; a handler’s own wins', () => {
  assert.equal(answer(200), { 'Cache-Control': 'no-cache' });
  assert.equal(answer(304, 'HEAD'), { 'Cache-Control': 'no-cache' });
  for (const status of [201, 204, 302, 400, 404, 500, 503]) assert.equal(answer(status), {}, String(status));
  assert.equal(answer(200, 'POST'), {});
  assert.equal(answer(200, 'GET', { 'cache-control': 'no-store' }), { 'cache-control': 'no-store' });
});

test('cache :: the listing shows a Cache-Control column once a route has one', () => {
  const posts = resource(
    'posts',
    { index: ok, show: ok, create: ok },
    { cache: { show: 'private, max-age=60' } },
  );
  assert.is(
    formatRoutes(posts),
    [
      'Name          Method  Path             Action        Hooks         Cache-Control',
      'posts.index   GET     /posts           posts#index   -             -',
      'posts.show    GET     /posts/:post_id  posts#show    cacheControl  private, max-age=60',
      'posts.create  POST    /posts           posts#create  -             -',
      '',
    ].join('\n'),
  );
  const json = JSON.parse(formatRoutes(posts, 'json'));
  assert.is(json[1].cacheControl, 'private, max-age=60');
});

test('cache :: OpenAPI documents Cache-Control on the 200, and on the 304 etag() adds', () => {
  const posts = resource('posts', { index: ok, show: ok }, { cache: { show: 'private, max-age=60' } });
  const doc = openapi(scope({ hooks: [etag()] }, posts), { title: 't', version: '1' });
  const show = (doc.paths as any)['/posts/{post_id}'].get.responses;
  assert.is(show['200'].headers['Cache-Control'].example, 'private, max-age=60');
  assert.is(show['304'].headers['Cache-Control'].example, 'private, max-age=60');
  assert.ok(show['200'].headers.ETag && show['304'].headers.ETag);
  assert.is(show['404'].headers, undefined, 'errors carry neither');
  assert.is(show.default.headers, undefined);
  const index = (doc.paths as any)['/posts'].get.responses;
  assert.is(index['200'].headers['Cache-Control'], undefined);
  assert.ok(index['200'].headers.ETag);
});

test.run();
