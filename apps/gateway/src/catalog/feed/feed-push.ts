/**
 * `catalog push-feed`: publishes a merchant's catalog to an agent's Feed API by incremental
 * upserts (rfc.product_feeds.md §3.4, §4.1). The first push to a target creates the feed
 * (`POST /feeds`) and sends every product; the database keeps, per merchant and target URL,
 * the feed id and a hash of each product as the target accepted it (feed_targets,
 * feed_target_products), so a later push sends only products that are new or changed, plus —
 * once — each product deleted from the catalog since, with every variant `discontinued`
 * (PATCH cannot delete). Products go in batches (`PATCH /feeds/{id}/products`); a batch is
 * recorded as pushed only once the target accepted it, so an interrupted push resumes where it
 * stopped. The catalog is read page by page, never whole.
 */
import { StorefrontUrls } from '../../storefront/storefront-urls.js';
import { parseFeedApiUrl, type FeedApiClient } from './feed-api-client.js';
import { UnknownMerchantError, type FeedProgress } from './feed-export.js';
import { discontinued, toFeedProduct, type FeedProduct } from './feed-product.js';
import { productHash, type FeedStore, type PushedProduct } from './feed-store.js';

export interface FeedPushOptions {
  merchantId: string;
  /** The Feed API's base URL (the state is kept per merchant and this URL). */
  targetUrl: string;
  targetCountry?: string | undefined;
  storefrontUrl?: string | undefined;
  /** Products per PATCH. */
  batchSize?: number;
  /** Forget the feed created earlier on this target and create a new one (a full push). */
  newFeed?: boolean;
  onProgress?: ((progress: FeedProgress) => void) | undefined;
  now?: () => Date;
}

export interface FeedPushResult {
  feedId: string;
  created: boolean;
  /** Products sent (new or changed). */
  sent: number;
  unchanged: number;
  /** Products gone from the catalog, sent once as discontinued. */
  discontinued: number;
  batches: number;
}

/** The target URL as the state is keyed: no trailing slash, no fragment (and never credentials: refused, as the client does). */
export function normalizeTargetUrl(raw: string): string {
  const url = parseFeedApiUrl(raw);
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

export async function pushFeed(store: FeedStore, client: FeedApiClient, options: FeedPushOptions): Promise<FeedPushResult> {
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 100;
  const merchant = await store.merchant(options.merchantId);
  if (!merchant) throw new UnknownMerchantError(`no merchant ${JSON.stringify(options.merchantId)}`);
  const url = normalizeTargetUrl(options.targetUrl);

  let target = options.newFeed ? null : await store.findTarget(merchant.id, url);
  const created = !target;
  if (!target) {
    const feed = await client.createFeed(options.targetCountry);
    target = await store.saveTarget(merchant.id, url, feed.id, options.targetCountry ?? null);
  }
  const targetId = target.id;
  const feedId = target.feedId;
  const pushed = await store.pushedHashes(targetId);
  const context = { sellerName: merchant.name, urls: options.storefrontUrl ? new StorefrontUrls(options.storefrontUrl, merchant.id) : undefined };
  const result: FeedPushResult = { feedId, created, sent: 0, unchanged: 0, discontinued: 0, batches: 0 };

  let batch: PushedProduct[] = [];
  const flush = async () => {
    if (!batch.length) return;
    await client.upsertProducts(feedId, batch.map((p) => p.body));
    await store.saveAccepted(targetId, batch, now());
    result.batches++;
    batch = [];
  };
  const queue = async (product: FeedProduct) => {
    batch.push({ productId: product.id, hash: productHash(product), body: product });
    if (batch.length >= batchSize) await flush();
  };

  const total = await store.countProducts(merchant.id);
  let done = 0;
  options.onProgress?.({ done, total });
  for await (const page of store.productPages(merchant.id)) {
    for (const row of page) {
      const product = toFeedProduct(row, context);
      const hash = productHash(product);
      const before = pushed.get(product.id);
      pushed.delete(product.id); // what is left at the end is gone from the catalog
      if (before === hash) result.unchanged++;
      else {
        result.sent++;
        await queue(product);
      }
    }
    done += page.length;
    options.onProgress?.({ done, total: Math.max(total, done) });
  }

  const gone = [...pushed.keys()];
  for (let i = 0; i < gone.length; i += 500) {
    for (const last of await store.pushedBodies(targetId, gone.slice(i, i + 500))) {
      const tombstone = discontinued(last);
      if (productHash(tombstone) === pushed.get(last.id)) continue; // already sent as discontinued
      result.discontinued++;
      await queue(tombstone);
    }
  }
  await flush();
  if (!result.batches) await store.touch(targetId, now());
  return result;
}
