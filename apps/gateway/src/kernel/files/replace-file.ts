/**
 * The one way the gateway writes a file an operator names (`catalog export --out DIR`,
 * `customers export --out FILE`): never through what is already at that path.
 *
 * The content goes to a new temporary file beside the target (a random hidden name, created
 * exclusively — never an existing file, nor a symlink planted there — and mode 0600: an export
 * holds a merchant's data, readable by the user who made it only), which is renamed into place
 * once complete. A rename replaces the directory entry itself: a symlink at the target is
 * replaced by the new file, and whatever it pointed at is left untouched; a file there is
 * replaced whole (its old mode and owner do not carry over). A target that is a directory (or
 * anything but a file or a symlink) is refused before anything is written. A failure removes the
 * temporary file and leaves the target as it was; only a process killed outright can leave a
 * `.*.tmp` file behind — never a half-written target.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { lstat, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Owner read and write only. */
export const PRIVATE_FILE_MODE = 0o600;

/** A target path that cannot be written over (e.g. a directory is in the way). */
export class OutputFileError extends Error {
  override name = 'OutputFileError';
}

/** Refuses a target path that a rename could not (or should not) replace: anything but a file or a symlink. */
export async function assertReplaceable(path: string, what = 'the file'): Promise<void> {
  const stat = await lstat(path).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
  if (stat && !stat.isFile() && !stat.isSymbolicLink()) throw new OutputFileError(`${path} exists and is not a file; ${what} is not written over it`);
}

/** A file being written to its temporary name: written, finished, then committed (renamed into place) — or aborted. */
export interface FileReplacement {
  readonly path: string;
  /** Writes a chunk, waiting when the stream asks to; rejects with the stream's first error. */
  write(chunk: string): Promise<void>;
  /** Ends the temporary file: everything written is on disk under its temporary name. */
  finish(): Promise<void>;
  /** Renames the finished temporary file into place. */
  commit(): Promise<void>;
  /** Closes and removes the temporary file; the target is as it was. Never rejects. */
  abort(): Promise<void>;
}

/** A fresh name beside `path`: `.products.jsonl.<random>.tmp`. */
const temporaryName = (path: string) => join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);

/** Starts replacing `path` (its directory must exist); refuses a target that is not a file or a symlink. */
export async function beginReplacement(path: string, what?: string): Promise<FileReplacement> {
  await assertReplaceable(path, what);
  const temporary = temporaryName(path);
  // 'wx': created here and now, or an error — never opened through a symlink or over a file.
  const out = createWriteStream(temporary, { encoding: 'utf8', flags: 'wx', mode: PRIVATE_FILE_MODE });
  const failed = once(out, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => {});
  return {
    path,
    async write(chunk) {
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
    },
    async finish() {
      out.end();
      await Promise.race([once(out, 'finish'), failed]);
    },
    commit: () => rename(temporary, path),
    async abort() {
      // Closed first: a stream destroyed while its file is still being opened creates it after an earlier rm.
      // Writes still buffered fail with the destroy (an 'error' event): the caller reports its own first failure.
      out.on('error', () => {});
      const closed = out.closed ? Promise.resolve() : new Promise<void>((resolve) => out.once('close', () => resolve()));
      out.destroy();
      await closed;
      await rm(temporary, { force: true });
    },
  };
}

/** Writes `content` to `path` as beginReplacement does: through a private temporary file, renamed into place. */
export async function replaceFile(path: string, content: string, what?: string): Promise<void> {
  const file = await beginReplacement(path, what);
  try {
    await file.write(content);
    await file.finish();
    await file.commit();
  } catch (error) {
    await file.abort();
    throw error;
  }
}
