import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { paths, prefix, resource, routes, singular, unreachableIds } from '../../core/index.js';
import { compile } from '../../core/matcher/index.js';
import { shadows } from '../../core/table/shadows.js';

const ok = () => 'ok';
const all = { index: ok, show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };
const posts = resource(
  'posts',
  { ...all, publish: ok, search: ok },
  { member: { publish: 'POST' }, collection: { search: 'GET' }, patch: true },
);
const comments = resource('comments', all, { parent: posts, shallow: true });
const profile = singular('profile', { show: ok, edit: ok, update: ok });
const table = prefix('/api/v1', posts, comments, profile);
const p = paths(table);

test('paths() :: every param percent-encoded, the prefix carried, query as a second argument', () => {
  assert.is(p.posts.show({ post_id: 'a b' }), '/api/v1/posts/a%20b');
  assert.is(p.posts.show({ post_id: 'a/b?c#d' }), '/api/v1/posts/a%2Fb%3Fc%23d');
  assert.is(p.posts.show({ post_id: ':post_id' }), '/api/v1/posts/%3Apost_id');
  assert.is(p.posts.show({ post_id: 42 }), '/api/v1/posts/42');
  assert.is(p.comments.new({ post_id: 'p', comment_id: 'c' }), '/api/v1/posts/p/comments/c/new');
  assert.is(p.comments.show({ comment_id: 'é' }), '/api/v1/comments/%C3%A9');
  assert.is(p.posts.index(), '/api/v1/posts');
  assert.is(p.posts.index(undefined, { limit: 10, offset: undefined }), '/api/v1/posts?limit=10');
  assert.is(
    p.posts.search(undefined, { q: 'a&b=c', tag: ['x', 'y z'], all: true }),
    '/api/v1/posts/search?q=a%26b%3Dc&tag=x&tag=y%20z&all=true',
  );
  assert.is(p.profile.show(), '/api/v1/profile');
  assert.is(p.posts.show.pattern, '/api/v1/posts/:post_id');
  assert.is(p.posts.publish.method, 'POST');
});

test('paths() :: what match() decodes is what the helper was given, on every route', () => {
  const matcher = compile(table);
  const value = 'a b/ü%?';
  for (const route of table) {
    const params = Object.fromEntries(route.params.map((name) => [name, value]));
    const helper = (p as unknown as Record<string, Record<string, (x: object) => string>>)[route.resource]![
      route.action
    ]!;
    const found = matcher.match(route.method, helper(params));
    assert.is(found.kind, 'found', route.name);
    if (found.kind === 'found') {
      assert.is(found.route.name, route.name);
      assert.equal({ ...found.params }, params);
    }
  }
});

test('prefix() :: a prefix with quotes, $, parentheses and = is matched alike by the generated and the general walk', () => {
  const odd = prefix("/it's(1)$x;y=z", posts, comments);
  const helpers = paths(odd);
  const generated = compile(odd);
  const general = compile(odd, { generate: false });
  for (const path of [
    helpers.posts.index(),
    helpers.posts.show({ post_id: "q'x" }),
    helpers.comments.show({ comment_id: '${x}' }),
    '/it%27s(1)$x;y=z/posts',
    "/it's(1)$x;y=z/post",
  ]) {
    const a = generated.match('GET', path);
    const b = general.match('GET', path);
    assert.equal(
      { ...a, params: a.kind === 'found' ? { ...a.params } : undefined },
      {
        ...b,
        params: b.kind === 'found' ? { ...b.params } : undefined,
      },
    );
  }
  assert.is(generated.match('GET', helpers.posts.show({ post_id: "q'x" })).kind, 'found');
});

test('paths().form() :: what an HTML form needs: POST with _method for PUT, PATCH and DELETE', () => {
  assert.equal(p.posts.update.form({ post_id: 42 }), {
    action: '/api/v1/posts/42',
    method: 'POST',
    fields: { _method: 'PUT' },
  });
  assert.equal(p.posts.destroy.form({ post_id: 'a b' }), {
    action: '/api/v1/posts/a%20b',
    method: 'POST',
    fields: { _method: 'DELETE' },
  });
  assert.equal(p.posts.create.form(), { action: '/api/v1/posts', method: 'POST', fields: {} });
  assert.equal(p.posts.search.form(), { action: '/api/v1/posts/search', method: 'GET', fields: {} });
  assert.equal(p.profile.update.form(), {
    action: '/api/v1/profile',
    method: 'POST',
    fields: { _method: 'PUT' },
  });
  assert.ok(Object.isFrozen(p.posts.create.form().fields));
});

