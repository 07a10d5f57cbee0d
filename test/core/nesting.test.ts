import { Validator } from '@seriousme/openapi-schema-validator';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  formatRoutes,
  guard,
  openapi,
  prefix,
  resource,
  RouteDefinitionError,
  routes,
  singular,
  type Route,
} from '../../core/index.js';

const ok = () => 'ok';
const all = { index: ok, show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };
const one = { show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };
const summary = (table: readonly Route[]) =>
  table.map((r) => `${r.name} ${r.method} ${r.path} [${r.params}]`);

const posts = resource('posts', all);

test('nesting :: a child nests under its parent, params in path order', () => {
  const comments = resource('comments', all, { parent: posts });
  assert.equal(summary(comments.routes), [
    'comments.index GET /posts/:post_id/comments [post_id]',
    'comments.show GET /posts/:post_id/comments/:comment_id [post_id,comment_id]',
    'comments.new GET /posts/:post_id/comments/:comment_id/new [post_id,comment_id]',
    'comments.edit GET /posts/:post_id/comments/:comment_id/edit [post_id,comment_id]',
    'comments.create POST /posts/:post_id/comments [post_id]',
    'comments.update PUT /posts/:post_id/comments/:comment_id [post_id,comment_id]',
    'comments.destroy DELETE /posts/:post_id/comments/:comment_id [post_id,comment_id]',
  ]);
  assert.is(comments.memberPath, '/posts/:post_id/comments/:comment_id');
});

test('nesting :: the same convention at every depth', () => {
  const comments = resource('comments', all, { parent: posts });
  const likes = resource('likes', { index: ok, show: ok }, { parent: comments });
  assert.equal(summary(likes.routes), [
    'likes.index GET /posts/:post_id/comments/:comment_id/likes [post_id,comment_id]',
    'likes.show GET /posts/:post_id/comments/:comment_id/likes/:like_id [post_id,comment_id,like_id]',
  ]);
});

test('shallow :: index, create and new nested; show, edit, update, destroy and members un-nested', () => {
  const comments = resource(
    'comments',
    { ...all, approve: ok, recent: ok },
    { parent: posts, shallow: true, member: { approve: 'POST' }, collection: { recent: 'GET' } },
  );
  assert.equal(summary(comments.routes), [
    'comments.index GET /posts/:post_id/comments [post_id]',
    'comments.show GET /comments/:comment_id [comment_id]',
    'comments.new GET /posts/:post_id/comments/:comment_id/new [post_id,comment_id]',
    'comments.edit GET /comments/:comment_id/edit [comment_id]',
    'comments.create POST /posts/:post_id/comments [post_id]',
    'comments.update PUT /comments/:comment_id [comment_id]',
    'comments.destroy DELETE /comments/:comment_id [comment_id]',
    'comments.recent GET /posts/:post_id/comments/recent [post_id]',
    'comments.approve POST /comments/:comment_id/approve [comment_id]',
  ]);
  // A child of a shallow resource nests under its un-nested member path, as in Rails.
  const votes = resource('votes', { index: ok }, { parent: comments });
  assert.equal(summary(votes.routes), ['votes.index GET /comments/:comment_id/votes [comment_id]']);
});

test('singular() :: six actions on one path, no id, no index; nestable and a parent', () => {
  const profile = singular('profile', one);
  assert.equal(summary(profile.routes), [
    'profile.show GET /profile []',
    'profile.new GET /profile/new []',
    'profile.edit GET /profile/edit []',
    'profile.create POST /profile []',
    'profile.update PUT /profile []',
    'profile.destroy DELETE /profile []',
  ]);
  assert.is(profile.param, undefined);
  const author = singular(
    'author',
    { show: ok, edit: ok, reset: ok },
    { parent: posts, member: { reset: 'POST' } },
  );
  assert.equal(summary(author.routes), [
    'author.show GET /posts/:post_id/author [post_id]',
    'author.edit GET /posts/:post_id/author/edit [post_id]',
    'author.reset POST /posts/:post_id/author/reset [post_id]',
  ]);
  const avatars = resource('avatars', { index: ok, show: ok }, { parent: profile });
  assert.equal(summary(avatars.routes), [
    'avatars.index GET /profile/avatars []',
    'avatars.show GET /profile/avatars/:avatar_id [avatar_id]',
  ]);
});

test('extra actions, patch and newPath :: routes after the seven, bodies by method', () => {
  const table = resource(
    'posts',
    { index: ok, new: ok, update: ok, publish: ok, search: ok, archive: ok },
    {
      member: { publish: 'POST', archive: 'DELETE' },
      collection: { search: 'GET' },
      patch: true,
      newPath: 'collection',
    },
  );
  assert.equal(
    table.routes.map((r) => `${r.name} ${r.method} ${r.path} ${r.body}`),
    [
      'posts.index GET /posts false',
      'posts.new GET /posts/new false',
      'posts.update PUT /posts/:post_id true',
      'posts.update PATCH /posts/:post_id true',
      'posts.search GET /posts/search false',
      'posts.publish POST /posts/:post_id/publish true',
      'posts.archive DELETE /posts/:post_id/archive false',
    ],
  );
  // The PUT route is the action's entry; PATCH shares its path and handler.
  assert.is(table.actions.update.method, 'PUT');
  assert.is(table.routes[3]!.handler, table.routes[2]!.handler);
});

