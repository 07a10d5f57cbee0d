import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resource, RouteDefinitionError, routes, type Route } from '../../core/index.js';
import { ACTION_NAMES } from '../../core/define/actions.js';
import { compile } from '../../core/matcher/index.js';
import { checkTable, shapeOf } from '../../core/table/table.js';

const ok = () => 'ok';
const all = { index: ok, show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };

/** What a call came to: 'ok', or the message it threw. */
function outcome(call: () => unknown): string {
  try {
    call();
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

test('routes() :: combines tables in order and refuses the same method and path shape twice', () => {
  const posts = resource('posts', all);
  const tags = resource('tags', { index: ok });
  assert.equal(
    routes(posts, tags).map((r) => r.name),
    [...ACTION_NAMES.map((a) => `posts.${a}`), 'tags.index'],
  );
  assert.ok(Object.isFrozen(routes(posts)));
  assert.throws(
    () => routes(posts, resource('posts', { show: ok })),
    (e: Error) =>
      e instanceof RouteDefinitionError &&
      /GET \/posts\/:post_id is defined twice: by posts\.show and by posts\.show/.test(e.message),
  );
  // Same shape under another parameter name is still the same route.
  assert.throws(
    () => routes(posts, resource('articles', { update: ok }, { path: 'posts', param: 'slug' })),
    (e: Error) =>
      /PUT \/posts\/:slug is defined twice: by posts\.update and by articles\.update/.test(e.message),
  );
});

test('routes() :: accepts single routes and rejects what holds none', () => {
  const posts = resource('posts', { show: ok });
  assert.is(routes(posts.actions.show)[0], posts.actions.show);
  assert.throws(() => routes(42 as never), /expected a resource, a route table or a route/);
});

test('routes() :: checks each route resource() did not build, and compile() checks again what could have changed since', () => {
  const posts = resource('posts', { show: ok });
  const bad = { ...posts.actions.show, path: 'posts' };
  // A resource's lookalike is not trusted as one: its routes are checked one by one.
  assert.throws(() => routes(posts, { ...posts, routes: [bad] } as never), /path must start with "\/"/);
  assert.throws(() => routes(posts, [bad]), /path must start with "\/"/);
  const renamed = Object.freeze({ ...posts.actions.show, params: Object.freeze(['id']) });
  assert.throws(() => routes(renamed), /params \["id"\] do not match the path \/posts\/:post_id/);
  // A route that is not frozen can change after routes() checked it, so compile() checks it again.
  const loose = { ...posts.actions.show, path: '/drafts/:post_id' };
  const table = routes(loose);
  loose.path = 'drafts';
  assert.throws(() => compile(table), /path must start with "\/"/);
  // A table of frozen routes is checked once, and compiles to the same answers.
  const m = compile(routes(posts, resource('tags', { index: ok })));
  assert.is(m.match('GET', '/posts/7').kind, 'found');
  assert.is(m.match('GET', '/tags').kind, 'found');
});

test('routes() :: flags a table with holes route by route, so no route takes the trust of a resource', () => {
  const posts = resource('posts', { index: ok, show: ok });
  const bad = Object.freeze({
    ...posts.actions.show,
    name: 'bad',
    method: 'GET /x',
    path: 'nope',
    params: Object.freeze(['zz']),
  });
  assert.throws(() => routes([,] as never, posts, bad as never), /method must be an HTTP method name/);
  const tags = resource('tags', { index: ok });
  assert.equal(
    routes([, tags.actions.index, ,] as never, posts).map((r) => r.name),
    ['tags.index', 'posts.index', 'posts.show'],
  );
});

test('checkTable() :: refuses exactly the pairs of routes compile() refuses', () => {
  const h = () => 'h';
  const make = (method: string, path: string, i: number) =>
    ({
      resource: 't',
      action: `a${i}`,
      name: `t.a${i}`,
      method,
      path,
      params: path.match(/(?<=\/:)[^/]*/g) ?? [],
      body: false,
      handler: h,
    }) as unknown as Route;
  const paths = [
    '/',
    '//',
    '/a',
    '/a/',
    '/a//',
    '/:x',
    '/:',
    '/:y/',
    '/a/:x',
    '/a/:y',
    '/a/:',
    '/a/b',
    '/a/:x/b',
    '/a/:y/b',
    '/:x/:y',
    '/a:b',
    '/a/:x:y',
  ];
  for (const a of paths) {
    for (const b of paths) {
      for (const methods of [
        ['GET', 'GET'],
        ['GET', 'PUT'],
      ]) {
        const table = [make(methods[0]!, a, 0), make(methods[1]!, b, 1)];
        assert.is(
          outcome(() => checkTable(table)),
          outcome(() => compile(table)),
          `${methods.join('/')} ${a} ${b}`,
        );
      }
    }
  }
});

test('shapeOf() :: erases param names as /\/:[^/]+/g would', () => {
  const reference = (path: string) => path.replace(/\/:[^/]+/g, '/:');
  // Every string of up to five of these pieces: empty names, doubled colons, params at the end and side by
  // side.
  const pieces = ['/', ':', 'a', '/:', ':b', '/:c/', 'x:y'];
  let layer = [''];
  for (let length = 0; length < 5; length++) {
    layer = layer.flatMap((prefix) => pieces.map((piece) => prefix + piece));
    for (const path of layer) assert.is(shapeOf(path), reference(path), path);
  }
  assert.is(shapeOf('/posts/:post_id/edit'), '/posts/:/edit');
});

test.run();
