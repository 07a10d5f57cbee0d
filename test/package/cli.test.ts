import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../adapters/cli.js';
import { formatRoutes, openapi } from '../../core/index.js';
import { posts } from '../../examples/posts/table.js';
import { ROOT } from '../support/paths.js';

const TABLE = 'build/examples/posts/table.js';
const BIN = join(ROOT, 'build/adapters/bin.js');
const INDEX = JSON.stringify(join(ROOT, 'build/core/index.js'));

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
  assert.equal(defaults.info, { title: 'sevenfold', version: '0.2.0' });
  assert.equal(defaults.servers, [{ url: '/' }]);
  const served = JSON.parse(
    (
      await cli(
        'routes',
        TABLE,
        '--format',
        'openapi',
        '--server',
        'https://api.example',
        '--server',
        'http://localhost:3000',
      )
    ).out,
  );
  assert.equal(served.servers, [{ url: 'https://api.example' }, { url: 'http://localhost:3000' }]);
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
  assert.equal(await names('--method', 'delete'), ['posts.destroy', 'session.destroy']);
  assert.equal(await names('--resource', 'session', '--method', 'delete'), ['session.destroy']);
  assert.equal(await names('--resource', 'posts', '--method', 'get', '--grep', 'post_id'), [
    'posts.show',
    'posts.new',
    'posts.edit',
  ]);
  assert.equal(await names('--resource', 'tags'), []);
});

