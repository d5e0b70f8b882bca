import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The embedded database is one process's at a time; says plainly who holds it. */
export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
}

/** Whether a process with this pid is alive (EPERM: alive, someone else's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data directory's lock file; returns the function that releases it. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, 'gateway.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockFile, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirBusyError(
          `the embedded database in ${resolve(dataDir)} is in use by process ${holder} (a running gateway?); stop it first, or set DATABASE_URL to use PostgreSQL`,
        );
      }
      rmSync(lockFile, { force: true }); // stale: its process is gone
    }
  }
  throw new DataDirBusyError(`cannot lock the embedded database in ${resolve(dataDir)}`);
}
