import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TSC } from '../support/paths.js';
import { RUNTIMES_DIR } from '../support/runtimes.js';
import { fixed, median, order } from './load.js';
import { writeTypesFixture, type FixtureProject } from './type-check-fixture.js';

/**
 * What type-checking costs on a large table: the fixture of type-check-fixture.ts (200 resources, 1 400
 * routes) written for sevenfold and for Hono, each checked with and without a module that calls every
 * route through its typed client, by the repository's own `tsc` in fresh processes, in interleaved
 * runs. Single-threaded, so the figures do not depend on how many cores the machine lends the checker
 * and each instantiation is counted once.
 */

/** What `tsc --extendedDiagnostics` prints for one project, and the CPU time its process took. */
export interface TscFigures {
  /** The checker's own wall-clock time, as tsc reports it. */
  readonly checkSeconds: number;
  /** User and system time of the whole process: on a busy machine, steadier than any wall-clock time. */
  readonly cpuSeconds: number;
  readonly instantiations: number;
  readonly types: number;
  readonly memoryMb: number;
}

const FIELDS = {
  checkSeconds: /^Check time:\s+([\d.]+)s$/m,
  instantiations: /^Instantiations:\s+(\d+)$/m,
  types: /^Types:\s+(\d+)$/m,
  memoryMb: /^Memory used:\s+(\d+)K$/m,
} as const;

// The shell's `times` prints its children's user and system time last, as `0m1.234s 0m0.120s`.
const TIMED = '"$0" "$@"; status=$?; times; exit $status';
const TIMES = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/;

/** Checks one project; a type error in the fixture is a broken benchmark, so it throws with the errors. */
export function checkProject(tsconfig: string, diagnostics = true): TscFigures | undefined {
  // Plain errors, one a line, even where FORCE_COLOR is set (uvu sets it).
  const args = ['-p', tsconfig, '--noEmit', '--singleThreaded', '--pretty', 'false'];
  const run = spawnSync(
    'sh',
    ['-c', TIMED, TSC, ...args, ...(diagnostics ? ['--extendedDiagnostics'] : [])],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const { stdout } = run;
  if (run.status !== 0 || /error TS\d+/.test(stdout)) {
    const errors = stdout.split('\n').filter((line) => /error TS\d+/.test(line));
    throw new Error(
      `tsc -p ${tsconfig} failed (${run.status ?? run.signal}):\n${(errors.length > 0 ? errors : [stdout, run.stderr]).slice(0, 20).join('\n')}`,
    );
  }
  if (!diagnostics) return undefined;
  const read = (pattern: RegExp): number => {
    const match = pattern.exec(stdout);
    if (match === null) throw new Error(`tsc --extendedDiagnostics printed no ${pattern.source}:\n${stdout}`);
    return Number(match[1]);
  };
  const times = TIMES.exec(stdout);
  if (times === null) throw new Error(`sh's times printed no CPU time:\n${stdout}`);
  const [, userMin, userSec, sysMin, sysSec] = times.map(Number) as [number, number, number, number, number];
  return {
    checkSeconds: read(FIELDS.checkSeconds),
    cpuSeconds: userMin * 60 + userSec + sysMin * 60 + sysSec,
    instantiations: read(FIELDS.instantiations),
    types: read(FIELDS.types),
    memoryMb: read(FIELDS.memoryMb) / 1024,
  };
}

/** The reason Hono cannot be compared here, or `undefined` when test/runtimes has it. */
export function honoMissing(): string | undefined {
  const hono = join(RUNTIMES_DIR, 'hono', 'package.json');
  return existsSync(hono)
    ? undefined
    : `hono: ${hono} does not exist; install the test runtimes with \`npm run runtimes\``;
}

const times = (n: number) => `${fixed(n)}×`;
const count = (n: number) => Math.round(n).toLocaleString('en-US').replaceAll(',', ' ');

/** The type-check figures of each project over `runs` interleaved runs, with sevenfold's ratios to Hono's. */
export function typesFigures(runs: number, resources = 200): string {
  const missing = honoMissing();
  if (missing !== undefined) return `Skipped: ${missing}.`;
  const fixture = writeTypesFixture(resources);
  try {
    const projects = Object.entries(fixture.projects) as [FixtureProject, string][];
    const samples = new Map<FixtureProject, TscFigures[]>(projects.map(([name]) => [name, []]));
    for (let run = 0; run < runs; run++) {
      for (const [name, tsconfig] of order(projects, run)) samples.get(name)!.push(checkProject(tsconfig)!);
      process.stderr.write(`types: run ${run + 1}/${runs} done\n`);
    }
    const of = (name: FixtureProject, key: keyof TscFigures) => samples.get(name)!.map((s) => s[key]);
    const med = (name: FixtureProject, key: keyof TscFigures) => median(of(name, key));
    const lines = [
      `${fixture.resources} resources, ${fixture.routes} routes; \`tsc --extendedDiagnostics --noEmit --singleThreaded\` (TypeScript ${tscVersion()}), median of ${runs} interleaved runs.`,
      '',
      '| project | check s | CPU s | CPU spread | instantiations | types | memory MB |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const [name] of projects) {
      const cpu = of(name, 'cpuSeconds');
      lines.push(
        `| ${name} | ${fixed(med(name, 'checkSeconds'))} | ${fixed(med(name, 'cpuSeconds'))} | ${fixed(Math.min(...cpu))}–${fixed(Math.max(...cpu))} | ${count(med(name, 'instantiations'))} | ${count(med(name, 'types'))} | ${Math.round(med(name, 'memoryMb'))} |`,
      );
    }
    // Times are divided run by run, as the HTTP ratios are round by round; the counts do not move.
    const byRun = (a: FixtureProject, b: FixtureProject, key: 'checkSeconds' | 'cpuSeconds') => {
      const [x, y] = [of(a, key), of(b, key)];
      return times(median(x.map((value, i) => value / y[i]!)));
    };
    const keys = ['instantiations', 'types', 'memoryMb'] as const;
    const row = (label: string, a: FixtureProject, b: FixtureProject) =>
      `| ${label} | ${byRun(a, b, 'checkSeconds')} | ${byRun(a, b, 'cpuSeconds')} | ${keys.map((k) => times(med(a, k) / med(b, k))).join(' | ')} |`;
    const client = 'sevenfold server + client';
    // What the calls alone add on each side: the project with them less the server alone, medians.
    const added = (key: keyof TscFigures) =>
      times(
        (med(client, key) - med('sevenfold server', key)) /
          (med('hono server + hc', key) - med('hono server', key)),
      );
    lines.push(
      '',
      '| sevenfold ÷ Hono | check time | CPU time | instantiations | types | memory |',
      '|---|---|---|---|---|---|',
      row('server', 'sevenfold server', 'hono server'),
      row('server + client ÷ server + hc', client, 'hono server + hc'),
      `| the calls alone (each side less its server) | ${(['checkSeconds', 'cpuSeconds', ...keys] as const).map(added).join(' | ')} |`,
      '',
      "The goal (issue #30): a third of Hono's or less, in time and in instantiations.",
    );
    return lines.join('\n');
  } finally {
    rmSync(fixture.dir, { recursive: true, force: true });
  }
}

/** The version the repository's tsc reports, e.g. `7.0.2`. */
function tscVersion(): string {
  const run = spawnSync(TSC, ['--version'], { encoding: 'utf8' });
  return /(\d+\.\d+\.\S+)/.exec(run.stdout)?.[1] ?? 'unknown';
}
