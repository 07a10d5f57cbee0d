import cluster from 'node:cluster';
import type { RequestListener } from 'node:http';
import polka from 'polka';
import { listen, serve, type Running } from 'sevenfold/node';
import { mount } from 'sevenfold/polka';
import { POSTS_OPTIONS, postsContainer, postsResource } from './app.js';
import { runPrimary, type Listening } from './cluster.js';
import { readConfig } from './config.js';
import { openStore, type Store } from './store.js';

const config = readConfig(process.env);
if ('error' in config) {
  console.error(config.error);
  process.exit(1);
}

if (config.workers > 1 && cluster.isPrimary) runPrimary(config.workers);
else await runServer();

/** One server process: the whole app on its own, or one worker of several. */
async function runServer(): Promise<void> {
  if (!('adapter' in config)) return;
  // Handlers go in before the server starts: a signal right after "listening on" must drain, not kill.
  let running: Running | undefined;
  let store: Store | undefined;
  let stopping = false;
  async function stop(): Promise<void> {
    // A second signal while draining cuts the remaining connections at once.
    if (stopping) return void running?.server.closeAllConnections();
    stopping = true;
    await running?.close();
    await store?.close();
    process.exit(0);
  }
  process.on('SIGTERM', stop);
  // A worker's primary passes Ctrl-C on as SIGTERM; the terminal's own SIGINT would count twice.
  process.on('SIGINT', cluster.isWorker ? () => {} : stop);

  try {
    store = await openStore(config.store);
  } catch (error) {
    console.error(`cannot open the posts store: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const posts = postsResource(postsContainer(store.repository));
  const { host, port } = config;
  try {
    running =
      config.adapter === 'node'
        ? await serve(posts, { ...POSTS_OPTIONS, host, port })
        : await listen(mount(polka(), posts, POSTS_OPTIONS).handler as RequestListener, { host, port });
  } catch (error) {
    console.error(
      `cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`,
    );
    await store.close();
    process.exit(1);
  }
  if (stopping) return;
  if (cluster.isWorker) process.send!({ listening: running.url } satisfies Listening);
  else console.log(`listening on ${running.url}`);
}
