/**
 * The product feed's only access to the database: the catalog in pages (keyset on id,
 * never the whole catalog at once) and, per merchant and Feed API, what was last pushed.
 */
import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { utc } from '../../db/sql-time.js';
import { sql } from '../../db/statement.js';
import { newId } from '../../kernel/ids.js';
import type { ProductRecord } from '../product-record.js';
import type { FeedProduct } from './feed-product.js';

export interface FeedTargetRow {
  id: string;
  merchantId: string;
  url: string;
  feedId: string;
  targetCountry: string | null;
}

export interface PushedProduct {
  productId: string;
  hash: string;
  body: FeedProduct;
}

/** SHA-256 of the JSON the product is sent as: equal hashes, nothing to send. */
export const productHash = (product: FeedProduct) => createHash('sha256').update(JSON.stringify(product)).digest('hex');

export class FeedStore {
  private readonly prisma: Database['prisma'];

  constructor(private readonly db: Pick<Database, 'prisma' | 'transaction'>) {
    this.prisma = db.prisma;
  }

  async merchant(merchantId: string): Promise<{ id: string; name: string } | null> {
    return this.prisma.merchant.findUnique({ where: { id: merchantId }, select: { id: true, name: true } });
  }

  countProducts(merchantId: string): Promise<number> {
    return this.prisma.product.count({ where: { merchantId } });
  }

  /** Every product of the merchant, in id order, `pageSize` at a time with variants and images. */
  async *productPages(merchantId: string, pageSize = 500): AsyncGenerator<ProductRecord[]> {
    let after: string | undefined;
    for (;;) {
      const page = await this.prisma.product.findMany({
        where: { merchantId, ...(after === undefined ? {} : { id: { gt: after } }) },
        orderBy: { id: 'asc' },
        take: pageSize,
        include: { variants: true, images: true },
        omit: { embedding: true },
      });
      if (!page.length) return;
      yield page as ProductRecord[];
      if (page.length < pageSize) return;
      after = page.at(-1)!.id;
    }
  }

  findTarget(merchantId: string, url: string): Promise<FeedTargetRow | null> {
    return this.prisma.feedTarget.findUnique({ where: { merchantId_url: { merchantId, url } } });
  }

  /** Records the feed just created on the target; replaces (and forgets the state of) an earlier one. */
  async saveTarget(merchantId: string, url: string, feedId: string, targetCountry: string | null): Promise<FeedTargetRow> {
    const id = newId('ft');
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`DELETE FROM feed_targets WHERE merchant_id = ${merchantId} AND url = ${url}`);
      await tx.execute(sql`
        INSERT INTO feed_targets (id, merchant_id, url, feed_id, target_country, created_at)
        VALUES (${id}, ${merchantId}, ${url}, ${feedId}, ${targetCountry}::text, ${utc(new Date())})`);
      return { id, merchantId, url, feedId, targetCountry };
    });
  }

  /** productId → hash of what the target last accepted. */
  async pushedHashes(targetId: string): Promise<Map<string, string>> {
    const rows = await this.prisma.feedTargetProduct.findMany({ where: { targetId }, select: { productId: true, hash: true } });
    return new Map(rows.map((row) => [row.productId, row.hash]));
  }

  async pushedBodies(targetId: string, productIds: readonly string[]): Promise<FeedProduct[]> {
    const rows = await this.prisma.feedTargetProduct.findMany({ where: { targetId, productId: { in: [...productIds] } }, select: { body: true } });
    return rows.map((row) => row.body as unknown as FeedProduct);
  }

  /** Records a batch the target accepted. */
  async saveAccepted(targetId: string, products: readonly PushedProduct[], at: Date): Promise<void> {
    const rows = JSON.stringify(products.map((p) => ({ product_id: p.productId, hash: p.hash, body: JSON.stringify(p.body) })));
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`DELETE FROM feed_target_products WHERE target_id = ${targetId} AND product_id = ANY(${products.map((p) => p.productId)}::text[])`);
      // The body as the JSON text it was sent as (a json column keeps it byte for byte).
      await tx.execute(sql`
        INSERT INTO feed_target_products (target_id, product_id, hash, body, pushed_at)
        SELECT ${targetId}, r.product_id, r.hash, r.body::json, ${utc(at)} FROM jsonb_to_recordset(${rows}::jsonb) AS r(product_id text, hash text, body text)`);
      const updated = await tx.execute(sql`UPDATE feed_targets SET last_pushed_at = ${utc(at)} WHERE id = ${targetId}`);
      if (updated !== 1) throw new Error(`no feed target ${targetId}`);
    });
  }

  async touch(targetId: string, at: Date): Promise<void> {
    await this.prisma.feedTarget.update({ where: { id: targetId }, data: { lastPushedAt: at } });
  }
}
