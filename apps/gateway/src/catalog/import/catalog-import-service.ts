/**
 * Catalog imports as the operator's tools run them: the CLI's `catalog import` and the demo seed
 * call this (never the writer or a store), with the search's own embedder, so that imported
 * vectors are the ones the running search ranks with.
 */
import type { Database } from '../../db/database.js';
import type { Embedder } from '../../search/embedder.js';
import { importCatalog, type ImportProgress, type ImportResult } from './catalog-importer.js';

export class CatalogImportService {
  constructor(
    private readonly db: Database,
    private readonly embedder: Embedder,
  ) {}

  /** Validates the whole file, then writes it in one transaction (all or nothing); see catalog-importer.ts. */
  importFile(merchantId: string, file: string, onProgress?: (progress: ImportProgress) => void): Promise<ImportResult> {
    return importCatalog(this.db, merchantId, file, { embedder: this.embedder, ...(onProgress ? { onProgress } : {}) });
  }
}
