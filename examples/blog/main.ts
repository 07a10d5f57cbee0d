// Starts examples/blog on node:http (PORT, default 3001) and drains on SIGTERM.
import { serve, type Running } from 'sevenfold/node';
import { blogApp } from './app.js';

// PORT as plain digits only: a typo must stop the start, not bind a port nobody asked for.
const PORT = process.env.PORT || '3001';
if (!/^\d{1,5}$/.test(PORT) || Number(PORT) > 65535) {
  console.error(`PORT must be a whole number from 0 to 65535, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}
const host = process.env.HOST || '127.0.0.1';

let running: Running;
try {
  running = await serve(blogApp().table, { host, port: Number(PORT) });
} catch (error) {
  console.error(
    `cannot listen on ${host}:${PORT}: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
// Before the line is printed, so a signal sent the moment it appears drains rather than kills.
running.closeOnSignals();
console.log(`listening on ${running.url}`);
