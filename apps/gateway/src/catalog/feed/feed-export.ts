/**
 * `catalog export --format acp-feed`: the offline full-replacement form of an ACP product feed
 * (rfc.product_feeds.md §3.4) — `metadata.json` (FeedMetadata) and `products.jsonl` (one Product
 * a line) — streamed page by page to disk, never holding the catalog in memory.
 *
 * Each file is written to a new temporary file in the same directory (a random hidden name,
 * created exclusively: never an existing file, nor a symlink planted there) and renamed into
 * place once both are complete. A rename replaces the directory entry itself: a symlink at
 * DIR/products.jsonl or DIR/metadata.json is replaced by the new file, and whatever it pointed
 * at is left untouched. A failed export removes its temporary files and leaves the previous feed
 * as it was; a target that is a directory (or anything but a file or a symlink) is refused
 * before the catalog is read. Only a process killed outright can leave a `.*.tmp` file behind —
 * never a half-written feed file.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
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

/** A feed file cannot be put where it belongs (e.g. a directory is in the way). */
export class FeedOutputError extends Error {
  override name = 'FeedOutputError';
}

/** Refuses a target path that a rename could not (or should not) replace: anything but a file or a symlink. */
async function replaceable(path: string): Promise<void> {
  const stat = await lstat(path).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
  if (stat && !stat.isFile() && !stat.isSymbolicLink()) throw new FeedOutputError(`${path} exists and is not a file; the feed is not written over it`);
}

/** A fresh name beside `path`: `.products.jsonl.<random>.tmp`. */
const temporaryName = (path: string) => join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);

export async function exportFeed(store: FeedStore, options: FeedExportOptions): Promise<FeedExportResult> {
  const merchant = await store.merchant(options.merchantId);
  if (!merchant) throw new UnknownMerchantError(`no merchant ${JSON.stringify(options.merchantId)}`);
  await mkdir(options.outDir, { recursive: true });
  const productsPath = join(options.outDir, 'products.jsonl');
  const metadataPath = join(options.outDir, 'metadata.json');
  await replaceable(productsPath);
  await replaceable(metadataPath);
  const productsTemp = temporaryName(productsPath);
  const metadataTemp = temporaryName(metadataPath);
  const context = {
    sellerName: merchant.name,
    urls: options.storefrontUrl ? new StorefrontUrls(options.storefrontUrl, merchant.id) : undefined,
  };
  const total = await store.countProducts(merchant.id);
  // 'wx': created here and now, or an error — never opened through a symlink or over a file.
  const out = createWriteStream(productsTemp, { encoding: 'utf8', flags: 'wx' });
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
    const metadata = {
      id: options.feedId ?? `feed_${merchant.id}`,
      ...(options.targetCountry ? { target_country: options.targetCountry } : {}),
      updated_at: (options.now ?? new Date()).toISOString(),
    };
    await writeFile(metadataTemp, `${JSON.stringify(metadata, null, 2)}\n`, { flag: 'wx' });
    await rename(productsTemp, productsPath);
    await rename(metadataTemp, metadataPath);
  } catch (error) {
    // Closed first: a stream destroyed while its file is still being opened creates it after an earlier rm.
    // Writes still buffered fail with the destroy (an 'error' event): the caller is told the first failure.
    out.on('error', () => {});
    const closed = out.closed ? Promise.resolve() : new Promise<void>((resolve) => out.once('close', () => resolve()));
    out.destroy();
    await closed;
    await Promise.all([rm(productsTemp, { force: true }), rm(metadataTemp, { force: true })]);
    throw error;
  }
  return { products, variants, metadataPath, productsPath };
}
