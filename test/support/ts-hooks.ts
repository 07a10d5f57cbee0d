// A TypeScript loader for the CLI's tests (node 20 has no type stripping, and tsx is no dependency):
// the load hook hands each .ts or .mts module to tsc, which emits it alone, unchecked, as an ES module.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { LoadHook } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TSC } from './paths.js';

export const load: LoadHook = async (url, context, nextLoad) => {
  if (!url.startsWith('file:') || !/\.m?ts$/.test(url)) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const out = mkdtempSync(join(tmpdir(), 'sevenfold-ts-'));
  try {
    // tsc runs in the empty folder, so no tsconfig.json stands in for the options given here.
    execFileSync(
      TSC,
      [
        file,
        ...['--outDir', out, '--rootDir', dirname(file), '--noCheck', '--target', 'es2022'],
        ...['--module', 'nodenext', '--moduleResolution', 'nodenext'],
      ],
      { cwd: out },
    );
    const source = readFileSync(join(out, basename(file).replace(/ts$/, 'js')), 'utf8');
    return { format: 'module', source, shortCircuit: true };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
};
