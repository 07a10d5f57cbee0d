import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { client as Client } from '../../core/client/index.js';
import { clientApp } from '../support/client-app.js';
import { quietHandler } from '../support/in-process.js';
import { ROOT } from '../support/paths.js';
import { needs } from '../support/needs.js';
import { needRuntimePackage } from '../support/runtimes.js';

/** The part of esbuild used here. */
interface Esbuild {
  build(options: object): Promise<{ outputFiles: Array<{ text: string; contents: Uint8Array }> }>;
}

// docs/client.md states the size; a change that passes this bound must say so there.
const MAX_GZIPPED_BYTES = 2048;

const esbuild = needRuntimePackage<Esbuild>(
  'esbuild',
  'the client bundle (test/package/client-bundle.test.ts)',
);

needs(esbuild, test)(
  'sevenfold/client :: bundles for a browser, minified and gzipped, under 2 kB, and runs',
  async () => {
    // The built entry, as a bundler resolves `sevenfold/client` from the package.
    const bundle = await esbuild.found!.build({
      entryPoints: [join(ROOT, 'build', 'core', 'client', 'index.js')],
      bundle: true,
      minify: true,
      format: 'esm',
      // A browser has no node: builtins: importing one fails the build.
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const [output] = bundle.outputFiles;
    const gzipped = gzipSync(output!.contents, { level: 9 }).length;
    assert.ok(gzipped <= MAX_GZIPPED_BYTES, `the client is ${gzipped} bytes gzipped`);
    assert.not.match(output!.text, /node:/);

    // The bundle alone, loaded as a module, calls a table in process.
    const loaded = (await import(`data:text/javascript,${encodeURIComponent(output!.text)}`)) as {
      client: typeof Client;
    };
    const table = clientApp();
    const api = loaded.client(table, { baseUrl: 'http://test.local', fetch: quietHandler(table) });
    const shown = await api.posts.show({ params: { post_id: '1' } });
    assert.equal([shown.status, shown.body], [200, { id: '1', title: 'Hello' }]);
  },
);

// docs/client.md states this one too: an app pays for watching only where it imports it.
const MAX_WATCH_GZIPPED_BYTES = 2048;

needs(esbuild, test)(
  'sevenfold/client/watch :: bundles for a browser on its own, under 2 kB gzipped',
  async () => {
    const bundle = await esbuild.found!.build({
      entryPoints: [join(ROOT, 'build', 'core', 'client', 'watch.js')],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const [output] = bundle.outputFiles;
    const gzipped = gzipSync(output!.contents, { level: 9 }).length;
    assert.ok(gzipped <= MAX_WATCH_GZIPPED_BYTES, `sevenfold/client/watch is ${gzipped} bytes gzipped`);
    assert.not.match(output!.text, /node:/);
  },
);

test.run();
