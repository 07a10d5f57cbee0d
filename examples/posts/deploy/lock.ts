// One process per PGlite folder: a pid lock file, taken over when its holder is gone.
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';

/** Raised when another live process holds the lock: the message says which and what to do. */
export class LockedError extends Error {
  override readonly name = 'LockedError';
}

/**
 * Takes `file` as an exclusive lock for this process: created only if absent (O_EXCL), holding
 * our pid. A lock whose process is gone (killed, crashed) is stale and taken over. Returns the
 * release, which removes the file only while it is still ours.
 */
export function takeLock(file: string, what: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        if (ownerOf(file) === process.pid) unlinkSync(file);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = ownerOf(file);
    if (owner !== undefined && isAlive(owner)) {
      throw new LockedError(
        `${what} is in use by process ${owner} (${file}); stop that process, or give this one another DATA_DIR` +
          ' (several processes can share posts only on a PostgreSQL server: set DATABASE_URL)',
      );
    }
    // Stale: moved aside in one step, so of two processes taking it over at once only one succeeds.
    const aside = `${file}.${process.pid}.stale`;
    try {
      renameSync(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      continue;
    }
    const moved = ownerOf(aside);
    // What was moved may be a live lock taken in between: it goes back (unless a third took the place) and
    // its owner keeps the data.
    if (moved !== undefined && moved !== owner && isAlive(moved)) {
      try {
        linkSync(aside, file);
      } catch {
        // A third process holds the place now; the one moved aside stops when it sees its lock gone.
      }
      unlinkSync(aside);
      throw new LockedError(`${what} was just taken by process ${moved} (${file})`);
    }
    unlinkSync(aside);
  }
  throw new LockedError(`${what}: could not take ${file}; another process keeps taking it`);
}

/** The pid written in a lock file, or `undefined` when it is absent or unreadable. */
function ownerOf(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process nobody has reaped yet (a zombie) still answers the signal, but holds nothing.
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}
