import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LockedError, takeLock } from '../../examples/posts/deploy/lock.js';

const dir = mkdtempSync(join(tmpdir(), 'sevenfold-lock-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
let serial = 0;
const lockFile = () => join(dir, `lock-${++serial}`);

/** The pid of a process that has ended (and been reaped). */
function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
      .stdout,
  );
}

test('takeLock :: creates the file with our pid; release removes it', () => {
  const file = lockFile();
  const release = takeLock(file, 'the store');
  assert.is(readFileSync(file, 'utf8'), `${process.pid}\n`);
  release();
  assert.not.ok(existsSync(file));
});

test('takeLock :: a lock held by a live process is refused, naming the process, the file and the way out', () => {
  const file = lockFile();
  const release = takeLock(file, 'the posts database in /srv/data');
  try {
    assert.throws(
      () => takeLock(file, 'the posts database in /srv/data'),
      (error: Error) =>
        error instanceof LockedError &&
        error.message.includes(`in use by process ${process.pid}`) &&
        error.message.includes(file) &&
        error.message.includes('DATA_DIR') &&
        error.message.includes('DATABASE_URL'),
    );
    assert.is(readFileSync(file, 'utf8'), `${process.pid}\n`);
  } finally {
    release();
  }
});

test('takeLock :: a stale lock (its process gone) or an unreadable one is taken over, leaving nothing aside', () => {
  for (const content of [`${deadPid()}\n`, 'not a pid\n', '']) {
    const file = lockFile();
    writeFileSync(file, content);
    const release = takeLock(file, 'the store');
    assert.is(readFileSync(file, 'utf8'), `${process.pid}\n`, JSON.stringify(content));
    release();
  }
  assert.equal(
    readdirSync(dir).filter((name) => name.endsWith('.stale')),
    [],
  );
});

test('takeLock :: release leaves a lock that is no longer ours', () => {
  const file = lockFile();
  const release = takeLock(file, 'the store');
  writeFileSync(file, '1\n');
  release();
  assert.is(readFileSync(file, 'utf8'), '1\n');
});

test.run();
