// Serves one variant of bench-apps.js on the runtime running it, for test/bench/runtimes.ts:
// `bun test/runtimes/bench-serve.js hono` or `deno run -A --node-modules-dir=manual
// test/runtimes/bench-serve.js hono` prints `listening on http://127.0.0.1:<port>`, exits on SIGTERM.
// The parent reads this process's CPU time from /proc, so nothing here measures anything.
import { FETCH_APPS } from './bench-apps.js';

const onDeno = typeof Deno !== 'undefined';
const name = onDeno ? Deno.args[0] : process.argv[2];
const make = FETCH_APPS[name];
if (make === undefined) throw new Error(`no variant ${name}: one of ${Object.keys(FETCH_APPS).join(', ')}`);
const app = await make();
const hostname = '127.0.0.1';

let stop;
if (app.listen !== undefined) {
  const port = await app.listen(hostname);
  console.log(`listening on http://${hostname}:${port}`);
  stop = () => {};
} else if (onDeno) {
  const server = Deno.serve(
    { port: 0, hostname, onListen: ({ port }) => console.log(`listening on http://${hostname}:${port}`) },
    app.fetch,
  );
  stop = () => void server.shutdown();
} else {
  const server = Bun.serve({ port: 0, hostname, fetch: app.fetch });
  console.log(`listening on http://${hostname}:${server.port}`);
  stop = () => void server.stop(true);
}

const exit = () => {
  stop();
  if (onDeno) Deno.exit(0);
  else process.exit(0);
};
if (onDeno) Deno.addSignalListener('SIGTERM', exit);
else process.on('SIGTERM', exit);
