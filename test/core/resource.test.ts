import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resource, RouteDefinitionError, type Route } from '../../core/index.js';
import { ACTIONS } from '../../core/define/actions.js';
import { IRREGULAR, UNCOUNTABLE } from '../../core/define/inflect.js';

const ok = () => 'ok';
const all = { index: ok, show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };

const summary = (table: readonly Route[]) => table.map((r) => `${r.name} ${r.method} ${r.path}`);

test('resource() :: the seven routes of the spec, in table order', () => {
  const posts = resource('posts', all);
  assert.equal(summary(posts.routes), [
    'posts.index GET /posts',
    'posts.show GET /posts/:post_id',
    'posts.new GET /posts/:post_id/new',
    'posts.edit GET /posts/:post_id/edit',
    'posts.create POST /posts',
    'posts.update PUT /posts/:post_id',
    'posts.destroy DELETE /posts/:post_id',
  ]);
  assert.equal(
    posts.routes.map((r) => r.params),
    [[], ['post_id'], ['post_id'], ['post_id'], [], ['post_id'], ['post_id']],
  );
  assert.equal(
    posts.routes.map((r) => r.body),
    [false, false, false, false, true, true, false],
  );
  assert.ok(posts.routes.every((r) => r.resource === 'posts' && r.handler === ok));
});

test('resource() :: routes are frozen plain records and JSON gives the data without functions', () => {
  const posts = resource('posts', { show: ok });
  assert.ok(Object.isFrozen(posts) && Object.isFrozen(posts.routes) && Object.isFrozen(posts.routes[0]));
  assert.is(
    JSON.stringify(posts.routes),
    '[{"resource":"posts","action":"show","method":"GET","path":"/posts/:post_id","params":["post_id"],"name":"posts.show","body":false}]',
  );
  assert.throws(() => ((posts.routes as Route[]).push as Function)(posts.routes[0]));
});

test('resource() :: one route per action with a handler, in table order whatever the key order', () => {
  const posts = resource('posts', { destroy: ok, index: ok, show: undefined });
  assert.equal(
    posts.routes.map((r) => r.action),
    ['index', 'destroy'],
  );
  assert.equal(Object.keys(posts.actions), ['index', 'destroy']);
  assert.is(posts.actions.destroy.path, '/posts/:post_id');
});

test('resource() :: only, except, param and path change the table', () => {
  assert.equal(summary(resource('posts', all, { only: ['show', 'index'] }).routes), [
    'posts.index GET /posts',
    'posts.show GET /posts/:post_id',
  ]);
  assert.equal(
    resource('posts', all, { except: ['new', 'edit', 'destroy', 'update', 'create'] }).routes.map(
      (r) => r.action,
    ),
    ['index', 'show'],
  );
  const articles = resource('articles', all, { param: 'slug', path: 'blog-articles' });
  assert.is(articles.param, 'slug');
  assert.is(articles.actions.edit.path, '/blog-articles/:slug/edit');
  assert.equal(articles.actions.edit.params, ['slug']);
  assert.is(articles.actions.edit.name, 'articles.edit');
  assert.is(resource('categories', all).actions.show.path, '/categories/:category_id');
  assert.is(resource('people2', all, { param: 'id' }).actions.show.path, '/people2/:id');
});

// Each case: what resource() is given, and what the error must say.
const MISTAKES: ReadonlyArray<[label: string, call: () => unknown, message: RegExp, action?: string]> = [
  [
    'typo in an action',
    () => resource('posts', { destory: ok } as never),
    /resource\("posts"\): unknown action "destory" \(did you mean "destroy"\?\)/,
    'destory',
  ],
  [
    'unknown action far from any',
    () => resource('posts', { publish: ok } as never),
    /unknown action "publish"; declare it in options.member \(e.g. \{ member: \{ publish: .POST. \} \}\) or options.collection, or use one of index, show/,
    'publish',
  ],
  [
    'handler that is not a function',
    () => resource('posts', { show: 'nope' } as never),
    /the handler for posts#show must be a function, got "nope"/,
    'show',
  ],
  [
    'null handler',
    () => resource('posts', { index: null } as never),
    /posts#index must be a function, got null/,
    'index',
  ],
  ['empty name', () => resource('' as never, all), /invalid resource name/],
  [
    'name with a slash',
    () => resource('blog/posts' as never, all),
    /resource\("blog\/posts"\): invalid resource name/,
  ],
  ['name with a dash', () => resource('blog-posts' as never, all), /set options\.path for the URL/],
  ['name that is not a string', () => resource(42 as never, all), /invalid resource name/],
  ['handlers that are not an object', () => resource('posts', null as never), /handlers must be an object/],
  ['no handlers', () => resource('posts', {}), /resource\("posts"\): no routes/],
  [
    'only with an unknown action',
    () => resource('posts', all, { only: ['shwo'] } as {}),
    /"only" names unknown action "shwo" \(did you mean "show"\?\)/,
    'shwo',
  ],
  [
    'except with an unknown action',
    () => resource('posts', all, { except: ['delete'] } as {}),
    /"except" names unknown action "delete"/,
    'delete',
  ],
  [
    'only listing an action without handler',
    () => resource('posts', { index: ok }, { only: ['index', 'show'] }),
    /posts#show is listed in "only" but has no handler/,
    'show',
  ],
  [
    'only and except together',
    () => resource('posts', all, { only: ['index'], except: ['show'] } as {}),
    /use "only" or "except", not both/,
  ],
  [
    'only that is not an array',
    () => resource('posts', all, { only: 'index' } as {}),
    /"only" must be an array/,
  ],
  [
    'unknown option',
    () => resource('posts', all, { params: 'id' } as {}),
    /unknown option "params" \(did you mean "param"\?\)/,
  ],
  ['bad param', () => resource('posts', all, { param: 'post-id' }), /"param" must be an identifier/],
  ['bad path', () => resource('posts', all, { path: 'a/b' }), /"path" must be one URL segment/],
  ['dot path', () => resource('posts', all, { path: '..' }), /"path" must be one URL segment/],
  [
    'name without a singular',
    () => resource('people2' as never, all),
    /cannot tell the singular of "people2".*options\.param/,
  ],
];

for (const [label, call, message, action] of MISTAKES) {
  test(`resource() :: ${label} is a RouteDefinitionError naming resource and action`, () => {
    try {
      call();
    } catch (error) {
      assert.instance(error, RouteDefinitionError);
      const e = error as RouteDefinitionError;
      assert.match(e.message, message);
      assert.is(e.name, 'RouteDefinitionError');
      if (action !== undefined) assert.is(e.action, action);
      return;
    }
    assert.unreachable('no error thrown');
  });
}

test('resource() :: reads each option and handler once, and builds from tables nobody can change', () => {
  let reads = 0;
  const options = {
    get param() {
      reads++;
      return reads > 1 ? 'id/:x' : 'id';
    },
  };
  const one = resource('posts', { show: ok }, options as { param: 'id' });
  assert.is(reads, 1);
  assert.is(one.actions.show.path, '/posts/:id');
  let looks = 0;
  const handlers = {
    get show() {
      looks++;
      return looks > 1 ? 42 : ok;
    },
  };
  assert.is(resource('posts', handlers as never).routes[0]!.handler, ok);
  assert.is(looks, 1);
  for (const frozen of [ACTIONS, ACTIONS.show, IRREGULAR, UNCOUNTABLE]) assert.ok(Object.isFrozen(frozen));
  assert.throws(() => {
    (ACTIONS.show as { method: string }).method = 'GET /evil';
  }, TypeError);
});

test.run();
