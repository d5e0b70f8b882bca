/**
 * `catalog export --format acp-feed`: the offline full-replacement form of an ACP product feed
 * (rfc.product_feeds.md §3.4) — `metadata.json` (FeedMetadata) and `products.jsonl` (one Product
 * a line) — streamed page by page to disk, never holding the catalog in memory.
 *
 * Each file is written as src/kernel/files/replace-file.ts writes an operator's file: to a private
 * (0600) temporary file created exclusively beside it, renamed into place once both are complete —
 * a symlink planted at DIR/products.jsonl or DIR/metadata.json is replaced, never followed. A failed
 * export removes its temporary files and leaves the previous feed as it was; a target that is a
 * directory (or anything but a file or a symlink) is refused before the catalog is read.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { assertReplaceable, beginReplacement, type FileReplacement } from '../../kernel/files/replace-file.js';
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
  await assertReplaceable(metadataPath, 'the feed');
  const context = {
    sellerName: merchant.name,
    urls: options.storefrontUrl ? new StorefrontUrls(options.storefrontUrl, merchant.id) : undefined,
  };
  const total = await store.countProducts(merchant.id);
  const out = await beginReplacement(productsPath, 'the feed');
  let metadataFile: FileReplacement | undefined;
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
      await out.write(chunk);
      options.onProgress?.({ done: products, total: Math.max(total, products) });
    }
    await out.finish();
    const metadata = {
      id: options.feedId ?? `feed_${merchant.id}`,
      ...(options.targetCountry ? { target_country: options.targetCountry } : {}),
      updated_at: (options.now ?? new Date()).toISOString(),
    };
    metadataFile = await beginReplacement(metadataPath, 'the feed');
    await metadataFile.write(`${JSON.stringify(metadata, null, 2)}\n`);
    await metadataFile.finish();
    await out.commit();
    await metadataFile.commit();
  } catch (error) {
    await Promise.all([out.abort(), metadataFile?.abort()]);
    throw error;
  }
  return { products, variants, metadataPath, productsPath };
}
