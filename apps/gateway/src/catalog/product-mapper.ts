import type { Product, Variant } from '../contract/types.js';
import { inventory, productAvailability } from './inventory.js';
import type { ProductRecord, VariantRecord } from './product-record.js';

function toVariant(row: VariantRecord): Variant {
  return {
    sku: row.sku,
    title: row.title,
    price: row.price,
    currency: row.currency,
    ...(row.requiresShipping === null ? {} : { requires_shipping: row.requiresShipping }),
    ...(row.taxable === null ? {} : { taxable: row.taxable }),
    ...(row.weightGrams === null ? {} : { weight_grams: row.weightGrams }),
    ...(row.weightUnit === null ? {} : { weight_unit: row.weightUnit as NonNullable<Variant['weight_unit']> }),
    attributes: row.attributes as Record<string, string>,
    inventory: inventory(row.quantity, row.policy),
  };
}

/** A product as the contract shows it; availability is derived from its variants. */
export function toProduct(row: ProductRecord): Product {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    vendor: row.vendor,
    category: row.category,
    price: row.price,
    currency: row.currency,
    availability: row.variants.length ? productAvailability(row.variants) : inventory(row.quantity, row.policy),
    tags: row.tags,
    attributes: row.attributes as Record<string, string[]>,
    images: row.images.map((image) => ({
      url: image.url,
      ...(image.altText === null ? {} : { alt_text: image.altText }),
      position: image.position,
    })),
    variants: row.variants.map(toVariant),
  };
}
