// Serves test/support/event-stream-app.ts on the runtime that runs it, from the build: `bun
// build/test/support/event-stream-serve.js` or `deno run -A --node-modules-dir=manual …` prints
// `listening on http://127.0.0.1:<port>`.
import { eventStreamApp } from './event-stream-app.js';

interface BunLike {
  serve(options: { port: number; hostname: string; fetch: (request: Request, server: unknown) => unknown }): {
    port: number;
  };
}
interface DenoLike {
  serve(
    options: {
      port: number;
      hostname: string;
      onListen: (where: { hostname: string; port: number }) => void;
    },
    handler: (request: Request, info: unknown) => Response | Promise<Response>,
  ): unknown;
}

const app = eventStreamApp();
const { Bun, Deno } = globalThis as { Bun?: BunLike; Deno?: DenoLike };
if (Bun !== undefined) {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app });
  console.log(`listening on http://127.0.0.1:${server.port}`);
} else if (Deno !== undefined) {
  Deno.serve(
    {
      port: 0,
      hostname: '127.0.0.1',
      onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
    },
    app,
  );
} else {
  throw new Error('event-stream-serve.js runs on Bun or Deno');
}
