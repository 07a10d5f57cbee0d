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

/**
 * The built entry bundled as a bundler resolves it from the package, for a browser (where importing a node:
 * builtin fails the build), minified: its text and its gzipped size, which must be at most `max` bytes.
 */
async function browserBundle(file: string, max: number): Promise<string> {
  const bundle = await esbuild.found!.build({
    entryPoints: [join(ROOT, 'build', 'core', 'client', file)],
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
  assert.ok(gzipped <= max, `build/core/client/${file} is ${gzipped} bytes gzipped`);
  assert.not.match(output!.text, /node:/);
  return output!.text;
}

needs(esbuild, test)(
  'sevenfold/client :: bundles for a browser, minified and gzipped, under 2 kB, and runs',
  async () => {
    const text = await browserBundle('index.js', MAX_GZIPPED_BYTES);
    // The bundle alone, loaded as a module, calls a table in process.
    const loaded = (await import(`data:text/javascript,${encodeURIComponent(text)}`)) as {
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
    await browserBundle('watch.js', MAX_WATCH_GZIPPED_BYTES);
  },
);

test.run();
