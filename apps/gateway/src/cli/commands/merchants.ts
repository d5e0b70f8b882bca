import type { Command } from 'commander';
import { isMerchantId } from '../../merchants/merchant-service.js';
import { out, result, UsageError } from '../output.js';
import { table } from '../table.js';
import { withDatabase } from '../with-database.js';

export function merchantsCommand(program: Command): void {
  const merchants = program.command('merchants').description('create and list merchants (every other command refuses a --merchant that does not exist)');
  merchants
    .command('create')
    .description('create one or more merchants')
    .argument('<ids...>', 'merchant id(s): letters, digits, _ . - (up to 100)')
    .option('--name <name>', 'display name (one merchant only; default: the id)')
    .action(async (ids: string[], options: { name?: string }) => {
      const bad = ids.find((id) => !isMerchantId(id));
      if (bad !== undefined) throw new UsageError(`merchant id ${JSON.stringify(bad)} must be 1 to 100 letters, digits, _ . or -, starting with a letter or digit`);
      if (options.name !== undefined && ids.length > 1) throw new UsageError('--name names one merchant: create them one at a time');
      await withDatabase(async (_db, services) => {
        const missing = new Set(await services.merchants.missing(ids));
        const taken = ids.filter((id) => !missing.has(id));
        if (taken.length) throw new UsageError(`merchant ${taken.map((id) => JSON.stringify(id)).join(', ')} exists already: nothing created`);
        for (const id of ids) await services.merchants.create(id, options.name ?? id);
      });
      result({ created: ids }, () => out(`created merchant${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`));
    });
  merchants
    .command('list')
    .description('list merchants with their counts of products and API keys')
    .action(async () => {
      const records = await withDatabase((_db, services) => services.merchants.list());
      result(
        records.map((m) => ({ id: m.id, name: m.name, products: m.products, api_keys: m.apiKeys, created_at: m.createdAt.toISOString() })),
        () => (records.length ? table(['ID', 'NAME', 'PRODUCTS', 'KEYS', 'CREATED'], records.map((m) => [m.id, m.name, String(m.products), String(m.apiKeys), m.createdAt.toISOString()])) : out('no merchants')),
      );
    });
}
