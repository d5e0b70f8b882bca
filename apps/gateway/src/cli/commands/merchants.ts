import type { Command } from 'commander';
import { isMerchantId } from '../../merchants/merchant-service.js';
import { isStripeAccountId, type MerchantPayments } from '../../merchants/merchant-payment-accounts.js';
import { requireMerchants } from '../merchants-exist.js';
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
        records.map((m) => ({ id: m.id, name: m.name, products: m.products, api_keys: m.apiKeys, stripe_account_id: m.stripeAccountId, created_at: m.createdAt.toISOString() })),
        () => (records.length ? table(['ID', 'NAME', 'PRODUCTS', 'KEYS', 'CREATED'], records.map((m) => [m.id, m.name, String(m.products), String(m.apiKeys), m.createdAt.toISOString()])) : out('no merchants')),
      );
    });
  merchants
    .command('payments')
    .description("show or set the Stripe connected account a merchant's payments go to (PAYMENT_PROVIDER=stripe; docs/payments.md)")
    .argument('<merchant>', 'merchant id')
    .option('--stripe-account <acct>', "connect the merchant's Stripe account (acct_…, Dashboard → Connect → Accounts)")
    .option('--none', 'disconnect it: the merchant then cannot take payments')
    .action(async (merchantId: string, options: { stripeAccount?: string; none?: boolean }) => {
      if (options.stripeAccount !== undefined && options.none) throw new UsageError('give --stripe-account or --none, not both');
      if (options.stripeAccount !== undefined && !isStripeAccountId(options.stripeAccount)) {
        throw new UsageError(`--stripe-account ${JSON.stringify(options.stripeAccount)} is not a Stripe account id: give the connected account's acct_…`);
      }
      const change = options.none ? null : options.stripeAccount;
      const payments = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [merchantId]);
        return change === undefined ? services.paymentAccounts.show(merchantId) : services.paymentAccounts.set(merchantId, change);
      });
      result({ merchant_id: payments.merchantId, stripe_account_id: payments.stripeAccountId }, () => out(describePayments(payments)));
    });
}

function describePayments({ merchantId, stripeAccountId }: MerchantPayments): string {
  return stripeAccountId
    ? `merchant ${merchantId} takes payments into Stripe account ${stripeAccountId}`
    : `merchant ${merchantId} has no Stripe account and cannot take payments (connect one: gateway merchants payments ${merchantId} --stripe-account acct_…)`;
}
