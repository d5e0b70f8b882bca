/**
 * `catalog export --format acp-feed`: the offline full-replacement form of an ACP product feed
 * (rfc.product_feeds.md §3.4) — `metadata.json` (FeedMetadata) and `products.jsonl` (one Product
 * a line) — streamed page by page to disk, never holding the catalog in memory. Files are
 * written under temporary names and renamed at the end, so a failed export leaves no half feed.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StorefrontUrls } from '../../storefront/storefront-urls.js';
import { toFeedProduct } from './feed-product.js';
import type { FeedStore } from './feed-store.js';

export interface FeedProgress {
  done: number;
  total: number;
}

export interface FeedExportOptions {
  merchantId: string;
  outDir: string;
  /** FeedMetadata.id; `feed_<merchant id>` by default. */
  feedId?: string | undefined;
  /** FeedMetadata.target_country (ISO 3166-1 alpha-2). */
  targetCountry?: string | undefined;
  /** Storefront base for product and variant URLs (may hold `{merchant_id}`); no URLs without it. */
  storefrontUrl?: string | undefined;
  onProgress?: ((progress: FeedProgress) => void) | undefined;
  now?: Date;
}

export interface FeedExportResult {
  products: number;
  variants: number;
  metadataPath: string;
  productsPath: string;
}

export class UnknownMerchantError extends Error {
  override name = 'UnknownMerchantError';
}

export async function exportFeed(store: FeedStore, options: FeedExportOptions): Promise<FeedExportResult> {
  const merchant = await store.merchant(options.merchantId);
  if (!merchant) throw new UnknownMerchantError(`no merchant ${JSON.stringify(options.merchantId)}`);
  await mkdir(options.outDir, { recursive: true });
  const productsPath = join(options.outDir, 'products.jsonl');
  const metadataPath = join(options.outDir, 'metadata.json');
  const partial = `${productsPath}.partial`;
  const context = {
    sellerName: merchant.name,
    urls: options.storefrontUrl ? new StorefrontUrls(options.storefrontUrl, merchant.id) : undefined,
  };
  const total = await store.countProducts(merchant.id);
  const out = createWriteStream(partial, { encoding: 'utf8' });
  const failed = once(out, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => {});
  let products = 0;
  let variants = 0;
  try {
    options.onProgress?.({ done: 0, total });
    for await (const page of store.productPages(merchant.id)) {
      let chunk = '';
      for (const row of page) {
        const product = toFeedProduct(row, context);
        variants += product.variants.length;
        chunk += `${JSON.stringify(product)}\n`;
      }
      products += page.length;
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
      options.onProgress?.({ done: products, total: Math.max(total, products) });
    }
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
  const metadata = {
    id: options.feedId ?? `feed_${merchant.id}`,
    ...(options.targetCountry ? { target_country: options.targetCountry } : {}),
    updated_at: (options.now ?? new Date()).toISOString(),
  };
  await rename(partial, productsPath);
  await writeFile(metadataPath, `${JSON.stringify(metadata, null, 2)}\n`);
  return { products, variants, metadataPath, productsPath };
}
