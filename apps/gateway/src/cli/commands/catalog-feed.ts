/** `catalog export --format acp-feed` and `catalog push-feed`: ACP 2026-04-17 product feeds (catalog/feed/). */
import type { Command } from 'commander';
import { FeedApiClient, FeedApiError, FeedTargetError, parseFeedApiUrl } from '../../catalog/feed/feed-api-client.js';
import { UnknownMerchantError, type FeedProgress } from '../../catalog/feed/feed-export.js';
import { loadConfig } from '../../config/config.js';
import { feedApiToken } from '../../config/standalone-settings.js';
import { isStorefrontTemplate } from '../../config/storefront-template.js';
import { OutputFileError } from '../../kernel/files/replace-file.js';
import { err, out, UsageError } from '../output.js';
import { choice, positiveInt } from '../parse.js';
import { withDatabase } from '../with-database.js';
import { progressBar, seconds } from '../progress.js';

function baseUrl(raw: string): string {
  if (!isStorefrontTemplate(raw)) throw new UsageError(`--base-url must be an http(s) URL without query, e.g. https://shop.example, not ${JSON.stringify(raw)}`);
  return raw;
}

function country(raw: string): string {
  if (!/^[A-Za-z]{2}$/.test(raw)) throw new UsageError(`--country must be an ISO 3166-1 alpha-2 code such as US, not ${JSON.stringify(raw)}`);
  return raw.toUpperCase();
}

/**
 * The Feed API's base URL. One with credentials is refused first, in words that repeat neither
 * them nor the URL; no refusal echoes a URL holding an `@` (it may hold credentials that did
 * not parse as such).
 */
function feedApiUrl(raw: string): string {
  let url: URL | undefined;
  try {
    url = parseFeedApiUrl(raw);
  } catch (error) {
    if (error instanceof FeedTargetError && error.refused === 'credentials') {
      throw new UsageError(`--to ${error.message} — give it with --token or FEED_API_TOKEN`);
    }
  }
  if (url && !url.search) return raw;
  throw new UsageError(`--to must be the http(s) base URL of a Feed API (its /feeds is appended)${raw.includes('@') ? '' : `, not ${JSON.stringify(raw)}`}`);
}

function feedProgress(phase: string): ((p: FeedProgress) => void) | undefined {
  const bar = progressBar();
  return bar && (({ done, total }) => bar({ phase, done, total }));
}

/** Domain failures as one line for the operator. */
function asUsage(error: unknown, feedUrl?: string): unknown {
  if (error instanceof UnknownMerchantError || error instanceof OutputFileError) return new UsageError(error.message);
  if (error instanceof FeedTargetError) return new UsageError(`--to ${error.message}${error.refused === 'address' ? ' (WEBHOOK_ALLOW_PRIVATE_TARGETS is off)' : ''}`);
  if (error instanceof FeedApiError) {
    if (error.status === 404 && feedUrl && error.message.startsWith('PATCH ')) return new UsageError(`${error.message} — the feed is gone from ${feedUrl}; run again with --new-feed to create a new one`);
    return new UsageError(error.message);
  }
  return error;
}

export function feedCommands(catalog: Command): void {
  catalog
    .command('export')
    .description('write a merchant\'s catalog as an ACP 2026-04-17 product feed: DIR/metadata.json and DIR/products.jsonl (one Product a line)')
    .requiredOption('--format <format>', 'acp-feed', choice('--format', ['acp-feed'] as const))
    .requiredOption('--merchant <id>', 'merchant id')
    .requiredOption('--out <dir>', 'directory to write the two files to (created if missing)')
    .option('--base-url <url>', 'storefront base for product and variant URLs (default STOREFRONT_URL; none without either)', baseUrl)
    .option('--feed-id <id>', 'FeedMetadata.id (default feed_<merchant>)')
    .option('--country <code>', 'FeedMetadata.target_country, e.g. US', country)
    .action(async (options: { merchant: string; out: string; baseUrl?: string; feedId?: string; country?: string }) => {
      const started = Date.now();
      const result = await withDatabase(async (_db, services, config) =>
        services.feeds.export({
          merchantId: options.merchant,
          outDir: options.out,
          feedId: options.feedId,
          targetCountry: options.country,
          storefrontUrl: options.baseUrl ?? config.storefrontUrl,
          onProgress: feedProgress('exporting'),
        }).catch((error: unknown) => Promise.reject(asUsage(error))),
      );
      out(`exported ${result.products} products (${result.variants} variants) of merchant ${options.merchant} to ${result.productsPath} and ${result.metadataPath} in ${seconds(started)} s`);
    });
  catalog
    .command('push-feed')
    .description('create or update the merchant\'s feed on an agent\'s ACP Feed API (POST /feeds, PATCH /feeds/{id}/products); later pushes send only what changed')
    .requiredOption('--merchant <id>', 'merchant id')
    .requiredOption('--to <url>', 'the Feed API\'s base URL (…/feeds is appended)', feedApiUrl)
    .option('--token <token>', 'bearer token of the Feed API (default FEED_API_TOKEN)')
    .option('--country <code>', 'target_country of a feed created now, e.g. US', country)
    .option('--base-url <url>', 'storefront base for product and variant URLs (default STOREFRONT_URL)', baseUrl)
    .option('--batch-size <n>', 'products per PATCH (default 100)', positiveInt('--batch-size'))
    .option('--new-feed', 'forget the feed created earlier on this target: create a new one and send everything')
    .action(async (options: { merchant: string; to: string; token?: string; country?: string; baseUrl?: string; batchSize?: number; newFeed?: boolean }) => {
      const token = options.token ?? feedApiToken();
      if (!token) throw new UsageError('give the Feed API\'s bearer token with --token or FEED_API_TOKEN');
      const started = Date.now();
      const client = new FeedApiClient({
        baseUrl: options.to,
        token,
        // The webhooks' SSRF guard and its setting: off (private targets refused) but in development.
        allowPrivateTargets: loadConfig().webhookAllowPrivateTargets,
        onRetry: ({ attempt, waitMs, reason }) => err(`retrying after ${reason} (attempt ${attempt}) in ${(waitMs / 1000).toFixed(1)} s`),
      });
      // Refused before the database is opened; every request checks the address again.
      await client.checkTarget().catch((error: unknown) => Promise.reject(asUsage(error)));
      const result = await withDatabase(async (_db, services, config) =>
        services.feeds.push(client, {
          merchantId: options.merchant,
          targetUrl: options.to,
          targetCountry: options.country,
          storefrontUrl: options.baseUrl ?? config.storefrontUrl,
          batchSize: options.batchSize,
          newFeed: options.newFeed === true,
          onProgress: feedProgress('pushing'),
        }).catch((error: unknown) => Promise.reject(asUsage(error, options.to))),
      );
      const what = `${result.sent} sent (new or changed), ${result.unchanged} unchanged, ${result.discontinued} discontinued, ${result.batches} batch${result.batches === 1 ? '' : 'es'}`;
      out(`${result.created ? 'created' : 'updated'} feed ${result.feedId} at ${options.to}: ${what}, in ${seconds(started)} s`);
    });
}
