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
const TABLES = { posts: 'build/examples/posts/table.js' };
const validators = join(work, 'validators.js');
const code = await main(
  ['validators', TABLES[name] ?? fail(`no table module for ${name}\n`), '--out', validators],
  {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    cwd: root,
  },
);
if (code !== 0) fail(`sevenfold validators failed (${code})\n`);

// The app is made on the first request: a Worker may not generate random values at start-up.
const entry = `
import { toFetch } from ${JSON.stringify(join(root, 'build/adapters/fetch.js'))};
import { runtimeApp } from ${JSON.stringify(join(root, 'build/test/support/runtime-apps.js'))};
import validators from ${JSON.stringify(validators)};
let handler;
export default {
  fetch(request) {
    if (handler === undefined) {
      const { source, options } = runtimeApp(${JSON.stringify(name)});
      handler = toFetch(source, { ...options, validators });
    }
    return handler(request);
  },
};
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
