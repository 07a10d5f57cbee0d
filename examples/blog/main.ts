import { serve, type Running } from 'sevenfold/node';
import { blogApp } from './app.js';

// PORT as plain digits only: a typo must stop the start, not bind a port nobody asked for.
const PORT = process.env.PORT || '3001';
if (!/^\d{1,5}$/.test(PORT) || Number(PORT) > 65535) {
  console.error(`PORT must be a whole number from 0 to 65535, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}
const host = process.env.HOST || '127.0.0.1';

// Handlers go in before the server starts: a signal right after "listening on" must drain, not kill.
let running: Running | undefined;
let stopping = false;
async function stop(): Promise<void> {
  // A second signal while draining cuts the remaining connections at once.
  if (stopping) return void running?.server.closeAllConnections();
  stopping = true;
  await running?.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

try {
  running = await serve(blogApp().table, { host, port: Number(PORT) });
} catch (error) {
  console.error(
    `cannot listen on ${host}:${PORT}: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
if (!stopping) console.log(`listening on ${running.url}`);
