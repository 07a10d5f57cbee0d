import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, TSC } from '../support/paths.js';
import { needPostgres, startPostgres } from '../support/postgres.js';
import { fixed, median } from './load.js';
import { processTree, startExample, stopExample, treeMemory } from './example.js';

/**
 * What a new user meets first: examples/posts from its command to `listening on`, on each store, in fresh
 * processes, the variants interleaved round by round; the peak and resident memory of its processes at that
 * moment; `npm start` itself with nothing to compile; and the compile from nothing (a fresh clone).
 */

interface Variant {
  readonly name: string;
  /** The environment of one start; a new PGlite folder is made for each start of the variant that asks. */
  env(): Record<string, string>;
  readonly command?: readonly string[];
}

interface Start {
  readonly ms: number;
  readonly peakMb: number;
  readonly rssMb: number;
}

async function timedStart(variant: Variant): Promise<Start> {
  const started = performance.now();
  const running = await startExample(variant.env(), variant.command);
  const ms = performance.now() - started;
  // Read at once, before any request: what starting took and holds.
  const memory = treeMemory(processTree(running.child.pid!));
  await stopExample(running);
  return { ms, peakMb: memory.peakMb, rssMb: memory.rssMb };
}

/** Seconds of compiling the example into a new folder, as `npm start` does on a fresh clone; median of `rounds`. */
function firstCompile(rounds: number): number {
  const seconds: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const out = mkdtempSync(join(tmpdir(), 'sevenfold-compile-'));
    try {
      const started = performance.now();
      const run = spawnSync(TSC, ['-p', 'examples/posts', '--outDir', out], { cwd: ROOT, encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`tsc -p examples/posts failed: ${run.stdout}${run.stderr}`);
      seconds.push((performance.now() - started) / 1000);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  return median(seconds);
}

/** The section of `npm run bench` for the example's start-up, as Markdown. */
export async function startupFigures(rounds: number): Promise<string> {
  const made: string[] = [];
  const folder = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'sevenfold-start-'));
    made.push(dir);
    return dir;
  };
  const postgres = needPostgres('the PostgreSQL rows of the start-up bench').ok
    ? await startPostgres()
    : undefined;
  try {
    // An existing folder: one the example has made and stopped, so its database is there and unlocked.
    const existing = folder();
    await stopExample(await startExample({ DATA_DIR: existing }));
    // `npm start` compiles first; once this compile has run, nothing has changed for it.
    spawnSync(TSC, ['-b', 'examples/posts'], { cwd: ROOT, stdio: 'ignore' });
    const variants: Variant[] = [
      { name: 'PGlite, a new `DATA_DIR`', env: () => ({ DATA_DIR: folder() }) },
      { name: 'PGlite, an existing `DATA_DIR`', env: () => ({ DATA_DIR: copyOf(existing, folder()) }) },
      { name: '`DATA_DIR=memory`', env: () => ({ DATA_DIR: 'memory' }) },
      {
        name: '`npm start`, nothing changed (existing `DATA_DIR`)',
        env: () => ({ DATA_DIR: copyOf(existing, folder()) }),
        command: ['npm', 'start', '--silent'],
      },
    ];
    if (postgres !== undefined)
      variants.push(
        { name: 'PostgreSQL server, `WORKERS=1`', env: () => ({ DATABASE_URL: postgres.url, WORKERS: '1' }) },
        { name: 'PostgreSQL server, `WORKERS=2`', env: () => ({ DATABASE_URL: postgres.url, WORKERS: '2' }) },
      );
    const starts = variants.map(() => [] as Start[]);
    for (let round = 0; round < rounds; round++)
      for (let k = 0; k < variants.length; k++) {
        // A different variant goes first in each round.
        const i = (k + round) % variants.length;
        starts[i]!.push(await timedStart(variants[i]!));
      }
    const lines = [
      `${rounds} starts of each, interleaved; the time from spawning the command to its \`listening on\` line (median, and the range), and the memory of its processes then: the peak (VmHWM) and what is resident (VmRSS), summed over the workers.`,
      '',
      '| start | to `listening on` ms | range ms | peak MB | RSS MB |',
      '|---|---|---|---|---|',
    ];
    variants.forEach((variant, i) => {
      const ms = starts[i]!.map((s) => s.ms);
      lines.push(
        `| ${variant.name} | ${Math.round(median(ms))} | ${Math.round(Math.min(...ms))}–${Math.round(Math.max(...ms))} | ${Math.round(median(starts[i]!.map((s) => s.peakMb)))} | ${Math.round(median(starts[i]!.map((s) => s.rssMb)))} |`,
      );
    });
    lines.push(
      '',
      `The compile \`npm start\` runs on a fresh clone (\`tsc -p examples/posts\` into an empty folder): ${fixed(firstCompile(3))} s (median of 3).`,
    );
    if (postgres === undefined)
      lines.push('', 'PostgreSQL rows skipped: no PostgreSQL server binaries (apt-get install postgresql).');
    return lines.join('\n');
  } finally {
    await postgres?.stop();
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  }
}

function copyOf(from: string, to: string): string {
  cpSync(from, to, { recursive: true });
  return to;
}
