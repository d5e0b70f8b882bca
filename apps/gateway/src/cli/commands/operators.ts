import type { Command } from 'commander';
import { OPERATOR_PREFIX } from '../../admin/operator-token.js';
import type { OperatorAccess } from '../../admin/operator.js';
import { out, UsageError } from '../output.js';
import { choice, list } from '../parse.js';
import { withDatabase } from '../with-database.js';

interface CreateOptions {
  name: string;
  access: OperatorAccess;
  merchant?: string[];
  allMerchants?: boolean;
}

/** Merchant ids from repeated and comma-separated `--merchant`s. */
const merchants = (raw: string, previous: string[] = []): string[] => [...previous, ...list(raw)];

/** `gateway operators create|list|revoke`: the credentials of the admin API (`Authorization: Bearer op_…`). */
export function operatorsCommand(program: Command): void {
  const operators = program.command('operators').description('create, list and revoke operator credentials of the admin API (/admin)');

  operators
    .command('create')
    .description('create an operator credential; prints its id, then the credential alone on the last line (shown once)')
    .requiredOption('--name <name>', 'who or what uses it, e.g. "alice" or "support console"')
    .requiredOption('--access <access>', 'read (reads only) | full (reads and writes)', choice('--access', ['read', 'full'] as const))
    .option('--merchant <ids>', 'a merchant it serves (repeat, or comma-separate, for several)', merchants)
    .option('--all-merchants', 'serve every merchant, present and future')
    .action(async (options: CreateOptions) => {
      if (Boolean(options.allMerchants) === Boolean(options.merchant?.length)) throw new UsageError('give --merchant ID (one or more) or --all-merchants: one of the two');
      const { operator, token } = await withDatabase((_db, services) =>
        services.admin.operators.create({ name: options.name, access: options.access, merchantIds: options.merchant ?? [], allMerchants: Boolean(options.allMerchants) }),
      );
      out(`id: ${operator.id}`);
      out(`access: ${operator.access}`);
      out(`merchants: ${operator.allMerchants ? '*' : operator.merchantIds.join(',')}`);
      out(token);
    });

  operators
    .command('list')
    .description('list operator credentials (never the credentials themselves)')
    .action(async () => {
      const records = await withDatabase((_db, services) => services.admin.operators.list());
      if (records.length === 0) return out('no operator credentials');
      for (const o of records) {
        out(
          [
            o.id,
            `${OPERATOR_PREFIX}…${o.last4}`,
            `name=${JSON.stringify(o.name)}`,
            `access=${o.access}`,
            `merchants=${o.allMerchants ? '*' : o.merchantIds.join(',')}`,
            `created=${o.createdAt.toISOString()}`,
            o.revokedAt ? `revoked=${o.revokedAt.toISOString()}` : 'active',
          ].join('  '),
        );
      }
    });

  operators
    .command('revoke')
    .description('revoke an operator credential by its id; takes effect on the next request')
    .argument('<operator-id>')
    .action(async (id: string) => {
      const found = await withDatabase((_db, services) => services.admin.operators.revoke(id));
      if (!found) throw new UsageError(`no operator credential ${JSON.stringify(id)} (see \`operators list\`)`);
      out(`revoked ${id}`);
    });
}
