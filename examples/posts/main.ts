import type { RequestListener } from 'node:http';
import polka from 'polka';
import { listen, serve, type Running } from 'sevenfold/node';
import { mount } from 'sevenfold/polka';
import { postsResource } from './app.js';

// Configuration comes from the environment, as the spec's "Starting it" section says.
const adapter = process.env.ADAPTER ?? 'polka';
const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || 3000);

if (adapter !== 'polka' && adapter !== 'node') {
  console.error(`ADAPTER must be "polka" or "node", got ${JSON.stringify(adapter)}`);
  process.exit(1);
}
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a whole number from 0 to 65535, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}

// Handlers go in before the server starts: a signal right after "listening on" must drain, not kill.
let running: Running | undefined;
let stopping = false;
async function stop(): Promise<void> {
  if (running === undefined) process.exit(0);
  // A second signal while draining cuts the remaining connections at once.
  if (stopping) return void running.server.closeAllConnections();
  stopping = true;
  await running.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

const posts = postsResource();
try {
  running =
    adapter === 'node'
      ? await serve(posts, { host, port })
      : await listen(mount(polka(), posts).handler as RequestListener, { host, port });
} catch (error) {
  console.error(
    `cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
console.log(`listening on ${running.url}`);
