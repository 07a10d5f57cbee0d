import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compile,
  pathFor,
  resource,
  routes,
  tableOf,
  type Match,
  type MatcherOptions,
  type Route,
  type RouteTable,
} from '../core/index.js';
import { wideHash } from '../core/matcher/hash.js';
import { posts as postsExample } from '../examples/posts/table.js';
import { ROOT } from './support/paths.js';

const ok = () => 'ok';
const all = { index: ok, show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };
const posts = resource('posts', all);
const table = routes(
  posts,
  resource('tags', { index: ok, show: ok }, { param: 'name' }),
  // A static route beside the param one, the way a Rails-style /posts/search would sit.
  { ...posts.actions.index, name: 'posts.search', action: 'search', path: '/posts/search' } as Route,
);
const matcher = compile(table);

/** The match, boiled down to a line that is easy to compare. */
function brief(m: Match): string {
  switch (m.kind) {
    case 'found':
      return `${m.route.name} ${JSON.stringify({ ...m.params })}`;
    case 'method-not-allowed':
      return `405 ${m.allow}`;
    case 'not-found':
      return '404';
    case 'bad-request':
      return `400 ${m.detail}`;
  }
}

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

/** Runs each case on every walk, one test a walk and case, in the spirit of hono's `runTest({ newRouter })`. */
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

