import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resource, routes, type Route } from '../../core/index.js';
import { compile } from '../../core/matcher/index.js';
import { tableOf } from '../../core/table/table.js';
import { posts as postsExample } from '../../examples/posts/table.js';
import { all, brief, posts, table } from '../support/matcher.js';
import { ROOT } from '../support/paths.js';

// compile(): the tables and options it refuses, and the walk it prints as .source.
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

test('compile() :: refuses a route whose params do not match its path', () => {
  assert.throws(
    () => compile([{ ...posts.actions.show, path: '/latest' }]),
    /route posts\.show: params \["post_id"\] do not match the path \/latest, which names \[\]/,
  );
  assert.throws(() => compile([{ ...posts.actions.index, path: '/posts/:id' }]), /do not match the path/);
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
