import { existsSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import type { ErasureCounts } from '../../customers/customer-service.js';
import { OutputFileError, replaceFile } from '../../kernel/files/replace-file.js';
import { requireMerchants } from '../merchants-exist.js';
import { io, out, outJson, result, UsageError } from '../output.js';
import { withDatabase } from '../with-database.js';

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** What an erasure took out, in one line. */
function erasureSummary(counts: ErasureCounts): string {
  return [
    plural(counts.customers, 'customer'),
    plural(counts.addresses, 'saved address', 'saved addresses'),
    `${plural(counts.checkoutSessions, 'checkout session')} cleared (${plural(counts.orders, 'order')} kept with their totals)`,
    `${plural(counts.webhookEvents, 'webhook event')} scrubbed`,
    `${plural(counts.idempotentResponses, 'stored idempotent response')} deleted`,
    `${plural(counts.discountRedemptions, 'discount use')} anonymized`,
  ].join(', ');
}

interface BuyerOptions {
  email?: string;
  customer?: string;
  merchant: string;
}

/** The buyer a data-subject command names: by email or by customer id, exactly one. */
function oneBuyer({ email, customer }: BuyerOptions): { email: string } | { customerId: string } {
  if ((email === undefined) === (customer === undefined)) throw new UsageError('name the buyer with --email or --customer (one of them)');
  return email !== undefined ? { email } : { customerId: customer! };
}

export function customersCommand(program: Command): void {
  const customers = program.command('customers').description('manage merchants\' customers: saved buyers and addresses, data-subject export and erasure (docs/operating.md, "Customers")');
  customers
    .command('import')
    .description('add or update customers (by email) and their addresses (by id when given, else unless an equal one is saved) from NDJSON or a JSON array; every record is checked first, all or nothing')
    .argument('<file>')
    .requiredOption('--merchant <id>', 'merchant id (must exist: merchants create)')
    .action(async (file: string, options: { merchant: string }) => {
      if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`no file ${file}`);
      const { customers: count, addresses } = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        return services.customers.importFile(options.merchant, file);
      });
      result({ merchant: options.merchant, customers: count, addresses }, () => out(`imported ${plural(count, 'customer')} and ${plural(addresses, 'address', 'addresses')} for merchant ${options.merchant} from ${file}`));
    });
  customers
    .command('export')
    .description('write every customer of the merchant as NDJSON (address ids kept; import takes it back)')
    .requiredOption('--merchant <id>', 'merchant id')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (options: { merchant: string; out?: string }) => {
      const records = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        return services.customers.export(options.merchant);
      });
      const lines = records.map((record) => JSON.stringify(record));
      if (options.out === undefined) {
        if (io().json) return outJson(records);
        for (const line of lines) out(line);
        return;
      }
      // Private (0600), through a temporary file renamed into place: a symlink at --out is replaced, never followed.
      await replaceFile(options.out, lines.map((line) => `${line}\n`).join(''), 'the export').catch((error: unknown) => {
        throw error instanceof OutputFileError ? new UsageError(error.message) : error;
      });
      result({ merchant: options.merchant, customers: records.length, file: options.out }, () => out(`exported ${plural(records.length, 'customer')} of merchant ${options.merchant} to ${options.out}`));
    });
  customers
    .command('show')
    .description('print everything the merchant holds of a buyer as JSON (a data-subject export): the customer, consents, addresses and orders of every protocol')
    .option('--email <email>', 'the customer\'s email (any case)')
    .option('--customer <id>', 'the customer\'s id (as the admin API and orders name it), instead of --email')
    .requiredOption('--merchant <id>', 'merchant id')
    .action(async (options: BuyerOptions) => {
      const buyer = oneBuyer(options);
      const data = await withDatabase((_db, services) =>
        'email' in buyer ? services.customers.exportData(options.merchant, buyer.email) : services.customers.exportCustomer(options.merchant, buyer.customerId));
      out(JSON.stringify(data, null, 2));
    });
  customers
    .command('erase')
    .description('erase a buyer from the merchant in one transaction, whichever protocol they bought through (our API, ACP, UCP, MCP): the customer and addresses deleted, the buyer\'s details cleared from checkout sessions, webhook events, idempotent responses and discount uses; orders keep their totals; prints what it removed')
    .option('--email <email>', 'the customer\'s email (any case)')
    .option('--customer <id>', 'the customer\'s id (as the admin API and orders name it), instead of --email')
    .requiredOption('--merchant <id>', 'merchant id')
    .action(async (options: BuyerOptions) => {
      const buyer = oneBuyer(options);
      const counts = await withDatabase((_db, services) =>
        'email' in buyer ? services.customers.erase(options.merchant, buyer.email) : services.customers.eraseCustomer(options.merchant, buyer.customerId));
      const who = 'email' in buyer ? buyer.email.trim().toLowerCase() : buyer.customerId;
      result({ merchant: options.merchant, ...('email' in buyer ? { email: who } : { customer_id: who }), erased: counts }, () => out(`erased ${who} from merchant ${options.merchant}: ${erasureSummary(counts)}`));
    });
}