test('match() :: a generated walk answers as the general one, path for path', () => {
  const h = () => 'h';
  // Statics beside params at several depths, dead ends that must backtrack, a root route, and methods of every kind.
  const tricky: Route[] = [
    ['GET', '/'],
    ['GET', '/a'],
    ['GET', '/a/:x'],
    ['PUT', '/a/:x'],
    ['GET', '/a/b'],
    ['GET', '/a/b/c'],
    ['GET', '/a/:x/c'],
    ['POST', '/a/:x/d'],
    ['GET', '/:p/b/d'],
    ['HEAD', '/:p/b'],
    ['PURGE', '/a/b'],
    ['OPTIONS', '/a/:x/:y'],
    ['DELETE', '/a/:x/:y/e'],
    ['GET', '/longer-than-eight/:z'],
    // Characters outside the BMP are two UTF-16 units each; the generated compare must check both.
    ['GET', '/😀'],
    ['GET', '/a😀b/:u'],
  ].map(([method, path], i) => ({
    resource: 't',
    action: `a${i}`,
    name: `t.a${i}`,
    method: method!,
    path: path!,
    params: (path!.match(/:\w+/g) ?? []).map((name) => name.slice(1)),
    body: false,
    handler: h,
  })) as unknown as Route[];
  const words = [
    'a',
    'b',
    'c',
    'd',
    'e',
    'x',
    '',
    '.',
    '..',
    '%61',
    'longer-than-eight',
    'longer-than-eighT',
    'posts',
    'new',
  ];
  const paths = ['/', '//'];
  let layer = [''];
  for (let depth = 0; depth < 4; depth++) {
    layer = layer.flatMap((prefix) => words.map((word) => `${prefix}/${word}`));
    for (const path of layer) paths.push(path, `${path}/`);
  }
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PURGE'];
  // A wide root (more static children than are compared in place) over subtrees of several shapes, beside the tricky routes.
  const shapes = [{}, { only: ['index', 'show'] as const }, { except: ['new'] as const }, { param: 'x' }];
  // Keys that are prefixes of others (`w1`, `w1s`, `w1s2`, `w1s22`): only where a segment ends tells them apart.
  const prefixes = (['w1', 'w1s2', 'w1s22'] as const).map((path, i) =>
    resource((['apples', 'pears', 'plums'] as const)[i]!, all, { path, ...shapes[i] } as object),
  );
  const wide = routes(
    ...Array.from({ length: 12 }, (_, i) => resource(`w${i}s`, all, shapes[i % shapes.length] as object)),
    ...prefixes,
    ...tricky.filter((route) => route.path !== '/'),
  );
  const wideWords = [
    ...words.slice(0, 9),
    'new',
    'w0s',
    'w1s',
    'w2s',
    'w3s',
    'w11s',
    'w12s',
    'W1s',
    'w1',
    'w1s2',
    'w1s22',
    'w1s2x',
    'w1s222',
    'w',
  ];
  const widePaths = ['/', '//'];
  layer = [''];
  for (let depth = 0; depth < 3; depth++) {
    layer = layer.flatMap((prefix) => wideWords.map((word) => `${prefix}/${word}`));
    for (const path of layer) widePaths.push(path, `${path}/`);
  }
  // Lone and paired surrogates beside the keys that hold them.
  paths.push('/😀', '/😁', '/\uD83Dx', '/\uD83D', '/a😀b/1', '/a😀c/1', '/a\uD83Db/1', '/😀/', 'a', '*', '');
  // A table with a root route still names nothing for a target that is not a path.
  for (const target of ['a', '*', '']) assert.is(brief(compile(tricky).match('GET', target)), '404', target);
  // The same wide node below a param, where params bound above it must reach the shared subtree code.
  const under = wide.map((route) => ({
    ...route,
    path: `/:t${route.path}`,
    params: ['t', ...route.params],
  })) as Route[];
  // Five resources below a param: a node of a few children that shares shape functions, params bound above it passed in.
  const fewUnder = routes(
    ...Array.from({ length: 5 }, (_, i) => resource(`w${i}s`, all, shapes[i % shapes.length] as object)),
  ).map((route) => ({ ...route, path: `/:t${route.path}`, params: ['t', ...route.params] })) as Route[];
  const underPaths = widePaths.flatMap((path) => [`/a${path}`, `/w1s${path}`]).slice(0, 4000);
  // Wide nodes of 48 keys, whose generated decision tree is cut into functions, and of 303, which are hashed.
  const wideOf = (count: number) =>
    routes(
      ...Array.from({ length: count }, (_, i) =>
        resource(`w${i}s`, all, shapes[i % shapes.length] as object),
      ),
      ...prefixes,
    );
  const [middling, large] = [wideOf(45), wideOf(300)];
  // Near misses of keys (`vPs`, `W1s`, `w1`, `w300s`) must be told apart by comparing every key in full.
  const largeWords = [
    'w0s',
    'w1s',
    'vPs',
    'w199s',
    'w200s',
    'w299s',
    'w300s',
    'w29s',
    'W1s',
    'new',
    'edit',
    '7',
    '',
    '.',
    '%77',
    'w1',
    'w1s2',
    'w1s22',
    'w1s2x',
  ];
  const largePaths = ['/', '//'];
  layer = [''];
  for (let depth = 0; depth < 3; depth++) {
    layer = layer.flatMap((prefix) => largeWords.map((word) => `${prefix}/${word}`));
    for (const path of layer) largePaths.push(path, `${path}/`);
  }
  // Chains of keys, each a prefix of the next: a short one in the decision tree, a long one hashed;
  // and keys alike but for one late character, whose leaves compare the rest at once.
  const chain = (letter: string, length: number) =>
    Array.from({ length }, (_, i) =>
      resource(`links_${letter}${i}`, { index: ok, show: ok }, { path: letter.repeat(i + 1), param: 'x' }),
    );
  const items = Array.from({ length: 20 }, (_, i) =>
    resource(
      `items${i}`,
      { index: ok, edit: ok },
      { path: `item-number-${String(i).padStart(3, '0')}`, param: 'y' },
    ),
  );
  const short = routes(...chain('a', 8), ...items);
  const long = routes(...chain('a', 40), ...items);
  // `bB` hashes as `aa` does: the hashed lookup must still compare the key.
  const chainWords = [
    ...Array.from({ length: 43 }, (_, i) => 'a'.repeat(i)),
    'ab',
    'aab',
    'b',
    'bB',
    'item-number-007',
    'item-number-020',
    'item-number-00',
    'item-number-0070',
    'item-numbeR-007',
  ];
  const chainPaths = chainWords.flatMap((word) => [
    `/${word}`,
    `/${word}/`,
    `/${word}/1`,
    `/${word}/1/edit`,
    `/${word}/%31`,
  ]);
  // Keys a hashed node compares as packed numbers (up to 16 ASCII characters) beside keys it cannot pack (longer, or not ASCII).
  const edgeKeys = [
    'abcdefghijklmnop',
    'abcdefghijklmnopq',
    'abcdefghijklmno',
    'résumés',
    '中文',
    'a\u0080',
    'a\u007f',
    'ABCDEFGHIJKLMNOP',
    'abcdefghijklmnop-abcdefghijklmnop',
  ];
  const packing = routes(
    ...Array.from({ length: 300 }, (_, i) => resource(`r${i}s`, all)),
    edgeKeys.flatMap((key, i) => [
      { ...posts.actions.index, name: `e.i${i}`, action: `i${i}`, path: `/${key}` },
      { ...posts.actions.show, name: `e.s${i}`, action: `s${i}`, path: `/${key}/:z`, params: ['z'] },
    ]) as unknown as Route[],
  );
  const packingWords = edgeKeys.flatMap((key) => [
    key,
    key.slice(0, -1),
    `${key}x`,
    `${key.slice(0, -1)}y`,
    key.slice(1),
    key.toUpperCase(),
  ]);
  packingWords.push(
    'abcdefghijklmnopqr',
    'r0s',
    'r1s',
    'r299s',
    'r300s',
    'r1',
    'résumé',
    '中',
    'a\u0081',
    '',
  );
  const packingPaths = packingWords.flatMap((word) => [
    `/${word}`,
    `/${word}/`,
    `/${word}/1`,
    `/${word}/1/edit`,
    `/${word}/r1s`,
  ]);
  // Static keys compared a character at a time (up to 32) and with `startsWith` (longer), in a small table's walk and in a decision tree.
  const longWords = [31, 32, 33, 40].flatMap((length) => {
    const key = 'k'.repeat(length - 1);
    return [`${key}z`, `${key}y`, key, `${key}zz`];
  });
  const longKeys = routes(
    ...[31, 32, 33, 40].map((length, i) => resource(`l${i}s`, all, { path: `${'k'.repeat(length - 1)}z` })),
  );
  const longTree = routes(longKeys, ...Array.from({ length: 12 }, (_, i) => resource(`t${i}s`, all)));
  const longPaths = longWords.flatMap((word) => [`/${word}`, `/${word}/1`, `/${word}/1/edit`, `/${word}/`]);
  const cases: Array<[RouteTable, string[], number]> = [
    [longKeys, longPaths, 1024],
    [longTree, longPaths, 1024],
    [packing, packingPaths, 1024],
    [short, chainPaths, 1024],
    [long, chainPaths, 1024],
    [tricky, paths, 1024],
    // Values longer than the limit must be refused at the same point by both walks.
    [tricky, paths, 1],
    [table, paths, 1024],
    [posts.routes, paths, 3],
    [wide, widePaths, 1024],
    [under, underPaths, 2],
    [fewUnder, underPaths, 1024],
    [fewUnder, underPaths, 1],
    [middling, largePaths, 1024],
    [large, largePaths, 1024],
    // Past 128 param lists their builders come in groups: every group, values over the limit included.
    [large, largePaths, 1],
    // Every resource of the large table, so every case of every group (a full one and its last, default case included).
    [
      large,
      Array.from({ length: 300 }, (_, i) => [`/w${i}s/1`, `/w${i}s/1/edit`, `/w${i}s/ab/new`]).flat(),
      1,
    ],
  ];
  for (const [t, corpus, maxParamLength] of cases) {
    const generated = compile(t, { maxParamLength });
    assert.ok(generated.generated, 'the walk is generated');
    const plain = compile(t, { generate: false, maxParamLength });
    assert.not.ok(plain.generated);
    for (const path of corpus) {
      for (const method of methods) {
        const a = generated.match(method, path);
        const b = plain.match(method, path);
        assert.is(brief(a), brief(b), `${method} ${path}`);
        assert.is(a.kind === 'found' && a.route, b.kind === 'found' && b.route, `${method} ${path}`);
      }
    }
  }
});

