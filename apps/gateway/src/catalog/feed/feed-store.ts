/**
 * The product feed's only access to the database: the catalog in pages (keyset on id,
 * never the whole catalog at once) and, per merchant and Feed API, what was last pushed.
 */
import { createHash } from 'node:crypto';
import type { Prisma } from '../../db/database.js';
import { newId } from '../../ids.js';
import type { CatalogRow, FeedProduct } from './feed-product.js';

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
  constructor(private readonly prisma: Prisma) {}

  async merchant(merchantId: string): Promise<{ id: string; name: string } | null> {
    return this.prisma.merchant.findUnique({ where: { id: merchantId }, select: { id: true, name: true } });
  }

  countProducts(merchantId: string): Promise<number> {
    return this.prisma.product.count({ where: { merchantId } });
  }

  /** Every product of the merchant, in id order, `pageSize` at a time with variants and images. */
  async *productPages(merchantId: string, pageSize = 500): AsyncGenerator<CatalogRow[]> {
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
      yield page as CatalogRow[];
      if (page.length < pageSize) return;
      after = page.at(-1)!.id;
    }
  }

  findTarget(merchantId: string, url: string): Promise<FeedTargetRow | null> {
    return this.prisma.feedTarget.findUnique({ where: { merchantId_url: { merchantId, url } } });
  }

  /** Records the feed just created on the target; replaces (and forgets the state of) an earlier one. */
  async saveTarget(merchantId: string, url: string, feedId: string, targetCountry: string | null): Promise<FeedTargetRow> {
    return this.prisma.$transaction(async (tx) => {
      await tx.feedTarget.deleteMany({ where: { merchantId, url } });
      return tx.feedTarget.create({ data: { id: newId('ft'), merchantId, url, feedId, targetCountry } });
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
    await this.prisma.$transaction([
      this.prisma.feedTargetProduct.deleteMany({ where: { targetId, productId: { in: products.map((p) => p.productId) } } }),
      this.prisma.feedTargetProduct.createMany({
        data: products.map((p) => ({ targetId, productId: p.productId, hash: p.hash, body: p.body as object, pushedAt: at })),
      }),
      this.prisma.feedTarget.update({ where: { id: targetId }, data: { lastPushedAt: at } }),
    ]);
  }

  async touch(targetId: string, at: Date): Promise<void> {
    await this.prisma.feedTarget.update({ where: { id: targetId }, data: { lastPushedAt: at } });
  }
}
