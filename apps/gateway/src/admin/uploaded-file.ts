/**
 * An uploaded file (a request body) where the CLI's importers want one: on disk, in a directory
 * of its own, removed once `work` is over.
 *
 *   const counts = await withUploadedFile(req.ctx.rawBody, (path) => customers.importFile(merchantId, path));
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function withUploadedFile<T>(body: Buffer, work: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-upload-'));
  try {
    const path = join(dir, 'upload');
    await writeFile(path, body);
    return await work(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