test('match() :: static segments a raw compare cannot judge are left to the general walk', () => {
  const h = () => 'h';
  const make = (path: string) =>
    ({
      resource: 't',
      action: 'a',
      name: 't.a',
      method: 'GET',
      path,
      params: [],
      body: false,
      handler: h,
    }) as unknown as Route;
  for (const path of ['/a%20b', '/a/./b', '/..']) {
    const m = compile([make(path), make('/x')] as RouteTable);
    assert.not.ok(m.generated, path);
    // The route is reached by what its segment decodes from, never by the raw text.
    assert.is(brief(m.match('GET', '/x')), 't.a {}');
  }
  assert.is(brief(compile([make('/a%20b')] as RouteTable).match('GET', '/a%20b')), '404');
  assert.is(brief(compile([make('/a%20b')] as RouteTable).match('GET', '/a%2520b')), 't.a {}');
});

test('compile() :: a few static children whose subtrees cannot share code are compared in place, and the walk is still generated', () => {
  const h = () => 'h';
  const make = (path: string, i: number) =>
    ({
      resource: 't',
      action: `a${i}`,
      name: `t.a${i}`,
      method: 'GET',
      path,
      params: path.match(/(?<=\/:)[^/]*/g) ?? [],
      body: false,
      handler: h,
    }) as unknown as Route;
  // Three root children, one of which (`/c`) has more children than a shape describes.
  const wideChild = ['/a/:x', '/b', ...Array.from({ length: 10 }, (_, i) => `/c/k${i}`)];
  // `/p`'s nine children take nine of the sixteen shapes written; `/q`'s eight, each of a shape of its own, are too many for the rest.
  const fewShapesLeft = [
    ...Array.from({ length: 9 }, (_, i) => `/p/k${i}/x${i}`),
    ...Array.from({ length: 8 }, (_, i) => `/q/m${i}/y${i}/:z`),
  ];
  // A node of three that cannot share (`/w` has too many children) or that shares first (`/p`), beside a wide node needing fourteen or fifteen shapes:
  // whatever the small node tried must not leave the wide one short, which would send the whole table to the general walk.
  const wasted = ['/a/1', '/b/2', ...Array.from({ length: 15 }, (_, i) => `/w/k${i}/x${i}`)];
  const compete = [
    ...Array.from({ length: 3 }, (_, i) => `/p/k${i}/y${i}`),
    ...Array.from({ length: 14 }, (_, i) => `/w/k${i}/x${i}`),
  ];
  for (const t of [wideChild, fewShapesLeft, wasted, compete]) {
    const m = compile(t.map(make));
    assert.ok(m.generated, t.join(' '));
    const plain = compile(t.map(make), { generate: false });
    for (const path of [
      ...t.map((p) => p.replace(/:[xz]/, '1')),
      '/c',
      '/c/k10',
      '/a',
      '/a/1/2',
      '/q/m7/y6/1',
      '/q/m7/y7',
      '/q/m7',
      '/p/k8/x8/',
      '/w/k3/x4',
      '/p/k2',
      '/',
    ]) {
      assert.is(brief(m.match('GET', path)), brief(plain.match('GET', path)), path);
    }
  }
});

