// How a Worker is built and run locally here: one module bundled by esbuild with no `node:` builtin left (no
// nodejs_compat), served by Miniflare (workerd). Both come with the test runtimes (`npm run runtimes`).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The parts of esbuild and Miniflare used here. */
interface Esbuild {
  build(options: object): Promise<{ outputFiles: Array<{ text: string }> }>;
}
interface MiniflareClass {
  new (options: object): { ready: Promise<URL>; dispose(): Promise<void> };
}

/** The repository's root, where `build/` and `test/runtimes/` are. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** esbuild and Miniflare from test/runtimes/, or an error that says how to install them. */
function tools(): { esbuild: Esbuild; Miniflare: MiniflareClass } {
  const load = createRequire(`${ROOT}test/runtimes/package.json`);
  try {
    return {
      esbuild: load('esbuild') as Esbuild,
      Miniflare: (load('miniflare') as { Miniflare: MiniflareClass }).Miniflare,
    };
  } catch {
    throw new Error(
      'esbuild and Miniflare are missing: `npm run runtimes` installs them (test/runtimes/package.json)',
    );
  }
}

/** An esbuild plugin that resolves each of `names` to an empty module. */
function emptyModules(names: readonly string[]) {
  return {
    name: 'empty-modules',
    setup(build: {
      onResolve(options: object, run: (args: { path: string }) => object): void;
      onLoad(options: object, run: () => object): void;
    }) {
      const filter = new RegExp(
        `^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`,
      );
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'empty' }));
      build.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};' }));
    },
  };
}

/** A Worker's modules as one ES module: from a file, or from source text resolved from the root. */
export async function bundleWorker(
  entry: { readonly file: string } | { readonly source: string },
  /** Packages replaced by an empty module: imported only behind a branch the Worker never takes. */
  absent: readonly string[] = [],
): Promise<string> {
  const bundle = await tools().esbuild.build({
    ...('file' in entry
      ? { entryPoints: [entry.file] }
      : { stdin: { contents: entry.source, resolveDir: ROOT } }),
    absWorkingDir: ROOT,
    bundle: true,
    plugins: absent.length === 0 ? [] : [emptyModules(absent)],
    write: false,
    format: 'esm',
    // Neutral, not node: a `node:` import fails the build instead of failing in workerd.
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import'],
    target: 'es2022',
    logLevel: 'error',
  });
  return bundle.outputFiles[0]!.text;
}

/** Serves a bundled Worker on workerd through Miniflare; resolves once it listens. */
export async function runWorker(
  script: string,
  where: { readonly host: string; readonly port: number },
): Promise<{ readonly url: URL; dispose(): Promise<void> }> {
  const { Miniflare } = tools();
  const worker = new Miniflare({ modules: true, script, compatibilityDate: '2025-09-01', ...where });
  return { url: await worker.ready, dispose: () => worker.dispose() };
}
