// What refusing code generation costs (workerd refuses it): toFetch in process on Node with ajv and the generated
// walk, against node under `--disallow-code-generation-from-strings` with precompiled validators and the general walk.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../adapters/cli.js';
import { ROOT } from '../support/paths.js';
import { fixed, median, order } from './load.js';

const VARIANTS = {
  'code generated (ajv at start-up, generated walk)': { flags: [] as string[], precompiled: false },
  'no code generation (precompiled validators, general walk)': {
    flags: ['--disallow-code-generation-from-strings'],
    precompiled: true,
  },
};
type Label = keyof typeof VARIANTS;

/** Writes the validators of `module`'s export `name` into `dir`; the file's path. */
async function precompile(
  dir: string,
  module: string,
  name: string | undefined,
  responses = false,
): Promise<string> {
  const out = join(dir, `${name ?? 'all'}.js`);
  const args = ['validators', module, '--out', out, ...(name === undefined ? [] : ['--export', name])];
  if (responses) args.push('--check-responses');
  let err = '';
  const code = await main(args, { out: () => {}, err: (text) => (err += text), cwd: ROOT });
  if (code !== 0) throw new Error(`sevenfold ${args.join(' ')} failed: ${err}`);
  return out;
}

/** The figures: CPU per request of the validated posts workload, and examples/posts' start-up, per variant. */
export async function noCodegenFigures(rounds: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'sevenfold-bench-'));
  const children = new Map<Label, ChildProcess>();
  const startup = new Map<Label, number>();
  try {
    const files = [
      await precompile(dir, 'build/test/bench/workload.js', 'sevenfoldValidated'),
      await precompile(dir, 'build/examples/posts/table.js', undefined, true),
    ];
    for (const [label, { flags, precompiled }] of Object.entries(VARIANTS) as Array<
      [Label, (typeof VARIANTS)[Label]]
    >) {
      const child = fork(new URL('./no-codegen-child.js', import.meta.url), precompiled ? files : ['', ''], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        execArgv: flags,
      });
      const [first] = (await once(child, 'message')) as [{ startup?: number; error?: string }];
      startup.set(label, first.startup!);
      const [ready] = (await once(child, 'message')) as [{ ready?: boolean }];
      if (ready.ready !== true) throw new Error(`${label} did not start`);
      children.set(label, child);
    }
    const ask = async (child: ChildProcess) => {
      child.send('round');
      const [answer] = (await once(child, 'message')) as [{ cpu?: number; error?: string }];
      if (answer.error !== undefined) throw new Error(answer.error);
      return answer.cpu!;
    };
    const labels = [...children.keys()];
    for (const child of children.values()) await ask(child); // warm-up
    const samples = new Map<Label, number[]>(labels.map((label) => [label, []]));
    for (let r = 0; r < rounds; r++)
      for (const label of order(labels, r)) samples.get(label)!.push(await ask(children.get(label)!));
    const base = samples.get(labels[0]!)!;
    const lines = [
      `Node ${process.version}; ${rounds} interleaved rounds; the bench's posts workload with create's body checked by its JSON Schema, each request a \`new Request(…)\`; start-up is \`toFetch(examples/posts)\` with its schemas and response checks, cold.`,
      '',
      `| variant | CPU µs/req (median) | spread | vs code generated | start-up (ms) |`,
      '|---|---|---|---|---|',
    ];
    for (const [label, s] of samples)
      lines.push(
        `| ${label} | ${fixed(median(s))} | ${fixed(Math.min(...s))}–${fixed(Math.max(...s))} | ${fixed(median(s.map((x, i) => x / base[i]!)))}× | ${fixed(startup.get(label)!, 1)} |`,
      );
    return lines.join('\n');
  } finally {
    for (const child of children.values()) {
      child.send('exit');
      await once(child, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
