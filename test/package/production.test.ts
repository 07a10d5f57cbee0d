// A production install of the repository, as an operator makes one: `npm ci --omit=dev`, then `npm start`
// serves examples/posts with the example's workspace dependencies and none of the development ones.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { raw } from '../support/http.js';
import { ROOT } from '../support/paths.js';
import { start } from '../support/spawn.js';

const run = promisify(execFile);

test('npm ci --omit=dev, then npm start :: builds and serves examples/posts without a development dependency', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sevenfold-production-'));
  try {
    // The files a clone would have, as they are in this work tree (changes not yet committed included).
    const listed = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
    });
    for (const file of listed.stdout
      .split('\0')
      .filter((name) => name !== '' && existsSync(join(ROOT, name)))) {
      if (file === 'node_modules' || file.startsWith('test/runtimes/node_modules')) continue;
      cpSync(join(ROOT, file), join(dir, file), { recursive: false, dereference: false, force: true });
    }
    try {
      await run(
        'npm',
        ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
        {
          cwd: dir,
          maxBuffer: 1 << 24,
        },
      );
    } catch (error) {
      const output = String((error as { stderr?: string }).stderr ?? error);
      // Offline with an empty cache there is nothing to install from: loud on a developer's machine, a failure in CI.
      if (process.env.CI !== 'true' && /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT/.test(output)) {
        console.warn(
          `\n  ⚠ SKIPPED the production install test: npm could not fetch packages (${output.split('\n')[0]}).\n`,
        );
        return;
      }
      throw error;
    }
    assert.ok(existsSync(join(dir, 'node_modules/polka')), 'the example workspace brings polka');
    assert.ok(existsSync(join(dir, 'node_modules/typescript')), 'and the compiler npm start runs');
    for (const dev of ['uvu', 'prettier', 'fastify', 'autocannon'])
      assert.not.ok(existsSync(join(dir, 'node_modules', dev)), `${dev} is a development dependency`);

    const app = await start(
      'npm',
      ['start'],
      { PORT: '0', DATA_DIR: join(dir, 'data'), ADAPTER: 'polka' },
      90,
      {
        cwd: dir,
      },
    );
    try {
      assert.is((await raw(app.url, { path: '/posts' })).status, 200);
      assert.is((await raw(app.url, { path: '/readyz' })).status, 200);
    } finally {
      app.child.kill('SIGTERM');
      assert.equal((await app.exited)[0], 0);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