test('paths() :: JavaScript callers get TypeErrors naming the fix', () => {
  const loose = p as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>;
  const cases: Array<[() => unknown, RegExp]> = [
    [
      () => loose.postz,
      /paths\(\): no resource "postz" \(did you mean "posts"\?\); there are posts, comments, profile/,
    ],
    [() => loose.posts!.shwo, /paths\(\).posts: no action "shwo" \(did you mean "show"\?\)/],
    [() => loose.posts!.show!(), /paths\(\).posts.show: missing value for :post_id/],
    [() => loose.posts!.show!({ post_id: '' }), /missing value for :post_id/],
    [() => loose.posts!.show!({ post_id: Number.NaN }), /missing value for :post_id/],
    [
      () => loose.posts!.show!({ post_id: '..' }),
      /:post_id cannot be "\.\.": URL parsers resolve it as a dot segment/,
    ],
    [() => loose.posts!.show!({ post_id: '.' }), /:post_id cannot be "\."/],
    [() => loose.posts!.show!({ post_id: {} }), /missing value for :post_id/],
    [
      () => loose.posts!.show!({ postid: 1 }),
      /"postid" is not a param of \/api\/v1\/posts\/:post_id \(did you mean "post_id"\?\)/,
    ],
    [() => loose.posts!.show!({ post_id: 1, extra: 2 }), /"extra" is not a param/],
    [() => loose.posts!.index!('x'), /params must be an object/],
    [() => loose.posts!.index!(undefined, 'limit=1'), /the query must be an object/],
    [() => loose.posts!.index!(undefined, { a: {} }), /query value "a" must be a string, number or boolean/],
  ];
  for (const [call, message] of cases) assert.throws(call, message);
  // What libraries probe on any object reads as absent: the helpers can be awaited, logged and serialised.
  assert.is((p as unknown as { then?: unknown }).then, undefined);
  assert.equal(Object.keys(p), ['posts', 'comments', 'profile']);
  assert.ok(Object.isFrozen(p.posts));
});

test('paths() :: from a resource alone, and from an untyped table', () => {
  assert.is(paths(posts).posts.edit({ post_id: 1 }), '/posts/1/edit');
  const untyped: readonly import('../../core/index.js').Route[] = routes(posts);
  assert.is(paths(untyped)['posts']!['show']!({ post_id: 1 }), '/posts/1');
});

test('shadows() :: a static beside a param, across resources, but not where the walk backtracks', () => {
  const found = shadows(table).map((s) => `${s.route} ${s.by} ${JSON.stringify(s.values)}`);
  // posts.edit (/posts/search/edit) is reached: the walk backtracks from the dead end at search.
  assert.equal(found, ['posts.show posts.search {"post_id":"search"}']);
  // Across resources: another resource's static path where posts has its param.
  const area = singular('posts_area', { show: ok }, { path: 'posts' });
  const latest = singular('latest', { show: ok, update: ok }, { parent: area });
  const mixed = routes(resource('posts', { show: ok, update: ok, destroy: ok }), latest);
  assert.equal(
    shadows(mixed).map((s) => `${s.method} ${s.route} ${s.by} ${JSON.stringify(s.values)}`),
    [
      'GET posts.show latest.show {"post_id":"latest"}',
      'PUT posts.update latest.update {"post_id":"latest"}',
    ],
  );
  assert.equal([...unreachableIds(mixed, resource('posts', { show: ok }))], ['latest']);
  // Two params against two statics: only both values at once go elsewhere.
  const pairs = routes(
    resource('comments', { show: ok }, { parent: resource('posts', { show: ok }) }),
    singular(
      'pinned',
      { show: ok },
      {
        parent: singular(
          'featured_comments',
          { show: ok },
          {
            parent: singular('featured', { show: ok }, { parent: area }),
            path: 'comments',
          },
        ),
      },
    ),
  );
  assert.equal(
    shadows(pairs).map((s) => `${s.route} ${s.by} ${JSON.stringify(s.values)}`),
    ['comments.show pinned.show {"post_id":"featured","comment_id":"pinned"}'],
  );
});

test('unreachableIds() :: the ids that can never reach a member route, for the app to refuse', () => {
  assert.equal([...unreachableIds(table, posts)], ['search']);
  assert.equal([...unreachableIds(table, comments)], []);
  assert.equal([...unreachableIds(table, profile)], []);
  const rails = resource('posts', { show: ok, new: ok }, { newPath: 'collection' });
  assert.equal([...unreachableIds(rails, rails)], ['new']);
});

test.run();
