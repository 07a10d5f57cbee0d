// Serves one app of test/support/runtime-apps.ts on Bun, from the build:
// `bun test/runtimes/serve-bun.js posts` prints `listening on http://127.0.0.1:<port>`, exits on SIGTERM.
import { toFetch } from '../../build/adapters/fetch.js';
import { runtimeApp } from '../../build/test/support/runtime-apps.js';

const { source, options } = runtimeApp(process.argv[2]);
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: toFetch(source, options) });
console.log(`listening on http://127.0.0.1:${server.port}`);
process.on('SIGTERM', () => {
  void server.stop(true);
  process.exit(0);
});
