import { readFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { requireMerchants } from '../merchants-exist.js';
import { out, result, UsageError } from '../output.js';
import { withDatabase } from '../with-database.js';

export function shippingCommand(program: Command): void {
  const shipping = program.command('shipping').description('manage merchants\' shipping profiles (zones, methods, prices)');
  shipping
    .command('import')
    .description('replace a merchant\'s shipping profile with a JSON document ({"zones":[…]}, docs/operating.md); all or nothing')
    .argument('<file>')
    .requiredOption('--merchant <id>', 'merchant id (must exist: merchants create)')
    .action(async (file: string, options: { merchant: string }) => {
      if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`no file ${file}`);
      let document: unknown;
      try {
        document = JSON.parse(await readFile(file, 'utf8'));
      } catch (error) {
        throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
      }
      const profile = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        return services.shipping.import(options.merchant, document);
      });
      const methods = profile.zones.reduce((sum, zone) => sum + zone.methods.length, 0);
      result({ merchant: options.merchant, zones: profile.zones.length, methods }, () => out(`imported a shipping profile of ${profile.zones.length} zones and ${methods} methods for merchant ${options.merchant}`));
    });
  shipping
    .command('export')
    .description('print a merchant\'s shipping profile as the JSON document import reads; `null` when it has none (the flat rate of the settings applies)')
    .requiredOption('--merchant <id>', 'merchant id')
    .action(async (options: { merchant: string }) => {
      const document = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        return services.shipping.export(options.merchant);
      });
      out(JSON.stringify(document, null, 2));
    });
  shipping
    .command('remove')
    .description('remove a merchant\'s shipping profile: it ships at the flat rate of the settings again')
    .requiredOption('--merchant <id>', 'merchant id')
    .action(async (options: { merchant: string }) => {
      const removed = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        return services.shipping.remove(options.merchant);
      });
      if (!removed) throw new UsageError(`merchant ${options.merchant} has no shipping profile (it ships at the flat rate of the settings)`);
      result({ merchant: options.merchant, removed: true }, () => out(`removed the shipping profile of merchant ${options.merchant}; it ships at the flat rate of the settings`));
    });
}
