// One server process of examples/posts: opens the store, serves the app on the adapter the config names,
// drains on a signal.
import cluster from 'node:cluster';
import type { RequestListener } from 'node:http';
import polka from 'polka';
import { closeOnSignals, listen, serve, type Running } from 'sevenfold/node';
import { mount } from 'sevenfold/polka';
import { postsContainer, postsOptions, postsResource } from '../app.js';
import { postsTable } from '../hooks.js';
import type { Listening } from './cluster.js';
import type { Config } from './config.js';
import { openStoreOrExit, type Store } from './store.js';

/**
 * One server process: the whole app on its own, or one worker of several (it reports to the primary instead
 * of printing).
 */
export async function runServer(config: Config): Promise<void> {
  let running: Running | undefined;
  let store: Store | undefined;
  let stopping = false;
  // Installed before the store opens: a signal during start-up exits 0 too, and one right after "listening
  // on" drains.
  closeOnSignals(
    {
      close: async () => {
        stopping = true;
        await running?.close();
        await store?.close();
      },
    },
    {
      // A worker's primary passes Ctrl-C on as SIGTERM; the terminal's own SIGINT would count twice.
      signals: cluster.isWorker ? ['SIGTERM'] : ['SIGTERM', 'SIGINT'],
      force: () => running?.server.closeAllConnections(),
    },
  );
  if (cluster.isWorker) process.on('SIGINT', () => {});

  store = await openStoreOrExit(config.store);
  const posts = postsResource(postsContainer(store.repository));
  const options = postsOptions(posts);
  const table = postsTable(process.env, posts);
  const { host, port } = config;
  try {
    running =
      config.adapter === 'node'
        ? await serve(table, { ...options, host, port })
        : await listen(mount(polka(), table, options).handler as RequestListener, { host, port });
  } catch (error) {
    console.error(
      `cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`,
    );
    await store.close();
    process.exit(1);
  }
  // A signal that came while it started has the process on its way out: it does not announce itself.
  if (stopping) return;
  if (cluster.isWorker) process.send!({ listening: running.url } satisfies Listening);
  else console.log(`listening on ${running.url}`);
}