test('extra actions :: schemas and guards are keyed by them like the seven', () => {
  const admin = guard('admin', () => undefined);
  const table = resource(
    'posts',
    { show: ok, publish: ok },
    {
      member: { publish: 'POST' },
      schemas: { publish: { body: { type: 'object', properties: { at: { type: 'string' } } } as const } },
      before: { publish: [admin] },
    },
  );
  const publish = table.actions.publish;
  assert.equal(publish.schema?.body, { type: 'object', properties: { at: { type: 'string' } } });
  assert.equal(publish.guards, [admin]);
  assert.is(table.actions.show.guards, undefined);
  const everywhere = resource(
    'posts',
    { show: ok, publish: ok },
    { member: { publish: 'POST' }, before: [admin] },
  );
  assert.equal(everywhere.actions.publish.guards, [admin]);
});

const DEFINITION_ERRORS: ReadonlyArray<[string, () => unknown, RegExp]> = [
  [
    'a handler with no declaration',
    () => resource('posts', { show: ok, publish: ok } as {}),
    /resource\("posts"\): unknown action "publish"; declare it in options.member/,
  ],
  [
    'a declaration with no handler',
    () => resource('posts', { show: ok } as {}, { member: { publish: 'POST' } } as {}),
    /posts#publish is declared in options.member but has no handler; add publish to the handlers/,
  ],
  [
    'a misspelt extra handler',
    () => resource('posts', { show: ok, pubilsh: ok } as {}, { member: { publish: 'POST' } } as {}),
    /unknown action "pubilsh" \(did you mean "publish"\?\)/,
  ],
  [
    'an extra that is one of the seven',
    () => resource('posts', { show: ok }, { member: { show: 'POST' } } as {}),
    /"show" is one of the seven actions; remove it from "member"/,
  ],
  [
    'an extra method in lower case',
    () => resource('posts', { publish: ok } as {}, { member: { publish: 'post' } } as {}),
    /the method of posts#publish must be one of GET, POST, PUT, PATCH, DELETE, got "post" \(did you mean "POST"\?\)/,
  ],
  [
    'an extra in member and collection',
    () => resource('posts', { x: ok } as {}, { member: { x: 'POST' }, collection: { x: 'GET' } } as {}),
    /"x" is declared in both "member" and "collection"/,
  ],
  [
    'a body schema on a GET extra',
    () =>
      resource(
        'posts',
        { search: ok } as {},
        {
          collection: { search: 'GET' },
          schemas: { search: { body: {} } },
        } as {},
      ),
    /posts#search reads no request body, so it cannot have a body schema/,
  ],
  [
    'schemas for an undeclared extra',
    () => resource('posts', { show: ok }, { schemas: { publsh: {} } } as {}),
    /"schemas" names unknown action "publsh"/,
  ],
  [
    'shallow without a parent',
    () => resource('posts', all, { shallow: true }),
    /"shallow" un-nests a child's member routes, so it needs a "parent"/,
  ],
  [
    'a parent that is not a resource',
    () => resource('comments', all, { parent: { name: 'posts' } } as {}),
    /"parent" must be a resource made by resource\(\) or singular\(\)/,
  ],
  [
    "a child's param clashing with its parent's",
    () => resource('posts', all, { parent: posts }),
    /its id param "post_id" is already a param of its parent posts \(\/posts\/:post_id\); pass options.param/,
  ],
  [
    'newPath misspelt',
    () => resource('posts', all, { newPath: 'collections' } as {}),
    /"newPath" must be "member" \(GET \/posts\/:id\/new\) or "collection"/,
  ],
  [
    'patch not a boolean',
    () => resource('posts', all, { patch: 'yes' } as {}),
    /"patch" must be true or false/,
  ],
  [
    'an index on a singular resource',
    () => singular('profile', { index: ok, show: ok } as {}),
    /singular\("profile"\): unknown action "index"; a singular resource has no index/,
  ],
  [
    'a param on a singular resource',
    () => singular('profile', one, { param: 'id' } as {}),
    /a singular resource takes no "param": it has no id/,
  ],
  [
    'a collection action on a singular resource',
    () => singular('profile', one, { collection: { x: 'GET' } } as {}),
    /a singular resource takes no "collection": it has no collection; declare the action in "member"/,
  ],
];

for (const [name, define, message] of DEFINITION_ERRORS) {
  test(`definition errors :: ${name}`, () => {
    try {
      define();
    } catch (error) {
      assert.instance(error, RouteDefinitionError);
      assert.match((error as Error).message, message);
      return;
    }
    assert.unreachable('no error was thrown');
  });
}

