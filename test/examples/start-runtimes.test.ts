import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { json, raw } from '../support/http.js';
import { SECRET, signInFlow, TOKEN } from '../support/posts-sign-in.js';
import { needs } from '../support/needs.js';
import { needRuntimes } from '../support/runtimes.js';
import { createdDataDir, freshDataDir, start, stop } from '../support/spawn.js';
import { ROOT } from '../support/paths.js';

// `npm run start:bun` and `npm run start:deno`: examples/posts served by toFetch on each runtime's own
// server (build/examples/posts/serve-fetch.js), from the same variables as `npm start`, on PGlite.

const bunDeno = needRuntimes(
  ['bun', 'deno'] as const,
  'npm run start:bun / start:deno (test/examples/start-runtimes.test.ts)',
);
const onBunDeno = needs(bunDeno, test);
const found = bunDeno.found;

const commands = found && {
  bun: [found.bun.bin, ['build/examples/posts/serve-fetch.js']] as const,
  deno: [
    found.deno.bin,
    ['run', '-A', '--node-modules-dir=manual', 'build/examples/posts/serve-fetch.js'],
  ] as const,
};

for (const name of ['bun', 'deno'] as const) {
  onBunDeno(
    `start:${name} :: listening on its line; a post written survives a restart on the same DATA_DIR; SIGTERM exits 0`,
    async () => {
      const [bin, args] = commands![name];
      const env = {
        DATA_DIR: freshDataDir(),
        PORT: '0',
        HOST: '127.0.0.1',
        DENO_NO_UPDATE_CHECK: '1',
        NO_COLOR: '1',
      };
      const first = await start(bin, [...args], env, 60);
      assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const created = await raw(first.url, {
        method: 'POST',
        path: '/posts',
        headers: { 'Content-Type': 'application/json' },
        body: `{"id":"on-${name}","title":"kept"}`,
      });
      assert.is(created.status, 201, created.wire);
      assert.is(created.headers.location, `/posts/on-${name}`);
      // Its style sheet, served from the file system by sevenfold/assets: a range and a 304 too.
      const page = await raw(first.url, { path: '/posts', headers: { Accept: 'text/html' } });
      const href = /<link rel="stylesheet" href="([^"]+)">/.exec(page.body)?.[1];
      assert.match(href ?? '', /^\/assets\/site\.[0-9a-f]{10}\.css$/);
      const sheet = await raw(first.url, { path: href! });
      assert.equal(
        [sheet.status, sheet.headers['content-type']],
        [200, 'text/css; charset=utf-8'],
        sheet.wire,
      );
      assert.is(sheet.headers['cache-control'], 'public, max-age=31536000, immutable');
      // Bun sends a streamed range chunked: fetch reads it as any client does.
      const ranged = await fetch(`${first.url}${href}`, { headers: { Range: 'bytes=0-1' } });
      assert.equal([ranged.status, await ranged.text()], [206, '/*']);
      const held = await raw(first.url, { path: href!, headers: { 'If-None-Match': sheet.headers.etag! } });
      assert.is(held.status, 304);
      assert.equal(await stop(first), [0, null]);
      const second = await start(bin, [...args], env, 60);
      const shown = await raw(second.url, { path: `/posts/on-${name}` });
      assert.is(shown.status, 200, shown.wire);
      assert.is(json(shown).title, 'kept');
      assert.equal(await stop(second), [0, null]);
    },
  );
}

for (const name of ['bun', 'deno'] as const) {
  onBunDeno(
    `start:${name} :: signed in (POSTS_TOKEN, SESSION_SECRET): the sign-in flow, sessions in its PGlite database`,
    async () => {
      const [bin, args] = commands![name];
      const env = {
        DATA_DIR: await createdDataDir(),
        PORT: '0',
        HOST: '127.0.0.1',
        POSTS_TOKEN: TOKEN,
        SESSION_SECRET: SECRET,
        LOG_LEVEL: 'silent',
        DENO_NO_UPDATE_CHECK: '1',
        NO_COLOR: '1',
      };
      const server = await start(bin, [...args], env, 60);
      try {
        // Kept in the database, a session ends on signing out for a copy of its cookie too.
        await signInFlow(server.url, { revocable: true, post: `on-${name}` });
      } finally {
        assert.equal(await stop(server), [0, null]);
      }
    },
  );
}

onBunDeno('start:bun :: WORKERS>1 is refused with a message, exit 1', async () => {
  const [bin, args] = commands!.bun;
  await start(bin, [...args], { WORKERS: '2', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, 30).then(
    () => assert.unreachable('it listened'),
    (error: Error) => assert.match(error.message, /exited with 1 .*WORKERS is for `npm start`/s),
  );
});

test('start:bun / start:deno :: without the runtime anywhere, a message that says what to install, exit 1', () => {
  const run = spawnSync('sh', ['examples/posts/deploy/on-runtime.sh', 'no-such-runtime', '--version'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin' },
  });
  assert.is(run.status, 1);
  assert.match(run.stderr, /no-such-runtime is not installed\. Install it .*, or run `npm run runtimes`/s);
});

onBunDeno('start:bun / start:deno :: off the PATH, the runtime `npm run runtimes` installed is used', () => {
  for (const name of ['bun', 'deno']) {
    const run = spawnSync('sh', ['examples/posts/deploy/on-runtime.sh', name, '--version'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin' },
    });
    assert.is(run.status, 0, run.stderr);
    assert.match(run.stdout, /\d+\.\d+\.\d+/);
  }
});

test.run();
