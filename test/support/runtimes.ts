import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { hidden, need, type Need } from './needs.js';
import { ROOT } from './paths.js';

/**
 * The runtimes the tests serve a table on besides the Node running them: Bun, Deno, workerd, Node 22 and 24,
 * from test/runtimes/ (`npm run runtimes`, a package of its own that the root `npm install` never
 * installs). Each binary comes from the npm package that carries it for this platform, read directly,
 * so nothing depends on an install script having run.
 */
export type RuntimeName = 'bun' | 'deno' | 'workerd' | 'node22' | 'node24';

export interface Runtime {
  readonly name: RuntimeName;
  /** The executable's absolute path. */
  readonly bin: string;
  /** What it answers to `--version`, e.g. `1.4.5`, `deno 2.9.6 …`, `v24.21.0`. */
  readonly version: string;
}

/** Where test/runtimes/ installs its packages. */
export const RUNTIMES_DIR = join(ROOT, 'test', 'runtimes', 'node_modules');

const { platform, arch } = process;
/** npm's names for this machine: Bun says aarch64 for arm64. */
const bunArch = arch === 'arm64' ? 'aarch64' : arch;
const exe = platform === 'win32' ? '.exe' : '';

/** The binary each runtime's platform package carries on this machine, by name of the package and path in it. */
function candidates(name: RuntimeName): string[] {
  switch (name) {
    case 'bun':
      return [
        `@oven/bun-${platform}-${bunArch}/bin/bun${exe}`,
        `@oven/bun-${platform}-${bunArch}-musl/bin/bun${exe}`,
      ];
    case 'deno':
      return [`@deno/${platform}-${arch}-glibc/deno${exe}`, `@deno/${platform}-${arch}/deno${exe}`];
    case 'workerd':
      return [
        `@cloudflare/workerd-${platform === 'win32' ? 'windows' : platform}-${arch === 'x64' ? '64' : arch}/bin/workerd${exe}`,
      ];
    case 'node22':
    case 'node24':
      return [`${name}-${platform}-${arch}/bin/node${exe}`, `${name}-${platform}-${arch}/node${exe}`];
    default:
      return [];
  }
}

/** The line a missing runtime is reported with, saying how to get it. */
function missing(name: string, why: string): string {
  return `${name}: ${why}; install the test runtimes with \`npm run runtimes\` (test/runtimes/package.json)`;
}

const found = new Map<RuntimeName, Runtime | string>();

/** A runtime, or the reason it cannot be used here (not installed, no package for this platform, does not run). */
export function findRuntime(name: RuntimeName): Runtime | string {
  const known = found.get(name);
  if (known !== undefined) return known;
  let result: Runtime | string;
  const hide = hidden(name);
  if (hide !== undefined) {
    result = hide;
  } else if (!existsSync(RUNTIMES_DIR)) {
    result = missing(name, `${RUNTIMES_DIR} does not exist`);
  } else {
    const paths = candidates(name).map((path) => join(RUNTIMES_DIR, path));
    const bin = paths.find((path) => existsSync(path));
    if (bin === undefined) {
      const where = paths.length === 0 ? 'no package names one' : `none at ${paths.join(' or ')}`;
      result = missing(name, `no binary for ${platform}-${arch}: ${where}`);
    } else {
      const run = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
      const version = `${run.stdout ?? ''}`.trim().split('\n')[0] ?? '';
      result =
        run.status === 0 && version !== ''
          ? { name, bin, version }
          : missing(name, `${bin} --version failed: ${run.error ?? run.stderr}`);
    }
  }
  found.set(name, result);
  return result;
}

/** The runtimes the tests of `what` need, skipped without them (see needs.ts), and `found` when all are here. */
export function needRuntimes<const Names extends readonly RuntimeName[]>(
  names: Names,
  what: string,
): Need & { readonly found: { [K in Names[number]]: Runtime } | undefined } {
  const results = names.map(findRuntime);
  const needed = need(
    what,
    results.map((result) => (typeof result === 'string' ? result : undefined)),
  );
  const found = needed.ok
    ? (Object.fromEntries((results as Runtime[]).map((runtime) => [runtime.name, runtime])) as {
        [K in Names[number]]: Runtime;
      })
    : undefined;
  return { ...needed, found };
}

/** A package test/runtimes/ installs (esbuild) that the tests of `what` need, and `found` when it is here. */
export function needRuntimePackage<T>(name: string, what: string): Need & { readonly found: T | undefined } {
  let found: T | undefined;
  let reason = hidden(name);
  try {
    if (reason === undefined)
      found = createRequire(join(ROOT, 'test', 'runtimes', 'package.json'))(name) as T;
  } catch (error) {
    const first = `${(error as Error).message}`.split('\n')[0];
    reason = missing(name, `${name} cannot be loaded from ${RUNTIMES_DIR}: ${first}`);
  }
  return { ...need(what, [reason]), found };
}
