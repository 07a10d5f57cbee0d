import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resource, routes, type Route, type RouteTable } from '../../core/index.js';
import { compile } from '../../core/matcher/index.js';
import { all, brief, ok, posts, table } from '../support/matcher.js';

// The generated walk against the general one: the same answer for every path, and the general
// walk wherever code cannot be generated (segments a raw compare cannot judge, code generation disallowed).
test('match() :: a generated walk answers as the general one, path for path', () => {
  const h = () => 'h';
  // Statics beside params at several depths, dead ends that must backtrack, a root route, and methods of
  // every kind.
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
  // A wide root (more static children than are compared in place) over subtrees of several shapes, beside the
  // tricky routes.
  const shapes = [{}, { only: ['index', 'show'] as const }, { except: ['new'] as const }, { param: 'x' }];
  // Keys that are prefixes of others (`w1`, `w1s`, `w1s2`, `w1s22`): only where a segment ends tells them
  // apart.
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
  // Five resources below a param: a node of a few children that shares shape functions, params bound above it
  // passed in.
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
  // Keys a hashed node compares as packed numbers (up to 16 ASCII characters) beside keys it cannot pack
  // (longer, or not ASCII).
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
  // Static keys compared a character at a time (up to 32) and with `startsWith` (longer), in a small table's
  // walk and in a decision tree.
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
    // Every resource of the large table, so every case of every group (a full one and its last, default case
    // included).
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
  // `/p`'s nine children take nine of the sixteen shapes written; `/q`'s eight, each of a shape of its own,
  // are too many for the rest.
  const fewShapesLeft = [
    ...Array.from({ length: 9 }, (_, i) => `/p/k${i}/x${i}`),
    ...Array.from({ length: 8 }, (_, i) => `/q/m${i}/y${i}/:z`),
  ];
  // A node of three that cannot share (`/w` has too many children) or that shares first (`/p`), beside a wide
  // node needing fourteen or fifteen shapes:
  // whatever the small node tried must not leave the wide one short, which would send the whole table to the
  // general walk.
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

test('compile() :: matches without code generation where it is disallowed', async () => {
  const script = `import { resource, routes } from ${JSON.stringify(new URL('../../core/index.js', import.meta.url).href)};
import { compile } from ${JSON.stringify(new URL('../../core/matcher/index.js', import.meta.url).href)};
const m = compile(resource('posts', { show: () => 1 }).routes);
const a = m.match('GET', '/posts/7');
// Twenty resources make a wide root, whose children the general walk finds by its lookup (a hash, where code
// cannot be generated).
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

test('compile() :: a walk generated while code generation was allowed still answers once it is refused', () => {
  // workerd allows `new Function` while a module loads and refuses it while it answers, when a walk writes the
  // builder of a group of params on its first match.
  // Twenty resources of one shape share their shape function, whose param builders are written on first match.
  const m = compile(
    routes(...Array.from({ length: 20 }, (_, i) => resource(`r${i}s`, { show: () => 1, edit: () => 1 }))),
  );
  assert.ok(m.generated, 'the walk was generated');
  const allowed = globalThis.Function;
  globalThis.Function = function refused() {
    throw new EvalError('Code generation from strings disallowed for this context');
  } as unknown as FunctionConstructor;
  try {
    const found = m.match('GET', '/r17s/7/edit');
    assert.equal([found.kind, { ...(found as { params: object }).params }], ['found', { r17_id: '7' }]);
    assert.is(m.match('GET', `/r3s/${'x'.repeat(2000)}`).kind, 'bad-request');
  } finally {
    globalThis.Function = allowed;
  }
});

test.run();
