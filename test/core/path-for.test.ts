import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pathFor } from '../../core/index.js';
import { matcher, posts, table } from '../support/matcher.js';

// pathFor(): the path of a route for its params, the inverse of match().
test('pathFor() :: builds encoded paths and refuses missing params', () => {
  assert.is(pathFor(posts.actions.edit, { post_id: 'a b/c' }), '/posts/a%20b%2Fc/edit');
  assert.is(pathFor(posts.actions.index), '/posts');
  assert.is(pathFor('/posts/:post_id', { post_id: 7 }), '/posts/7');
  assert.throws(
    () => pathFor(posts.actions.show, {} as never),
    /pathFor\('\/posts\/:post_id'\): missing value for :post_id/,
  );
  assert.throws(() => pathFor(posts.actions.show, { post_id: '' }), /missing value for :post_id/);
});

test('pathFor() :: refuses "." and ".." as paths() does: no link could carry them', () => {
  for (const value of ['.', '..']) {
    assert.throws(
      () => pathFor(posts.actions.edit, { post_id: value }),
      (error: unknown) =>
        error instanceof TypeError &&
        error.message ===
          `pathFor('/posts/:post_id/edit'): :post_id cannot be ${JSON.stringify(value)}: URL parsers resolve it as a dot segment, so no link could carry it`,
    );
  }
  assert.is(pathFor(posts.actions.show, { post_id: '...' }), '/posts/...');
  assert.is(pathFor(posts.actions.show, { post_id: '.a' }), '/posts/.a');
});

test('pathFor() and match() :: are inverses for every route, whatever the param value', () => {
  const values = ['1', 'a b', 'a/b', 'ü ✓', '100%', '?x=1#y', 'new', '__proto__', "it's+ok"];
  for (const route of table) {
    for (const value of values) {
      const params = Object.fromEntries(route.params.map((name) => [name, value]));
      const m = matcher.match(route.method, pathFor(route.path, params as never));
      assert.is(m.kind === 'found' && m.route, route, `${route.name} with ${value}`);
      assert.equal(m.kind === 'found' && { ...m.params }, params);
    }
  }
});

test.run();
