import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { randomBase62 } from '../../auth/api-key.js';
import { out, UsageError } from '../output.js';
import { withDatabase } from '../with-database.js';

function httpUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // fall through
  }
  throw new UsageError(`--url must be an http(s) URL, not ${JSON.stringify(raw)}`);
}

export function webhooksCommand(program: Command): void {
  const webhooks = program.command('webhooks').description('manage where merchants\' automatic events go');
  webhooks
    .command('add-endpoint')
    .description('add an endpoint for a merchant\'s automatic events; prints its signing secret on the last line')
    .requiredOption('--merchant <id>', 'merchant id')
    .requiredOption('--url <url>', 'http(s) URL that receives the events', httpUrl)
    .action(async (options: { merchant: string; url: string }) => {
      const endpoint = await withDatabase(async (db) => {
        const merchant = await db.prisma.merchant.findUnique({ where: { id: options.merchant } });
        if (!merchant) throw new UsageError(`no merchant ${JSON.stringify(options.merchant)}`);
        return db.prisma.webhookEndpoint.create({
          data: {
            id: `we_${randomBase62(16)}`,
            merchantId: options.merchant,
            url: options.url,
            secret: `whsec_${randomBytes(32).toString('base64url')}`,
          },
        });
      });
      out(`id: ${endpoint.id}`);
      out(`url: ${endpoint.url}`);
      out(endpoint.secret);
    });
}
