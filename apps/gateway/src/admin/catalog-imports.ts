/**
 * Catalog imports started through the admin API: the uploaded file goes to the same
 * CatalogImportService `gateway catalog import` runs (all or nothing), and its progress is kept
 * **in this process's memory** — `GET /admin/catalog/imports/{id}` answers on the replica that
 * runs the import (another replica answers 404), and the record is gone after a restart (the
 * catalog is not: an import either committed or wrote nothing). The last 100 finished imports
 * are kept.
 *
 * `start()` resolves once the whole file is valid (the writing goes on in the background), or
 * rejects with InvalidRequestError — nothing written — when it is not a catalog.
 *
 *   const job = await imports.start('shop', body);   // { state: 'running', received: 120, … }
 *   imports.get(job.id);                              // later: { state: 'succeeded', imported: 120, … }
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ImportError } from '../catalog/import/catalog-importer.js';
import type { CatalogImportService } from '../catalog/import/catalog-import-service.js';
import { InvalidRequestError } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';

export interface ImportErrorEntry {
  /** The line of the file the refused record starts on, when the error is about one. */
  line: number | null;
  message: string;
}

export interface CatalogImportJob {
  id: string;
  merchantId: string;
  state: 'running' | 'succeeded' | 'failed';
  /** Products in the file (all valid once the import runs). */
  received: number;
  /** Products written so far; committed only when the state is `succeeded` (all or nothing). */
  imported: number;
  /** Products not imported: every one of the file when the import failed. */
  failed: number;
  /** Products stored without a search vector (the embedder failed; `reindex` fills them in). */
  unembedded: number;
  errors: ImportErrorEntry[];
  startedAt: Date;
  finishedAt: Date | null;
}

const KEPT_FINISHED = 100;

export class CatalogImports {
  private readonly jobs = new Map<string, CatalogImportJob>();

  constructor(
    private readonly imports: Pick<CatalogImportService, 'importFile'>,
    private readonly logger?: Logger,
  ) {}

  get(id: string): CatalogImportJob | undefined {
    return this.jobs.get(id);
  }

  /** The merchant's imports still running in this process (the console's home lists them). */
  running(merchantId: string): CatalogImportJob[] {
    return [...this.jobs.values()].filter((j) => j.merchantId === merchantId && j.state === 'running');
  }

  async start(merchantId: string, file: Buffer): Promise<CatalogImportJob> {
    const job: CatalogImportJob = { id: newId('imp'), merchantId, state: 'running', received: 0, imported: 0, failed: 0, unembedded: 0, errors: [], startedAt: new Date(), finishedAt: null };
    const dir = await mkdtemp(join(tmpdir(), 'gateway-import-'));
    const path = join(dir, 'catalog');
    await writeFile(path, file);
    let isValid = false;
    let validated!: () => void;
    const valid = new Promise<void>((resolve) => (validated = resolve));
    const run = this.imports
      .importFile(merchantId, path, (progress) => {
        if (progress.phase === 'writing') job.imported = progress.done;
        else job.received = progress.done;
        if (progress.phase === 'validating' && progress.total !== undefined) {
          isValid = true;
          validated();
        }
      })
      .finally(() => rm(dir, { recursive: true, force: true }));
    // Whichever comes first: the whole file found valid (the import goes on), or the import's end.
    await Promise.race([valid, run.catch(() => {})]);
    if (!isValid) {
      // Refused before anything was written: not a catalog. No import resource is kept.
      const error = await run.then(() => new Error('the import ended without validating the file'), (e: unknown) => e);
      if (error instanceof ImportError) throw new InvalidRequestError(`The upload is not a catalog: ${error.message}`, 'body');
      throw error;
    }
    this.jobs.set(job.id, job);
    void this.follow(job, run);
    return job;
  }

  private async follow(job: CatalogImportJob, run: ReturnType<CatalogImportService['importFile']>): Promise<void> {
    try {
      const result = await run;
      Object.assign(job, { state: 'succeeded', imported: result.imported, unembedded: result.unembedded });
    } catch (error) {
      const known = error instanceof ImportError;
      if (!known) this.logger?.error({ err: error, importId: job.id, merchantId: job.merchantId }, 'catalog import failed');
      Object.assign(job, {
        state: 'failed',
        imported: 0,
        failed: job.received,
        errors: [{ line: known ? (error.line ?? null) : null, message: known ? error.message : 'internal error: the import was rolled back; see the gateway log' }],
      });
    }
    job.finishedAt = new Date();
    this.forgetOld();
  }

  private forgetOld(): void {
    const finished = [...this.jobs.values()].filter((j) => j.state !== 'running');
    for (const old of finished.slice(0, Math.max(0, finished.length - KEPT_FINISHED))) this.jobs.delete(old.id);
  }
}