test('compile() :: refuses a maxParamLength that is not a whole number, and methods that are not method names', () => {
  for (const bad of [0, -1, 1.5, NaN, '10', 'abc']) {
    assert.throws(
      () => compile(table, { maxParamLength: bad as number }),
      /maxParamLength must be a whole number of at least 1/,
      String(bad),
    );
  }
  const h = () => 'h';
  for (const method of ['GET /a', '', 'G"ET', 'GET\n', 42]) {
    const route = {
      resource: 't',
      action: 'a',
      name: 't.a',
      method,
      path: '/b',
      params: [],
      body: false,
      handler: h,
    } as unknown as Route;
    assert.throws(
      () => compile([route]),
      /route t\.a: method must be an HTTP method name such as "GET"/,
      JSON.stringify(method),
    );
    assert.throws(
      () => routes(route),
      /route t\.a: method must be an HTTP method name/,
      JSON.stringify(method),
    );
  }
});

test('compile() :: a route too deep for generated code gets the general walk; a deeper one is refused', () => {
  const make = (segments: number) =>
    ({
      resource: 't',
      action: 'a',
      name: 't.a',
      method: 'GET',
      path: `/${Array(segments).fill('s').join('/')}`,
      params: [],
      body: false,
      handler: () => 'h',
    }) as unknown as Route;
  const m = compile([make(256)]);
  assert.not.ok(m.generated);
  assert.is(brief(m.match('GET', make(256).path)), 't.a {}');
  assert.is(brief(m.match('GET', make(255).path)), '404');
  assert.throws(() => compile([make(257)]), /route t\.a: path has 257 segments; at most 256 are allowed/);
  assert.throws(() => routes(make(2500)), /route t\.a: path has 2500 segments/);
});

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

