import { execFileSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

// The library as it was at another commit, built beside this checkout, so that one bench run compares the two.

const ROOT = new URL('../../..', import.meta.url).pathname;

/**
 * The folder of a worktree of `commit`, built with this checkout's dependencies (made once, then reused):
 * `BENCH_BEFORE=<commit>` measures the code as it was there beside the code as it is.
 */
export function builtAt(commit: string): string {
  const sha = execFileSync('git', ['rev-parse', '--short=12', commit], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const dir = join(ROOT, '..', `sevenfold-bench-${sha}`);
  if (!existsSync(join(dir, 'build/adapters/node.js'))) {
    if (!existsSync(dir))
      execFileSync('git', ['worktree', 'add', '--detach', dir, sha], { cwd: ROOT, stdio: 'ignore' });
    if (!existsSync(join(dir, 'node_modules')))
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', '.'], { cwd: dir, stdio: 'inherit' });
  }
  return dir;
}
