import { existsSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { requireMerchants } from '../merchants-exist.js';
import { io, out, outJson, result, UsageError } from '../output.js';
import { withDatabase } from '../with-database.js';

export function discountsCommand(program: Command): void {
  const discounts = program.command('discounts').description('manage merchants\' discount codes and promotions (docs/operating.md, "Discounts")');
  discounts
    .command('import')
    .description('add or replace codes (by code) and promotions (by id) from NDJSON or a JSON array; every record is checked first, all or nothing')
    .argument('<file>')
    .requiredOption('--merchant <id>', 'merchant id (must exist: merchants create)')
    .action(async (file: string, options: { merchant: string }) => {
      if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`no file ${file}`);
      const { codes, promotions } = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        return services.discounts.importFile(options.merchant, file);
      });
      result({ merchant: options.merchant, codes, promotions }, () => out(`imported ${codes} code${codes === 1 ? '' : 's'} and ${promotions} promotion${promotions === 1 ? '' : 's'} for merchant ${options.merchant} from ${file}`));
    });
  discounts
    .command('export')
    .description('print the merchant\'s codes and promotions as NDJSON, as they were imported (import takes the output back)')
    .requiredOption('--merchant <id>', 'merchant id')
    .action(async (options: { merchant: string }) => {
      const records = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        return services.discounts.export(options.merchant);
      });
      if (io().json) return outJson(records);
      for (const record of records) out(JSON.stringify(record));
    });
  discounts
    .command('remove')
    .description('remove a code (case-insensitively, with its redemption count) or a promotion; orders keep the discounts they were given')
    .requiredOption('--merchant <id>', 'merchant id')
    .option('--code <code>', 'the discount code')
    .option('--promotion <id>', 'the promotion id')
    .action(async (options: { merchant: string; code?: string; promotion?: string }) => {
      if ((options.code === undefined) === (options.promotion === undefined)) throw new UsageError('name what to remove: --code CODE or --promotion ID (one of the two)');
      const what = options.code !== undefined ? { code: options.code } : { promotionId: options.promotion! };
      const removed = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        return services.discounts.remove(options.merchant, what);
      });
      const name = options.code !== undefined ? `code ${JSON.stringify(options.code)}` : `promotion ${JSON.stringify(options.promotion)}`;
      if (!removed) throw new UsageError(`merchant ${options.merchant} has no ${name}`);
      result({ merchant: options.merchant, removed }, () => out(`removed ${name} of merchant ${options.merchant}`));
    });
}
