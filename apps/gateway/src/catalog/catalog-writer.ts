import type { Prisma } from '../db/database.js';
import type { Product } from '../contract-types.js';

type Tx = Parameters<Parameters<Prisma['$transaction']>[0]>[0];

export class SkuConflictError extends Error {
  constructor(
    readonly sku: string,
    readonly ownerId: string,
  ) {
    super(`variant sku ${JSON.stringify(sku)} already belongs to product ${JSON.stringify(ownerId)}`);
  }
}

/** Writes products inside one transaction: each batch replaces the products it names (upsert by id). */
export class CatalogWriter {
  constructor(
    private readonly tx: Tx,
    private readonly merchantId: string,
  ) {}

  async replace(products: readonly Product[]): Promise<void> {
    const merchantId = this.merchantId;
    const ids = products.map((p) => p.id);
    await this.tx.product.deleteMany({ where: { merchantId, id: { in: ids } } });
    const skus = products.flatMap((p) => p.variants.map((v) => v.sku));
    if (skus.length) {
      const taken = await this.tx.variant.findFirst({ where: { merchantId, sku: { in: skus } }, select: { sku: true, productId: true } });
      if (taken) throw new SkuConflictError(taken.sku, taken.productId);
    }
    await this.tx.product.createMany({
      data: products.map((p) => ({
        merchantId,
        id: p.id,
        title: p.title,
        description: p.description,
        vendor: p.vendor,
        category: p.category,
        price: p.price,
        currency: p.currency,
        tags: p.tags,
        attributes: p.attributes,
        quantity: p.availability.quantity,
        policy: p.availability.policy,
      })),
    });
    const variants = products.flatMap((p) =>
      p.variants.map((v, position) => ({
        merchantId,
        productId: p.id,
        sku: v.sku,
        position,
        title: v.title,
        price: v.price,
        currency: v.currency,
        requiresShipping: v.requires_shipping ?? null,
        taxable: v.taxable ?? null,
        weightGrams: v.weight_grams ?? null,
        weightUnit: v.weight_unit ?? null,
        attributes: v.attributes,
        quantity: v.inventory.quantity,
        policy: v.inventory.policy,
      })),
    );
    if (variants.length) await this.tx.variant.createMany({ data: variants });
    const images = products.flatMap((p) =>
      p.images.map((image, index) => ({
        merchantId,
        productId: p.id,
        position: image.position ?? index,
        url: image.url,
        altText: image.alt_text ?? null,
      })),
    );
    if (images.length) await this.tx.image.createMany({ data: images });
  }
}

/** Runs `work` in one transaction with a writer for the merchant, creating the merchant if new. */
export async function withCatalogWriter<T>(
  prisma: Prisma,
  merchantId: string,
  work: (writer: CatalogWriter) => Promise<T>,
): Promise<T> {
  return prisma.$transaction(
    async (tx) => {
      await tx.merchant.upsert({ where: { id: merchantId }, create: { id: merchantId, name: merchantId }, update: {} });
      return work(new CatalogWriter(tx, merchantId));
    },
    { timeout: 30 * 60_000, maxWait: 60_000 },
  );
}
