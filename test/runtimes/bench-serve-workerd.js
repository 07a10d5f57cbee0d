// Serves one variant of bench-apps.js on workerd, for test/bench/runtimes.ts: bundled and run by Miniflare as
// examples/blog/worker-tools.ts does. `node test/runtimes/bench-serve-workerd.js hono` prints
// `listening on http://127.0.0.1:<port> pid <workerd's pid>`, so the parent reads workerd's CPU time from /proc (it
// includes Miniflare's entry worker, which hands every request to the app, the same for every variant).
import { readdirSync, readFileSync } from 'node:fs';
import { bundleWorker, runWorker } from '../../build/examples/blog/worker-tools.js';

const name = process.argv[2];
const source = `
import { FETCH_APPS } from './test/runtimes/bench-apps.js';
const make = FETCH_APPS[${JSON.stringify(name)}];
if (make === undefined) throw new Error('no variant ${name}');
const app = await make();
export default { fetch: (request) => app.fetch(request) };
`;
const worker = await runWorker(await bundleWorker({ source }, ['elysia']), { host: '127.0.0.1', port: 0 });

/** The pids of `pid`'s descendants whose command is `command`. */
function descendants(pid, command) {
  const found = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    for (const child of children === '' ? [] : children.split(' ').map(Number)) {
      if (readFileSync(`/proc/${child}/comm`, 'utf8').trim() === command) found.push(child);
      found.push(...descendants(child, command));
    }
  }
  return found;
}

const [workerd] = descendants(process.pid, 'workerd');
if (workerd === undefined) throw new Error('Miniflare started no workerd process that /proc shows');
console.log(`listening on ${worker.url.origin} pid ${workerd}`);
process.removeAllListeners('SIGTERM');
process.on('SIGTERM', () => void worker.dispose().finally(() => process.exit(0)));
