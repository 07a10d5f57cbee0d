import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, TSC } from '../support/paths.js';

// `npm start` compiles with `tsc -b examples/posts`, which skips the compile when no input is newer than the
// last build: it compares the timestamps of the project's own files only, never of what they import.
const test = suite('npm start: the compile it skips');

test('every source file the example compiles is one of its project’s own, so a change to any is seen', () => {
  const config = JSON.parse(readFileSync(join(ROOT, 'examples/posts/tsconfig.json'), 'utf8')) as {
    include: string[];
  };
  const folders = config.include.map((glob) =>
    relative(ROOT, join(ROOT, 'examples/posts', glob.replace(/\/\*\*\/\*\.ts$/, ''))),
  );
  assert.equal(folders.sort(), ['adapters', 'core', 'examples/posts']);
  const run = spawnSync(TSC, ['-p', 'examples/posts', '--listFilesOnly'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(run.status, 0, run.stdout + run.stderr);
  const sources = run.stdout
    .split('\n')
    .filter((file) => file !== '' && !file.includes('/node_modules/'))
    .map((file) => relative(ROOT, file));
  assert.ok(sources.length > 100, `${sources.length} files`);
  const outside = sources.filter((file) => !folders.some((folder) => file.startsWith(`${folder}/`)));
  assert.equal(outside, [], 'imported, but not part of the project: tsc -b would not see them change');
  assert.match(readPackageStart(), /^tsc -b examples\/posts && /);
});

function readPackageStart(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start;
}

test.run();