test('match() :: a node with many static children (a decision tree, or hashed past 48 keys) finds each and no other', () => {
  for (const count of [40, 400]) {
    const names = Array.from({ length: count }, (_, i) => `r${i}s`).concat(['ab', 'ba', 'abc', 'acb', 'bca']);
    const wide = routes(...names.map((name) => resource(name, { index: ok, show: ok }, { param: 'id' })));
    const m = compile(wide);
    assert.ok(m.generated);
    for (const route of wide) {
      const found = m.match('GET', pathFor(route.path, { id: 'x y' } as never));
      assert.is(found.kind === 'found' && found.route, route, route.name);
    }
    for (const miss of [`/r${count}s`, '/r1', '/R1s', '/ab2', '/cab', '/r1s2', '/'])
      assert.is(m.match('GET', miss).kind, 'not-found', miss);
    assert.is(brief(m.match('DELETE', '/abc/1')), '405 GET, HEAD, OPTIONS');
    // Segments that start with a key and go on: wherever their hash lands, no key may claim them.
    for (let i = 0; i < 4000; i++) assert.is(m.match('GET', `/r1s${i}`).kind, 'not-found', `/r1s${i}`);
  }
});

test('wideHash() :: a key is found only by a segment equal to it, packed or not, however crowded the table', () => {
  // Keys it packs (up to 16 ASCII characters) and keys it cannot (longer, or not ASCII), including
  // `a\u0080`, whose seven-bit packing would equal `b\u0000`'s, and short keys a NUL before them would pack alike.
  const keys = [
    'ab',
    'r1s',
    'abcdefghijklmnop',
    'abcdefghijklmnoq',
    'abcdefghijklmnopq',
    'abcdefghijklmno',
    'résumés',
    'a\u0080',
    'x',
    '中文',
  ];
  keys.push('c', 'cd', 'cde', 'efgh', 'ijklm');
  // Keys of 17 to 64 characters are packed in more words, longer ones are not: lengths about each boundary, and keys alike but late.
  const letters = (length: number, last = '') =>
    Array.from(
      { length: length - last.length },
      (_, i) => 'abcdefghijklmnopqrstuvwxyz0123456789_-'[i % 38],
    ).join('') + last;
  keys.push(
    ...[17, 20, 24, 31, 32, 33, 47, 48, 63, 64, 65, 80].map((length) => letters(length)),
    letters(40, 'x'),
    letters(40, 'y'),
    letters(64, 'é'),
    letters(20, 'q'),
  );
  // One entry per key, 31 keys in 32 entries: a probe passes most keys before the one empty entry, so every comparison is exercised.
  const lookup = wideHash(keys, 1);
  const segments = new Set<string>();
  for (const key of keys) {
    segments
      .add(key)
      .add(`\u0000${key}`)
      .add(`\u0000\u0000${key}`)
      .add(`${key}\u0000`)
      .add(key.slice(1))
      .add(key.slice(0, -1))
      .add(`${key}z`);
    for (let j = 0; j < key.length; j++)
      for (const c of ['a', 'q', 'z', '\u0000', '\u00e9', 'Z'])
        segments.add(key.slice(0, j) + c + key.slice(j + 1));
  }
  segments.add('b\u0000').add('').add('abcdefghijklmnopqr');
  let seed = 1;
  for (let i = 0; i < 3000; i++) {
    let word = '';
    const length = i % 19;
    for (let j = 0; j < length; j++)
      word += 'abmnopqr\u0000\u0080é'[(seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % 12];
    segments.add(word);
  }
  for (const segment of segments) {
    for (const [prefix, suffix] of [
      ['/', ''],
      ['/', '/1'],
      ['/x/', '/new'],
    ] as const) {
      const path = prefix + segment + suffix;
      assert.is(lookup(path, prefix.length, path.length), keys.indexOf(segment), JSON.stringify(path));
    }
  }
});

test('match() :: answers as ever once the module-wide builder and Allow caches are full', () => {
  // More distinct param lists and method sets than the caches keep: the ones past the limit are made and not kept.
  for (let i = 0; i < 4200; i++) {
    const custom = {
      ...posts.actions.index,
      name: `c${i}.x`,
      action: 'x',
      method: `M${i}`,
      path: `/c${i}`,
    } as unknown as Route;
    const m = compile(routes(resource(`c${i}s`, { show: ok }), custom), { generate: false });
    assert.is(brief(m.match('GET', `/c${i}s/7`)), `c${i}s.show {"c${i}_id":"7"}`);
    assert.is(brief(m.match('PUT', `/c${i}`)), `405 OPTIONS, M${i}`);
  }
});

test('compile() :: refuses a route whose params do not match its path', () => {
  assert.throws(
    () => compile([{ ...posts.actions.show, path: '/latest' }]),
    /route posts\.show: params \["post_id"\] do not match the path \/latest, which names \[\]/,
  );
  assert.throws(() => compile([{ ...posts.actions.index, path: '/posts/:id' }]), /do not match the path/);
});

test('compile() :: matches without code generation where it is disallowed', async () => {
  const script = `import { compile, resource, routes } from ${JSON.stringify(new URL('../core/index.js', import.meta.url).href)};
const m = compile(resource('posts', { show: () => 1 }).routes);
const a = m.match('GET', '/posts/7');
// Twenty resources make a wide root, whose children the general walk finds by its lookup (a hash, where code cannot be generated).
const wide = compile(routes(...Array.from({ length: 20 }, (_, i) => resource('r' + i + 's', { show: () => 1 }))));
const b = wide.match('GET', '/r17s/8');
console.log(JSON.stringify({ kind: a.kind, params: { ...a.params }, long: m.match('GET', '/posts/' + 'x'.repeat(2000)).kind, wide: [b.kind, { ...b.params }, wide.match('GET', '/r20s/8').kind, wide.generated] }));`;
  const { execFile } = await import('node:child_process');
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      'node',
      ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script],
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
  assert.equal(JSON.parse(out), {
    kind: 'found',
    params: { post_id: '7' },
    long: 'bad-request',
    wide: ['found', { r17_id: '8' }, 'not-found', false],
  });
});

