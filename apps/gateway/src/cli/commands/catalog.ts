import { existsSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { importCatalog, type ImportProgress } from '../../catalog/import/catalog-importer.js';
import { out, UsageError } from '../output.js';
import { withDatabase } from '../with-database.js';

/** A one-line progress bar on a terminal; nothing otherwise. */
function progressBar(): ((p: ImportProgress) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return ({ phase, done, total }) => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : 0;
    const bar = total ? `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}` : `${done}`;
    process.stderr.write(`\r${phase} ${bar}  `);
    if (total && done === total) process.stderr.write('\n');
  };
}

export function catalogCommand(program: Command): void {
  const catalog = program.command('catalog').description('manage merchants\' catalogs');
  catalog
    .command('import')
    .description('import products (NDJSON or a JSON array of the contract\'s Product) for a merchant; upserts by id, all or nothing')
    .argument('<file>')
    .requiredOption('--merchant <id>', 'merchant id (created if new)')
    .action(async (file: string, options: { merchant: string }) => {
      if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`no file ${file}`);
      const started = Date.now();
      const onProgress = progressBar();
      const { imported } = await withDatabase((db) => importCatalog(db.prisma, options.merchant, file, onProgress ? { onProgress } : {}));
      out(`imported ${imported} products for merchant ${options.merchant} from ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    });
}