test('sevenfold routes :: --format serializers prints the code that writes each declared answer', async () => {
  const run = await cli('routes', TABLE, '--format', 'serializers', '--grep', 'posts.show');
  assert.is(run.code, 0, run.err);
  assert.match(run.out, /^\/\/ posts\.show response 200\n/);
  assert.match(run.out, /function serialize\(v\)/);
  assert.match(run.out, /x = v\["title"\];/);
  const none = await cli('routes', TABLE, '--format', 'serializers', '--grep', 'session');
  assert.match(none.out, /No route here declares a response schema/);
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
  ['no command', [], 2, /missing command[\s\S]*Usage: sevenfold routes/],
  ['an unknown command', ['route', TABLE], 2, /unknown command "route"/],
  ['no module', ['routes'], 2, /missing <module>/],
  [
    'an unknown format',
    ['routes', TABLE, '--format', 'yaml'],
    2,
    /unknown format "yaml": use text, md, json, openapi, walk or serializers/,
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
    writeFileSync(
      join(dir, 'twice.js'),
      `import { resource } from ${INDEX};\nexport const a = resource('posts', { show: () => 1 });\nexport const b = resource('posts', { show: () => 2 });\n`,
    );
    writeFileSync(
      join(dir, 'chatty.js'),
      `import { resource } from ${INDEX};\nconsole.log('connecting to the database…');\nconsole.info('ready');\nexport const posts = resource('posts', { show: () => 1 });\n`,
    );
    writeFileSync(
      join(dir, 'scoped.js'),
      `import { hook, resource, scope } from ${INDEX};\nexport const posts = resource('posts', { index: () => [], show: () => 1 });\nexport const app = scope({ hooks: [hook('timing', { onSend: () => {} })] }, posts);\n`,
    );
    writeFileSync(
      join(dir, 'shared.js'),
      `import { resource, routes } from ${INDEX};\nexport const posts = resource('posts', { show: () => 1 });\nexport default routes(posts);\n`,
    );
    const throws = await cli('routes', join(dir, 'throws.js'));
    assert.is(throws.code, 1);
    assert.match(throws.err, /loading .*throws\.js failed: database unreachable/);
    const twice = await cli('routes', join(dir, 'twice.js'));
    assert.is(twice.code, 1);
    assert.match(
      twice.err,
      /GET \/posts\/:post_id is defined twice: by posts\.show \(export a\) and by posts\.show \(export b\), with different handlers/,
    );
    // What a module prints as it loads goes to stderr, so the JSON on stdout still parses.
    const chatty = await promisify(execFile)(
      'node',
      [BIN, 'routes', join(dir, 'chatty.js'), '--format', 'json'],
      {
        cwd: ROOT,
      },
    );
    assert.is((JSON.parse(chatty.stdout) as unknown[]).length, 1);
    assert.match(chatty.stderr, /connecting to the database…\nready/);
    // A resource and the scope wrapping it, both exported: each route once, as the scope has it.
    const scoped = await cli('routes', join(dir, 'scoped.js'), '--format', 'json');
    assert.is(scoped.code, 0, scoped.err);
    const listedScoped = JSON.parse(scoped.out) as Array<{ name: string; hooks?: Array<{ name: string }> }>;
    assert.equal(
      listedScoped.map((route) => [route.name, route.hooks?.map((h) => h.name)]),
      [
        ['posts.index', ['timing']],
        ['posts.show', ['timing']],
      ],
    );
    // The same route exported twice (a resource and a table holding it) is listed once.
    const shared = await cli('routes', join(dir, 'shared.js'), '--format', 'json');
    assert.is(JSON.parse(shared.out).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sevenfold --export :: lists only the named export, and names the ones there are', async () => {
  const dir = mkdtempSync(join(ROOT, 'build', 'cli-'));
  try {
    const file = join(dir, 'several.js');
    writeFileSync(
      file,
      `import { resource, routes } from ${INDEX};\n` +
        `export const posts = resource('posts', { show: () => 1 });\n` +
        `export const tags = resource('tags', { index: () => [] });\n` +
        `export const helper = () => 1;\n` +
        `export default routes(posts, tags);\n`,
    );
    const names = async (...args: string[]) => {
      const result = await cli('routes', file, '--format', 'json', ...args);
      assert.is(result.code, 0, result.err);
      return JSON.parse(result.out).map((r: { name: string }) => r.name);
    };
    assert.equal(await names(), ['posts.show', 'tags.index']);
    assert.equal(await names('--export', 'tags'), ['tags.index']);
    assert.equal(await names('--export', 'default'), ['posts.show', 'tags.index']);
    assert.equal(await names('--export', 'tags', '--grep', 'posts'), []);

    const unknown = await cli('routes', file, '--export', 'comments');
    assert.is(unknown.code, 1);
    assert.is(unknown.out, '');
    assert.match(
      unknown.err,
      /several\.js has no export "comments": pass --export with one of default, posts, tags\n/,
    );
    const helper = await cli('routes', file, '--export', 'helper');
    assert.is(helper.code, 1);
    assert.match(
      helper.err,
      /export "helper" of .*several\.js holds no routes: pass --export with one of default, posts, tags/,
    );
    const none = await cli('routes', 'build/core/index.js', '--export', 'resource');
    assert.is(none.code, 1);
    assert.match(
      none.err,
      /export "resource" of build\/core\/index\.js holds no routes, and no export holds routes/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sevenfold --help :: prints the usage and exits 0', async () => {
  const { code, out } = await cli('--help');
  assert.is(code, 0);
  assert.match(out, /^Usage: sevenfold routes <module> \[options\]/);
  assert.match(out, /\n  --export NAME +only this export of the module/);
});

test('bin :: runs as an executable with the exit code of main', async () => {
  const { stdout } = await promisify(execFile)('node', [BIN, 'routes', TABLE, '--grep', 'posts.destroy'], {
    cwd: ROOT,
  });
  assert.match(
    stdout,
    // The example's hooks are its own business here: the columns and the line that names them are the point.
    /^Name +Method +Path +Action +Guards +Hooks\nposts\.destroy  DELETE  \/posts\/:post_id  posts#destroy  bearer  [^\n]+\nAround every request, misses included: [^\n]+\n$/,
  );
  await promisify(execFile)('node', [BIN, 'routes', 'nowhere.js'], {
    cwd: ROOT,
  }).then(
    () => assert.unreachable('exit 0 for a missing module'),
    (error: { code: number }) => assert.is(error.code, 1),
  );
});

// The executable in a child process: a hang is cut after the timeout and reported, not waited out.
async function bin(
  args: string[],
  node: string[] = [],
): Promise<{ code: number | 'hung'; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('node', [...node, BIN, ...args], { cwd: ROOT, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : error.killed ? 'hung' : Number(error.code);
      done({ code, stdout, stderr });
    });
  });
}

test('bin :: exits after printing when the module starts a server at import time', async () => {
  const dir = mkdtempSync(join(ROOT, 'build', 'cli-'));
  try {
    const file = join(dir, 'serves.js');
    writeFileSync(
      file,
      `import { createServer } from 'node:http';\n` +
        `export { posts } from ${JSON.stringify(join(ROOT, TABLE))};\n` +
        `createServer().listen(0);\n`,
    );
    const listed = await bin(['routes', file, '--format', 'openapi', '--title', 'T', '--api-version', '2']);
    assert.is(listed.code, 0, listed.stderr);
    // All of the output, flushed before the exit.
    assert.equal(
      JSON.parse(listed.stdout),
      JSON.parse(JSON.stringify(openapi(posts, { title: 'T', version: '2' }))),
    );
    const failed = await bin(['routes', file, '--export', 'comments']);
    assert.is(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /has no export "comments": pass --export with one of posts\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Node >= 22.18 strips types by default; the test of a node without a loader turns that off.
const NO_STRIP = (process.features as { typescript?: unknown }).typescript
  ? ['--no-experimental-strip-types']
  : [];

test('bin :: loads a .ts module under a TypeScript loader, and says how to without one', async () => {
  const dir = mkdtempSync(join(ROOT, 'build', 'cli-'));
  try {
    const file = join(dir, 'typed.ts');
    writeFileSync(
      file,
      `import { resource } from ${INDEX};\n` +
        `interface Note {\n  readonly id: string;\n}\n` +
        `const notes: Note[] = [{ id: '1' }];\n` +
        `export const notesResource = resource('notes', { index: (): readonly Note[] => notes });\n`,
    );
    const loader = pathToFileURL(join(ROOT, 'build/test/support/ts-loader.js')).href;
    const loaded = await bin(['routes', file, '--format', 'json'], ['--import', loader]);
    assert.is(loaded.code, 0, loaded.stderr);
    assert.equal(
      JSON.parse(loaded.stdout).map((r: { name: string }) => r.name),
      ['notes.index'],
    );

    const plain = await bin(['routes', file], NO_STRIP);
    assert.is(plain.code, 1, plain.stderr);
    assert.is(plain.stdout, '');
    assert.match(
      plain.stderr,
      /^sevenfold: cannot load .*typed\.ts: node runs here without a TypeScript loader/,
    );
    assert.match(plain.stderr, /compile it with tsc and pass the \.js file/);
    assert.match(plain.stderr, /NODE_OPTIONS="--import tsx" npx sevenfold routes .*typed\.ts\n/);
    assert.match(plain.stderr, /--experimental-strip-types on Node >= 22\.6/);
    assert.match(plain.stderr, /no decorator metadata: a module with controllers needs tsc/);
    // A .ts module that loads but fails is reported as any other failing module.
    writeFileSync(file, `const reason: string = 'database unreachable';\nthrow new Error(reason);\n`);
    const throws = await bin(['routes', file], ['--import', loader]);
    assert.is(throws.code, 1);
    assert.match(throws.stderr, /loading .*typed\.ts failed: database unreachable/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