test('tables :: a route no request can reach, across resources, is an error naming both', () => {
  const comments = resource('comments', { index: ok }, { parent: posts });
  const extra = resource('posts', { show: ok, comments: ok }, { member: { comments: 'GET' }, path: 'posts' });
  assert.throws(
    () => routes(comments, resource('articles', extra.routes.length > 0 ? { show: ok } : {}), extra),
    /GET \/posts\/:post_id\/comments is defined twice: by comments.index and by posts.comments, so posts.comments could never be reached/,
  );
  // One name, one path: the same resource mounted twice under different paths is refused.
  assert.throws(
    () => routes(prefix('/v1', posts), prefix('/v2', posts)),
    /two routes are named posts.index: GET \/v1\/posts and GET \/v2\/posts/,
  );
});

test('prefix() :: paths carry it, names stay, prefixes compose, and only static prefixes are taken', () => {
  const comments = resource('comments', { index: ok, show: ok }, { parent: posts, shallow: true });
  const table = prefix('/api', prefix('/v1', posts, comments));
  assert.equal(
    table.map((r) => `${r.name} ${r.path}`),
    [
      'posts.index /api/v1/posts',
      'posts.show /api/v1/posts/:post_id',
      'posts.new /api/v1/posts/:post_id/new',
      'posts.edit /api/v1/posts/:post_id/edit',
      'posts.create /api/v1/posts',
      'posts.update /api/v1/posts/:post_id',
      'posts.destroy /api/v1/posts/:post_id',
      'comments.index /api/v1/posts/:post_id/comments',
      'comments.show /api/v1/comments/:comment_id',
    ],
  );
  assert.ok(Object.isFrozen(table) && Object.isFrozen(table[0]));
  for (const bad of ['api', '/api/', '/:org', '/a//b', '/a/../b', '', '/a b']) {
    assert.throws(() => prefix(bad as '/x', posts), /a prefix is static, such as "\/api\/v1"/, bad);
  }
});

test('listing :: nested, singular, extra and prefixed routes, and the params static segments shadow', () => {
  const table = prefix(
    '/v1',
    resource('posts', { index: ok, show: ok, search: ok }, { collection: { search: 'GET' } }),
    singular('profile', { show: ok }),
  );
  assert.is(
    formatRoutes(table),
    [
      'Name          Method  Path                Action        Unreachable with',
      'posts.index   GET     /v1/posts           posts#index   -',
      'posts.show    GET     /v1/posts/:post_id  posts#show    post_id=search (posts.search)',
      'posts.search  GET     /v1/posts/search    posts#search  -',
      'profile.show  GET     /v1/profile         profile#show  -',
      '',
    ].join('\n'),
  );
  const json = JSON.parse(formatRoutes(table, 'json')) as Array<{ name: string; shadowedBy?: unknown }>;
  assert.equal(json[1]!.shadowedBy, [{ route: 'posts.search', values: { post_id: 'search' } }]);
  assert.is(json[0]!.shadowedBy, undefined);
  assert.match(
    formatRoutes(table, 'md'),
    /\| posts.show +\| GET +\| \/v1\/posts\/:post_id +\| posts#show +\| post_id=search \(posts.search\) \|/,
  );
});

test('openapi() :: parent params are path parameters, the prefix is in the paths, PATCH has its own operation', async () => {
  const comments = resource('comments', { index: ok, update: ok }, { parent: posts, patch: true });
  const doc = openapi(prefix('/api', posts, comments)) as {
    paths: Record<string, Record<string, { operationId?: string; parameters?: unknown[] }>>;
  };
  const item = doc.paths['/api/posts/{post_id}/comments/{comment_id}']!;
  assert.equal(
    (item.parameters as Array<{ name: string }>).map((p) => p.name),
    ['post_id', 'comment_id'],
  );
  assert.is(item.put!.operationId, 'comments.update');
  assert.is(item.patch!.operationId, 'comments.update.patch');
  assert.is(item.post!.operationId, 'comments.update.form');
  assert.ok((await new Validator().validate(doc as never)).valid);
});

test('openapi() :: a body is required only where a body schema asks for one', () => {
  const drafts = resource(
    'drafts',
    { create: ok, update: ok, publish: ok },
    { member: { publish: 'POST' }, schemas: { create: { body: { type: 'object' } } } },
  );
  const doc = openapi(drafts) as {
    paths: Record<string, Record<string, { requestBody?: { required: boolean } }>>;
  };
  assert.is(doc.paths['/drafts']!.post!.requestBody!.required, true);
  assert.is(doc.paths['/drafts/{draft_id}']!.put!.requestBody!.required, false);
  assert.is(doc.paths['/drafts/{draft_id}/publish']!.post!.requestBody!.required, false);
});

test('openapi() :: the one record of a singular resource may not be there: 404 on show, edit, update, destroy', () => {
  const profile = singular('profile', { show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok });
  const doc = openapi(profile) as { paths: Record<string, Record<string, { responses: object }>> };
  const has404 = (path: string, method: string) => '404' in doc.paths[path]![method]!.responses;
  assert.equal(
    [
      has404('/profile', 'get'),
      has404('/profile/edit', 'get'),
      has404('/profile', 'put'),
      has404('/profile', 'delete'),
      has404('/profile/new', 'get'),
      has404('/profile', 'post'),
    ],
    [true, true, true, true, false, false],
  );
});

test.run();
