import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type RouteTable } from '../../core/index.js';
import { compile, type MatcherOptions } from '../../core/matcher/index.js';
import { brief, matcher, table } from '../support/matcher.js';

// match() on a table of posts and tags, case by case, on the generated walk and on the general one.
const CASES: ReadonlyArray<[method: string, path: string, expected: string]> = [
  ['GET', '/posts', 'posts.index {}'],
  ['GET', '/posts/', 'posts.index {}'],
  ['POST', '/posts', 'posts.create {}'],
  ['GET', '/posts/42', 'posts.show {"post_id":"42"}'],
  ['PUT', '/posts/42', 'posts.update {"post_id":"42"}'],
  ['DELETE', '/posts/42', 'posts.destroy {"post_id":"42"}'],
  ['GET', '/posts/42/new', 'posts.new {"post_id":"42"}'],
  ['GET', '/posts/42/edit', 'posts.edit {"post_id":"42"}'],
  ['GET', '/posts/42/edit/', 'posts.edit {"post_id":"42"}'],
  ['GET', '/tags/ruby', 'tags.show {"name":"ruby"}'],
  // Static segments beat params, and a dead end on the static branch falls back to the param.
  ['GET', '/posts/search', 'posts.search {}'],
  ['GET', '/posts/search/edit', 'posts.edit {"post_id":"search"}'],
  ['DELETE', '/posts/search', 'posts.destroy {"post_id":"search"}'],
  ['GET', '/posts/new', 'posts.show {"post_id":"new"}'],
  ['HEAD', '/posts/42', 'posts.show {"post_id":"42"}'],
  ['HEAD', '/posts', 'posts.index {}'],
  // Params are decoded once; reserved words are ordinary values in an object without Object.prototype.
  ['GET', '/posts/a%20b', 'posts.show {"post_id":"a b"}'],
  ['GET', '/posts/a%2Fb', 'posts.show {"post_id":"a/b"}'],
  ['GET', '/posts/%E2%9C%93', 'posts.show {"post_id":"✓"}'],
  ['GET', '/posts/__proto__', 'posts.show {"post_id":"__proto__"}'],
  ['GET', '/posts/constructor', 'posts.show {"post_id":"constructor"}'],
  ['GET', '/p%6Fsts', 'posts.index {}'],
  ['PATCH', '/posts/42', '405 GET, HEAD, PUT, DELETE, OPTIONS'],
  ['POST', '/posts/42/edit', '405 GET, HEAD, OPTIONS'],
  ['DELETE', '/posts', '405 GET, HEAD, POST, OPTIONS'],
  ['OPTIONS', '/posts', '405 GET, HEAD, POST, OPTIONS'],
  // Allow covers every route the path matches: the static search and the param routes beside it.
  ['PATCH', '/posts/search', '405 GET, HEAD, PUT, DELETE, OPTIONS'],
  ['OPTIONS', '/posts/search', '405 GET, HEAD, PUT, DELETE, OPTIONS'],
  ['GET', '/', '404'],
  ['GET', 'posts', '404'],
  ['GET', '*', '404'],
  ['GET', '/nope', '404'],
  ['GET', '/posts//edit', '404'],
  ['GET', '/posts/42/edit/more', '404'],
  ['GET', '/tags/ruby/edit', '404'],
  ['GET', '/Posts', '404'],
  ['GET', '/posts/%E0%A4%A', '400 the path has malformed percent-encoding'],
  ['GET', '/posts/%C0%AE', '400 the path has malformed percent-encoding'],
  ['GET', '/posts/%zz', '400 the path has malformed percent-encoding'],
  ['GET', '/posts/a%00b', '400 control characters are not allowed in the path'],
  ['GET', '/posts/a%0D%0Ab', '400 control characters are not allowed in the path'],
  ['GET', '/posts/..', '400 dot segments are not allowed in the path'],
  ['GET', '/posts/%2e%2e/edit', '400 dot segments are not allowed in the path'],
  ['GET', `/posts/${'x'.repeat(1025)}`, '400 path parameter :post_id is longer than 1024 characters'],
];

/** The walks every case runs on: the one generated for the table, and the general one it must answer as. */
const WALKS = [
  { name: 'generated', compile: (t: RouteTable, options?: MatcherOptions) => compile(t, options) },
  {
    name: 'general',
    compile: (t: RouteTable, options?: MatcherOptions) => compile(t, { ...options, generate: false }),
  },
] as const;

/**
 * Runs each case on every walk, one test a walk and case, in the spirit of hono's `runTest({ newRouter })`.
 */
function runWalks(
  t: RouteTable,
  cases: ReadonlyArray<readonly [method: string, path: string, expected: string]>,
): void {
  for (const walk of WALKS) {
    const m = walk.compile(t);
    test(`compile() :: the ${walk.name} walk is the one ${walk.name === 'generated' ? 'used' : 'asked for'}`, () => {
      assert.is(m.generated, walk.name === 'generated');
    });
    for (const [method, path, expected] of cases) {
      test(`match() :: ${walk.name} walk :: ${method} ${path.length > 40 ? `${path.slice(0, 40)}…` : path}`, () => {
        assert.is(brief(m.match(method, path)), expected);
      });
    }
  }
}

runWalks(table, CASES);

test('match() :: params live in an object without Object.prototype', () => {
  const m = matcher.match('GET', '/posts/__proto__');
  assert.is(m.kind, 'found');
  if (m.kind !== 'found') return;
  assert.not.ok(Object.prototype.isPrototypeOf(m.params));
  assert.not.ok('constructor' in m.params);
  assert.is(({} as Record<string, unknown>).post_id, undefined);
});

test('match() :: maxParamLength is an option', () => {
  assert.is(
    brief(compile(table, { maxParamLength: 3 }).match('GET', '/posts/1234')),
    '400 path parameter :post_id is longer than 3 characters',
  );
  assert.is(
    brief(compile(table, { maxParamLength: 3 }).match('GET', '/posts/123')),
    'posts.show {"post_id":"123"}',
  );
});

test.run();
