import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../support/paths.js';

// Test files stay readable: none under test/ (support/ and bench/ included) passes 600 lines.
const LIMIT = 600;

// Not test/runtimes/node_modules/: the runtimes `npm run runtimes` installs are nobody's to read; nor is
// the lock npm writes for them.
const installed = (path: string): boolean =>
  path.split('/').includes('node_modules') || path.endsWith('/package-lock.json');

const files = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
  .map((name) => `test/${name.split(sep).join('/')}`)
  .filter((path) => !installed(path) && statSync(join(ROOT, path)).isFile());

test('test/ :: no file is over 600 lines; split a longer one along its seams', () => {
  assert.ok(files.length >= 40, `only ${files.length} files found under test/`);
  const long = files.flatMap((path) => {
    const lines = readFileSync(join(ROOT, path), 'utf8').trimEnd().split('\n').length;
    return lines > LIMIT ? [`${path}: ${lines} lines`] : [];
  });
  assert.equal(long, []);
});

test('test/ :: the check sees support/ and bench/, and would see a file of 601 lines', () => {
  assert.ok(files.includes('test/support/http.ts'), 'test/support/ is read');
  assert.ok(files.includes('test/bench/run.ts'), 'test/bench/ is read');
  assert.ok(files.includes('test/core/matcher-walks.test.ts'), 'the folders of tests are read');
  assert.ok(files.includes('test/runtimes/serve-bun.js'), 'test/runtimes/ is read');
  assert.ok(installed('test/runtimes/node_modules/bun/package.json'), 'what npm installed there is not');
  assert.ok(installed('test/runtimes/package-lock.json'), 'nor the lock npm wrote');
  assert.not.ok(installed('test/runtimes/package.json'), 'the package itself is read');
  assert.is(
    'line\n'
      .repeat(LIMIT + 1)
      .trimEnd()
      .split('\n').length,
    LIMIT + 1,
  );
});

// Source files hold one concept each: none in core/, adapters/, client/ or examples/ passes 300 lines (the
// validators module `sevenfold validators` generates aside: it is output, not source).
const SOURCE_LIMIT = 300;

test('source :: no file of core/, adapters/, client/ or examples/ is over 300 lines', () => {
  const sources = ['core', 'adapters', 'client', 'examples'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .map((name) => `${dir}/${name.split(sep).join('/')}`)
      .filter((path) => path.endsWith('.ts') && !installed(path) && !path.endsWith('/validators.ts')),
  );
  assert.ok(sources.includes('adapters/web/fetch-request.ts'), 'adapters/web/ is read');
  const long = sources.flatMap((path) => {
    const lines = readFileSync(join(ROOT, path), 'utf8').trimEnd().split('\n').length;
    return lines > SOURCE_LIMIT ? [`${path}: ${lines} lines`] : [];
  });
  assert.equal(long, []);
});

test.run();
