// Serves one app of test/support/runtime-apps.ts on Deno, from the build:
// `deno run -A --node-modules-dir=manual test/runtimes/serve-deno.js posts` prints
// `listening on http://127.0.0.1:<port>`, exits on SIGTERM.
import { toFetch } from '../../build/adapters/fetch.js';
import { runtimeApp } from '../../build/test/support/runtime-apps.js';

const { source, options } = runtimeApp(Deno.args[0]);
const server = Deno.serve(
  {
    port: 0,
    hostname: '127.0.0.1',
    onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
  },
  toFetch(source, options),
);
Deno.addSignalListener('SIGTERM', () => {
  void server.shutdown();
  Deno.exit(0);
});
