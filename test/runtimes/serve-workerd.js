// Serves one app of test/support/runtime-apps.ts on workerd, from the build, with no `nodejs_compat`: the app and
// toFetch bundled and run as examples/blog/worker-tools.ts does, its JSON Schemas precompiled by `sevenfold validators`.
// `node test/runtimes/serve-workerd.js posts` prints `listening on http://127.0.0.1:<port>`, exits on SIGTERM.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../build/adapters/cli.js';
import { bundleWorker, runWorker } from '../../build/examples/blog/worker-tools.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const name = process.argv[2];
const work = mkdtempSync(join(tmpdir(), 'sevenfold-workerd-'));
const fail = (text) => {
  process.stderr.write(text);
  process.exit(1);
};

// The module that exports each app's table, for `sevenfold validators`.
const TABLES = {
  posts: 'build/examples/posts/table.js',
  'upload-override': 'build/test/support/upload-override-app.js',
};
const validators = join(work, 'validators.js');
const code = await main(
  [
    'validators',
    TABLES[name] ?? fail(`no table module for ${name}\n`),
    '--out',
    validators,
    '--check-responses',
  ],
  {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    cwd: root,
  },
);
if (code !== 0) fail(`sevenfold validators failed (${code})\n`);

// The app is made as the module loads, as examples/blog/worker.ts makes its own.
const entry = `
import { toFetch } from ${JSON.stringify(join(root, 'build/adapters/fetch.js'))};
import { runtimeApp } from ${JSON.stringify(join(root, 'build/test/support/runtime-apps.js'))};
import validators from ${JSON.stringify(validators)};
const { source, options } = runtimeApp(${JSON.stringify(name)});
const handler = toFetch(source, { ...options, validators });
export default { fetch: (request) => handler(request) };
`;
const script = await bundleWorker({ source: entry }).catch((error) =>
  fail(`bundling for workerd failed: ${error.message}\n`),
);
const worker = await runWorker(script, { host: '127.0.0.1', port: 0 });
rmSync(work, { recursive: true, force: true });
console.log(`listening on ${worker.url.origin}`);
process.removeAllListeners('SIGTERM');
process.on('SIGTERM', () => {
  void worker.dispose().finally(() => process.exit(0));
});
