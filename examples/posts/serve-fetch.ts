// The entry of `npm run start:bun` and `npm run start:deno`: the app and store of main.ts, served by
// `toFetch` on the runtime's own server, with the same variables and the same `listening on` line.
import { health } from 'sevenfold/health';
import { toFetch, type FetchHandler } from 'sevenfold/fetch';
import { postsContainer, postsOptions, postsResource } from './app.js';
import { postsTable } from './hooks.js';
import { readConfig } from './deploy/config.js';
import { jsonLogger } from './deploy/log.js';
import { openStoreOrExit } from './deploy/store.js';
import { postsAssets } from './deploy/assets.js';
import { HEARTBEAT, postsLive } from './live.js';

// The two runtimes' servers, as far as this file uses them (it compiles with Node's types).
declare const Bun:
  | {
      serve(options: { port: number; hostname: string; idleTimeout: number; fetch: FetchHandler }): {
        port: number;
        stop(): Promise<void>;
      };
    }
  | undefined;
declare const Deno:
  | {
      serve(
        options: { port: number; hostname: string; onListen(address: { port: number }): void },
        handler: FetchHandler,
      ): { shutdown(): Promise<void> };
    }
  | undefined;

const config = readConfig(process.env);
if ('error' in config) {
  console.error(config.error);
  process.exit(1);
}
if (config.workers > 1) {
  console.error('WORKERS is for `npm start` (node:cluster): Bun and Deno serve one process here');
  process.exit(1);
}

const store = await openStoreOrExit(config.store, jsonLogger());
const changes = postsLive(store.broker);
const posts = postsResource(postsContainer(store.repository), changes);
let stopping = false;
const table = postsTable(
  { env: process.env, sessions: store.sessions, live: changes },
  posts,
  health({ ready: async () => !stopping && (await store.ping()) }),
  postsAssets(),
);
const handler = toFetch(table, { ...postsOptions(posts), trustProxy: config.trustProxy });
const { host, port } = config;

let stop: () => unknown;
if (typeof Bun !== 'undefined') {
  // Bun closes a connection silent for `idleTimeout` seconds (10 by default): a watcher's stream is silent
  // between heartbeats, so it waits twice as long as they are apart.
  const idleTimeout = Math.ceil((2 * HEARTBEAT) / 1000);
  const server = Bun.serve({ port, hostname: host, idleTimeout, fetch: handler });
  stop = () => server.stop();
  console.log(`listening on http://${host}:${server.port}`);
} else if (typeof Deno !== 'undefined') {
  const server = Deno.serve(
    {
      port,
      hostname: host,
      onListen: (address) => console.log(`listening on http://${host}:${address.port}`),
    },
    handler,
  );
  stop = () => server.shutdown();
} else {
  console.error('serve-fetch.js runs on Bun or Deno: `npm start` serves the example on Node');
  process.exit(1);
}

// SIGTERM or SIGINT: end the event streams (a graceful stop waits for every response, and a stream never
// finishes by itself), stop accepting, let requests in flight finish, close the store, exit 0.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    stopping = true;
    handler.drain();
    await stop();
    await changes.close();
    await store.close();
    process.exit(0);
  });
}
