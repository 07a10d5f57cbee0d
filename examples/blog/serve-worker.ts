// Runs examples/blog as a Worker on workerd, locally: worker.js bundled and served by Miniflare on PORT (default
// 8787), as examples/blog/worker-tools.ts does it.
import { bundleWorker, ROOT, runWorker } from './worker-tools.js';

const PORT = process.env.PORT || '8787';
if (!/^\d{1,5}$/.test(PORT) || Number(PORT) > 65535) {
  console.error(`PORT must be a whole number from 0 to 65535, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}

let worker: Awaited<ReturnType<typeof runWorker>>;
try {
  const script = await bundleWorker({ file: `${ROOT}build/examples/blog/worker.js` });
  worker = await runWorker(script, { host: process.env.HOST || '127.0.0.1', port: Number(PORT) });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
console.log(`listening on ${worker.url.origin}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // Miniflare's own handler exits 143; disposing stops workerd the same way, and a requested stop is a success.
  process.removeAllListeners(signal);
  process.once(signal, () => void worker.dispose().finally(() => process.exit(0)));
}
