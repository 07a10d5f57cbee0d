import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../adapters/cli.js';
import { formatRoutes, openapi } from '../core/index.js';
import { posts } from '../examples/posts/table.js';
import { ROOT } from './support/paths.js';

const TABLE = 'build/examples/posts/table.js';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), cwd: ROOT });
  return { code, out, err };
}

test('sevenfold routes :: prints the example as aligned text by default', async () => {
  const { code, out, err } = await cli('routes', TABLE);
  assert.is(code, 0, err);
  assert.is(out, formatRoutes(posts));
});

test('sevenfold routes :: md, json and openapi formats come from the core functions', async () => {
  assert.is((await cli('routes', TABLE, '--format', 'md')).out, formatRoutes(posts, 'md'));
  assert.is((await cli('routes', TABLE, '--format', 'json')).out, formatRoutes(posts, 'json'));
  const doc = JSON.parse(
    (await cli('routes', TABLE, '--format', 'openapi', '--title', 'T', '--api-version', '2')).out,
  );
  assert.equal(doc, JSON.parse(JSON.stringify(openapi(posts, { title: 'T', version: '2' }))));
  const defaults = JSON.parse((await cli('routes', TABLE, '--format', 'openapi')).out);
  assert.equal(defaults.info, { title: 'sevenfold', version: '0.1.0' });
  const plain = JSON.parse(
    (await cli('routes', TABLE, '--format', 'openapi', '--no-method-override', '--no-cross-site-protection'))
      .out,
  );
  assert.equal(
    plain,
    JSON.parse(
      JSON.stringify(openapi(posts, defaults.info, { methodOverride: false, crossSiteProtection: false })),
    ),
  );
  assert.is(plain.paths['/posts/{post_id}'].post, undefined);
});

test('sevenfold routes :: filters by grep, resource and method', async () => {
  const names = async (...args: string[]) =>
    JSON.parse((await cli('routes', TABLE, '--format', 'json', ...args)).out).map(
      (r: { name: string }) => r.name,
    );
  assert.equal(await names('--grep', 'edit'), ['posts.edit']);
  assert.equal(await names('--method', 'delete'), ['posts.destroy']);
  assert.equal(await names('--resource', 'posts', '--method', 'get', '--grep', 'post_id'), [
    'posts.show',
    'posts.new',
    'posts.edit',
  ]);
  assert.equal(await names('--resource', 'tags'), []);
});

const FAILURES: ReadonlyArray<[label: string, args: string[], code: number, message: RegExp]> = [
  [
    'a missing module',
    ['routes', 'nowhere.js'],
    1,
    /cannot find module nowhere\.js \(looked for .*nowhere\.js\)/,
  ],
  [
    'a module with no routes',
    ['routes', 'build/core/index.js'],
    1,
    /build\/core\/index\.js exports no routes: export a resource, a table from routes\(\), or a route/,
  ],
  ['a TypeScript module', ['routes', 'examples/posts/table.ts'], 1, /compile it with tsc first/],
  ['no command', [], 2, /missing command[\s\S]*Usage: sevenfold routes/],
  ['an unknown command', ['route', TABLE], 2, /unknown command "route"/],
  ['no module', ['routes'], 2, /missing <module>/],
  [
    'an unknown format',
    ['routes', TABLE, '--format', 'yaml'],
    2,
    /unknown format "yaml": use text, md, json, openapi or walk/,
  ],
  ['an unknown option', ['routes', TABLE, '--colour'], 2, /Unknown option '--colour'/],
];
for (const [label, args, code, message] of FAILURES) {
  test(`sevenfold :: ${label} is a clear error with exit ${code}`, async () => {
    const result = await cli(...args);
    assert.is(result.code, code);
    assert.is(result.out, '');
    assert.match(result.err, message);
  });
}

test('sevenfold :: a module that fails to load, or defines a route twice, says so', async () => {
  const dir = mkdtempSync(join(ROOT, 'build', 'cli-'));
  try {
    writeFileSync(join(dir, 'throws.js'), "throw new Error('database unreachable');\n");
    const index = JSON.stringify(join(ROOT, 'build/core/index.js'));
    writeFileSync(
      join(dir, 'twice.js'),
      `import { resource } from ${index};\nexport const a = resource('posts', { show: () => 1 });\nexport const b = resource('posts', { show: () => 2 });\n`,
    );
    writeFileSync(
      join(dir, 'shared.js'),
      `import { resource, routes } from ${index};\nexport const posts = resource('posts', { show: () => 1 });\nexport default routes(posts);\n`,
    );
    const throws = await cli('routes', join(dir, 'throws.js'));
    assert.is(throws.code, 1);
    assert.match(throws.err, /loading .*throws\.js failed: database unreachable/);
    const twice = await cli('routes', join(dir, 'twice.js'));
    assert.is(twice.code, 1);
    assert.match(twice.err, /GET \/posts\/:post_id is defined twice: by posts\.show and by posts\.show/);
    // The same route exported twice (a resource and a table holding it) is listed once.
    const shared = await cli('routes', join(dir, 'shared.js'), '--format', 'json');
    assert.is(JSON.parse(shared.out).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sevenfold --help :: prints the usage and exits 0', async () => {
  const { code, out } = await cli('--help');
  assert.is(code, 0);
  assert.match(out, /^Usage: sevenfold routes <module> \[options\]/);
});

test('bin :: runs as an executable with the exit code of main', async () => {
  const { stdout } = await promisify(execFile)(
    'node',
    [join(ROOT, 'build/adapters/bin.js'), 'routes', TABLE, '--grep', 'destroy'],
    { cwd: ROOT },
  );
  assert.match(
    stdout,
    /^Name +Method +Path +Action +Guards\nposts\.destroy  DELETE  \/posts\/:post_id  posts#destroy  bearer\n$/,
  );
  await promisify(execFile)('node', [join(ROOT, 'build/adapters/bin.js'), 'routes', 'nowhere.js'], {
    cwd: ROOT,
  }).then(
    () => assert.unreachable('exit 0 for a missing module'),
    (error: { code: number }) => assert.is(error.code, 1),
  );
});

test.run();
