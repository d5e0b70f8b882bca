import { existsSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { requireMerchants } from '../merchants-exist.js';
import { err, io, out, outJson, result, UsageError } from '../output.js';
import { progressBar, seconds } from '../progress.js';
import { withDatabase } from '../with-database.js';
import { feedCommands } from './catalog-feed.js';

export function catalogCommand(program: Command): void {
  const catalog = program.command('catalog').description('manage merchants\' catalogs');
  catalog
    .command('import')
    .description('import products (NDJSON or a JSON array of the contract\'s Product) for a merchant; upserts by id, all or nothing')
    .argument('<file>')
    .requiredOption('--merchant <id>', 'merchant id (must exist: merchants create)')
    .action(async (file: string, options: { merchant: string }) => {
      if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`no file ${file}`);
      const started = Date.now();
      const onProgress = progressBar();
      const imported = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        try {
          return await services.imports.importFile(options.merchant, file, onProgress);
        } finally {
          await services.catalog.close();
        }
      });
      if (imported.unembedded) {
        err(`warning: ${imported.unembedded} products have no search vector (${imported.embedderError}); they are found by keywords until \`catalog reindex\``);
      }
      result({ merchant: options.merchant, imported: imported.imported, unembedded: imported.unembedded, seconds: Number(seconds(started)) }, () =>
        out(`imported ${imported.imported} products for merchant ${options.merchant} from ${file} in ${seconds(started)} s`),
      );
    });
  catalog
    .command('reindex')
    .description('rebuild the search index from the database (vectors are embedded only where missing or stale); running gateways reload')
    .option('--merchant <id>', 'only this merchant')
    .action(async (options: { merchant?: string }) => {
      const started = Date.now();
      const stats = await withDatabase(async (_db, services) => {
        if (options.merchant) await requireMerchants(services, [options.merchant]);
        try {
          return await services.catalog.searchIndex.reindex(options.merchant ? [options.merchant] : undefined);
        } finally {
          await services.catalog.close();
        }
      });
      if (stats.unembedded) {
        err(`warning: ${stats.unembedded} products still have no search vector (${stats.embedderError ?? 'the embedder failed'}); they are found by keywords until \`catalog reindex\` succeeds`);
      }
      const engine = `${stats.embedded} embedded now, the rest from stored vectors; ${stats.unembedded} without vectors`;
      if (io().json) return outJson({ merchants: stats.merchants, products: stats.products, embedded: stats.embedded, unembedded: stats.unembedded, seconds: Number(seconds(started)) });
      out(`reindexed ${stats.products} products of ${stats.merchants} merchant${stats.merchants === 1 ? '' : 's'} (${engine}) in ${seconds(started)} s`);
    });
  feedCommands(catalog);
}
