// One server process of examples/posts: opens the store, serves the app and its health routes on the adapter
// the config names, drains on a signal.
import cluster from 'node:cluster';
import type { RequestListener } from 'node:http';
import polka from 'polka';
import { health } from 'sevenfold/health';
import { closeOnSignals, listen, serve, type Running } from 'sevenfold/node';
import { mount } from 'sevenfold/polka';
import { postsContainer, postsOptions, postsResource } from '../app.js';
import { postsTable } from '../hooks.js';
import type { Listening, Settle, Settled } from './cluster.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { openStoreOrExit, type Store } from './store.js';
import { postsAssets } from './assets.js';
import { postsLive } from '../live.js';
import type { Live } from 'sevenfold/live';

/**
 * One server process: the whole app on its own, or one worker of several (it reports to the primary instead
 * of printing). SIGTERM, SIGINT, and SIGHUP when alone, drain it (see docs/deployment.md, "Signals").
 */
export async function runServer(config: Config, log: Logger): Promise<void> {
  let running: Running | undefined;
  let store: Store | undefined;
  let changes: Live | undefined;
  let draining = false;
  // Installed before the store opens: a signal during start-up exits 0 too, and one right after "listening
  // on" drains.
  closeOnSignals(
    {
      close: async () => {
        draining = true;
        // The server's close ends its event streams first, since they never finish by themselves.
        const closed = await running?.close();
        if (cluster.isWorker) await primarySettled();
        await changes?.close();
        await store?.close();
        return closed;
      },
    },
    {
      // One process alone cannot be replaced without a gap, so its SIGHUP stops it and its supervisor starts
      // it again; a worker's SIGHUP is its primary's to act on.
      signals: cluster.isWorker ? ['SIGTERM', 'SIGINT'] : ['SIGTERM', 'SIGINT', 'SIGHUP'],
      force: () => running?.cut(),
    },
  );
  // A hangup signalled to the whole group (a closed terminal) must not kill a worker behind its primary's back.
  if (cluster.isWorker) process.on('SIGHUP', () => {});

  store = await openStoreOrExit(config.store, log);
  changes = postsLive(store.broker);
  const posts = postsResource(postsContainer(store.repository), changes);
  const options = { ...postsOptions(posts), trustProxy: config.trustProxy };
  const opened = store;
  // Not part of the posts table (docs/routes.md lists that one): served beside it, in the scope of its hooks.
  const table = postsTable(
    { env: process.env, sessions: store.sessions, live: changes },
    posts,
    health({ ready: async () => !draining && (await opened.ping()) }),
    postsAssets(),
  );
  const { host, port, shutdownTimeout } = config;
  try {
    running =
      config.adapter === 'node'
        ? await serve(table, { ...options, host, port, shutdownTimeout })
        : await listen(mount(polka(), table, options).handler as RequestListener, {
            host,
            port,
            shutdownTimeout,
          });
  } catch (error) {
    console.error(
      `cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`,
    );
    await store.close();
    process.exit(1);
  }
  // A signal that came while it started has the process on its way out: it does not announce itself.
  if (draining) return;
  if (cluster.isWorker) process.send!({ listening: running.url } satisfies Listening);
  else console.log(`listening on ${running.url}`);
}

/**
 * Resolves once the primary has read everything this worker sent before (its server's close among it), so no
 * connection it was handing over is lost when the worker exits: it hands those back instead.
 */
function primarySettled(): Promise<void> {
  if (!process.connected) return Promise.resolve();
  return new Promise((resolve) => {
    const onMessage = (message: Partial<Settled>): void => {
      if (message?.settled !== true) return;
      process.off('message', onMessage);
      resolve();
    };
    process.on('message', onMessage);
    process.send!({ settle: true } satisfies Settle, (error: Error | null) => error && resolve());
    process.once('disconnect', resolve);
  });
}
