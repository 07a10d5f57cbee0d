import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bundleWorker } from '../../examples/blog/worker-tools.js';
import { openOnSocket, parseEventStream } from '../support/event-stream-client.js';
import { FLOOD_CAP, WIRE_BYTES, type StreamState } from '../support/event-stream-app.js';
import { needs } from '../support/needs.js';
import { ROOT } from '../support/paths.js';
import { needRuntimes, type RuntimeName } from '../support/runtimes.js';
import { start, stop } from '../support/spawn.js';

// toFetch's event streams on Bun, Deno and workerd, each serving test/support/event-stream-app.ts: the head and
// the bytes, heartbeats, Last-Event-ID, a client that leaves, a client that stops reading, and drain(). Where a
// runtime is missing, its tests skip (needs.ts).

interface Served {
  url: string;
  stop: () => Promise<unknown>;
}

const ENV = { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
const SERVE = 'build/test/support/event-stream-serve.js';

/** How each runtime serves the app: a spawned server for Bun and Deno, Miniflare for workerd. */
const SERVERS: Record<'bun' | 'deno' | 'workerd', (bin: string) => Promise<Served>> = {
  bun: async (bin) => {
    const started = await start(bin, [SERVE], ENV);
    return { url: started.url, stop: () => stop(started) };
  },
  deno: async (bin) => {
    const started = await start(bin, ['run', '-A', '--node-modules-dir=manual', SERVE], ENV);
    return { url: started.url, stop: () => stop(started) };
  },
  workerd: async () => {
    // A stream made at the module's top level, as live() makes one to check its options: workerd allows it.
    const source = `
      import { events } from './build/core/index.js';
      import { eventStreamApp } from './build/test/support/event-stream-app.js';
      events({ headers: {} }, () => {}, { heartbeat: 1000 });
      const app = eventStreamApp();
      export default { fetch: (request) => app(request) };
    `;
    const { Miniflare } = createRequire(join(ROOT, 'test', 'runtimes', 'package.json'))('miniflare') as {
      Miniflare: new (options: object) => { ready: Promise<URL>; dispose(): Promise<void> };
    };
    // workerd tells a Worker that its client left only through the request's signal, behind this flag.
    const worker = new Miniflare({
      modules: true,
      script: await bundleWorker({ source }),
      compatibilityDate: '2025-09-01',
      compatibilityFlags: ['enable_request_signal'],
      host: '127.0.0.1',
      port: 0,
    });
    return { url: (await worker.ready).origin, stop: () => worker.dispose() };
  },
};

async function state(url: string): Promise<StreamState> {
  const response = await fetch(new URL('/states', url), { signal: AbortSignal.timeout(5000) });
  return (await response.json()) as StreamState;
}

for (const name of ['bun', 'deno', 'workerd'] as const satisfies readonly RuntimeName[]) {
  const need = needRuntimes(
    [name] as const,
    `event streams on ${name} (test/http/event-stream-runtimes.test.ts)`,
  );
  const runtime = needs(need, suite<Served>(`events() on ${name}`, { url: '', stop: async () => {} }));

  runtime.before(async (context) => {
    const served = await SERVERS[name](need.found![name].bin);
    context.url = served.url;
    context.stop = served.stop;
  });

  runtime.after(async (context) => void (await context.stop()));

  runtime(
    'the head, and the bytes as WHATWG HTML §9.2 writes them; CR, LF and NUL refused in event and id',
    async ({ url }) => {
      const stream = await openOnSocket(url, { path: '/streams/wire' }, name);
      assert.is(stream.status, 200);
      assert.is(stream.headers['content-type'], 'text/event-stream');
      assert.is(stream.headers['cache-control'], 'no-store, no-transform');
      assert.is(stream.headers['x-accel-buffering'], 'no');
      assert.is(await stream.ended(), 'end');
      assert.is(stream.body, WIRE_BYTES);
    },
  );

  runtime('heartbeats come while no event does; a client that leaves is noticed', async ({ url }) => {
    const probe = `heartbeat@${name}`;
    const stream = await openOnSocket(
      url,
      { path: '/streams/idle?heartbeat=20', headers: { 'X-Probe': probe } },
      name,
    );
    assert.match(await stream.until(':\n\n:\n\n:\n\n:\n\n'), /^(:\n\n)+$/);
    stream.leave();
    // A heartbeat written to a connection the client closed tells the runtime it is gone.
    let seen: StreamState | undefined;
    for (let i = 0; i < 100; i++) {
      seen = await state(url);
      if (seen.left.includes(probe)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(seen!.left.includes(probe), `the stream’s signal aborted: ${JSON.stringify(seen)}`);
  });

  runtime('Last-Event-ID reaches the handler', async ({ url }) => {
    const stream = await openOnSocket(
      url,
      { path: '/streams/last-id', headers: { 'Last-Event-ID': 'k3-41' } },
      name,
    );
    assert.is(await stream.ended(), 'end');
    assert.equal(parseEventStream(stream.body).events, [
      { event: 'resumed', data: 'k3-41', lastEventId: '' },
    ]);
  });

  runtime(
    'a client that stops reading: the stream closes past maxBuffered, what it holds bounded',
    async ({ url }) => {
      const probe = `flood@${name}`;
      const stream = await openOnSocket(url, { path: '/streams/flood', headers: { 'X-Probe': probe } }, name);
      stream.pause();
      let flood: StreamState['floods'][string] | undefined;
      for (let i = 0; i < 600 && flood === undefined; i++) {
        flood = (await state(url)).floods[probe];
        if (flood === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(flood !== undefined, 'the flood stopped');
      assert.ok(flood.sent < FLOOD_CAP, `it stopped after ${flood.sent} bytes`);
      assert.is(flood.closed, true);
      stream.resume();
      const ending = await stream.ended(10_000);
      // workerd ends the chunked body as if whole when its stream errors: the client reconnects either way.
      if (name !== 'workerd') assert.is(ending, 'cut');
    },
  );

  // Not a Worker's: it cannot touch a stream another request opened, and Workers have no graceful stop to drain.
  if (name !== 'workerd')
    runtime('drain() ends the open streams cleanly, and any answered after it at once', async ({ url }) => {
      const stream = await openOnSocket(url, { path: '/streams/idle' }, name);
      await stream.until(':\n\n');
      const drained = await fetch(new URL('/drains', url), {
        method: 'POST',
        signal: AbortSignal.timeout(5000),
      });
      assert.is(drained.status, 200);
      const { ended } = (await drained.json()) as { ended: number };
      assert.ok(ended >= 1, `drain() ended ${ended}`);
      assert.is(await stream.ended(), 'end');
      assert.is(stream.body, ':\n\n');
      const later = await openOnSocket(url, { path: '/streams/idle' }, name);
      assert.is(later.status, 200);
      assert.is(await later.ended(), 'end');
      assert.is(later.body, ':\n\n');
    });

  runtime.run();
}