test('compile() :: refuses two routes with the same method and path shape', () => {
  assert.throws(
    () => compile([...posts.routes, posts.actions.show]),
    /GET \/posts\/:post_id is defined twice/,
  );
  assert.throws(() => compile([{ ...posts.actions.show, path: 'posts' }]), /path must start with "\/"/);
});

test("compile().source :: the posts example's walk is pinned in docs/posts-walk.txt (run `npm run docs` to regenerate)", () => {
  const source = compile(tableOf(postsExample)).source;
  assert.is(
    readFileSync(join(ROOT, 'docs/posts-walk.txt'), 'utf8'),
    source,
    'docs/posts-walk.txt is stale: run `npm run docs`',
  );
});

test('compile().source :: names every constant the walk reads, and is the code that runs', () => {
  const source = compile(table).source!;
  assert.match(source, /^\/\/ The walk generated for this table/);
  const used = new Set([...source.matchAll(/R\[(\d+)\]/g)].map((m) => Number(m[1])));
  for (const index of used)
    assert.match(source, new RegExp(`^// R\\[${index}\\]: `, 'm'), `R[${index}] is listed`);
  // The walk printed is the walk compiled: its own function, run, answers as the matcher does.
  assert.match(source, /function walk\(path, method\) \{\n  const n = path\.length;/);
  assert.match(source, /if \(\/\* "posts" \*\/ path\.charCodeAt\(p0 \+ 0\) === 112/);
});

test('compile().source :: shows the shape functions and lookups a wide table shares, and is undefined for the general walk', () => {
  const wide = routes(...Array.from({ length: 12 }, (_, i) => resource(`w${i}s`, all)));
  const source = compile(wide).source!;
  assert.match(source, /function shape\d+\(path, method, p1, n, D, d\) \{/);
  assert.match(
    source,
    /\/\/ R\[\d+\]: the lookup of 12 segments \(w0s, w1s, w2s, …\):\n\/\/   function pick\(path, start, n\) \{/,
  );
  const hashed = compile(routes(...Array.from({ length: 60 }, (_, i) => resource(`w${i}s`, all)))).source!;
  assert.match(hashed, /the lookup of 60 segments .*\n\/\/   \/\/ 60 keys, found by wideHash/);
  assert.is(compile(wide, { generate: false }).source, undefined);
});

test.run();
