// Runs examples/blog as a Worker on workerd, locally: worker.js bundled by esbuild, served by Miniflare on PORT
// (default 8787). Both come with the test runtimes (`npm run runtimes`), not with the library.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The parts of esbuild and Miniflare used here. */
interface Esbuild {
  build(options: object): Promise<{ outputFiles: Array<{ text: string }> }>;
}
interface MiniflareClass {
  new (options: object): { ready: Promise<URL>; dispose(): Promise<void> };
}

const root = fileURLToPath(new URL('../../..', import.meta.url));
const load = createRequire(`${root}test/runtimes/package.json`);
let esbuild: Esbuild;
let Miniflare: MiniflareClass;
try {
  esbuild = load('esbuild') as Esbuild;
  ({ Miniflare } = load('miniflare') as { Miniflare: MiniflareClass });
} catch {
  console.error(
    'esbuild and Miniflare are missing: `npm run runtimes` installs them (test/runtimes/package.json)',
  );
  process.exit(1);
}

const PORT = process.env.PORT || '8787';
if (!/^\d{1,5}$/.test(PORT) || Number(PORT) > 65535) {
  console.error(`PORT must be a whole number from 0 to 65535, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}

// One module, as a Worker is uploaded: no `node:` builtin may be left in it (no nodejs_compat).
const bundle = await esbuild.build({
  entryPoints: [`${root}build/examples/blog/worker.js`],
  absWorkingDir: root,
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  conditions: ['workerd', 'worker', 'import'],
  target: 'es2022',
  logLevel: 'error',
});
const worker = new Miniflare({
  modules: true,
  script: bundle.outputFiles[0]!.text,
  compatibilityDate: '2025-09-01',
  host: process.env.HOST || '127.0.0.1',
  port: Number(PORT),
});
const url = await worker.ready;
console.log(`listening on ${url.origin}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // Miniflare's own handler exits 143; disposing stops workerd the same way, and a requested stop is a success.
  process.removeAllListeners(signal);
  process.once(signal, () => void worker.dispose().finally(() => process.exit(0)));
}
