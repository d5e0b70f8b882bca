/**
 * Turns one imported record into a contract Product: fills what the contract
 * lets a catalog file leave out, then validates against the contract's Product
 * schema. Stock status is always derived from quantity (see inventory.ts).
 */
import type { Product } from '../../contract/types.js';
import { describeErrors, schemaValidator } from '../../contract/schema-validator.js';
import { MAX_CATALOG_PRICE } from '../../kernel/money/money.js';
import { inventory, productAvailability, type InventoryPolicy } from '../inventory.js';

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withDefaults(record: Loose): Loose {
  const currency = record.currency;
  const variants = Array.isArray(record.variants)
    ? record.variants.map((v) => (isObject(v) ? { attributes: {}, currency, ...v } : v))
    : [];
  const stock = (inv: unknown) => (isObject(inv) && typeof inv.quantity === 'number' ? inv : undefined);
  const variantStock = variants.map((v) => (isObject(v) ? stock(v.inventory) : undefined));
  const derived = variantStock.length && variantStock.every(Boolean)
    ? productAvailability(variantStock as { quantity: number; policy: InventoryPolicy }[])
    : undefined;
  return {
    description: '',
    vendor: '',
    category: '',
    tags: [],
    attributes: {},
    images: [],
    ...record,
    variants,
    ...(derived ? { availability: derived } : {}),
  };
}

function normaliseStock(product: Product): Product {
  return {
    ...product,
    availability: inventory(product.availability.quantity, product.availability.policy),
    variants: product.variants.map((v) => ({ ...v, inventory: inventory(v.inventory.quantity, v.inventory.policy) })),
  };
}

/**
 * The contract's import bound on prices (see Product.price): not a `maximum` in the schema, which
 * also checks responses, so that a product stored before the bound is still served.
 */
function priceOutOfBounds(product: Product): string | undefined {
  const prices: [string, number][] = [['price', product.price], ...product.variants.map((v, i): [string, number] => [`variants[${i}].price`, v.price])];
  const [field, price] = prices.find(([, price]) => !(price <= MAX_CATALOG_PRICE)) ?? [];
  return field === undefined ? undefined : `${field} must be at most ${MAX_CATALOG_PRICE} (10^11), got ${price}`;
}

export type ProductInputResult = { ok: true; product: Product } | { ok: false; error: string };

export function toProductInput(value: unknown): ProductInputResult {
  if (!isObject(value)) return { ok: false, error: 'a product must be a JSON object' };
  const candidate = withDefaults(value);
  const validate = schemaValidator('Product');
  if (!validate(candidate)) return { ok: false, error: describeErrors(validate.errors) };
  const outOfBounds = priceOutOfBounds(candidate as unknown as Product);
  if (outOfBounds) return { ok: false, error: outOfBounds };
  return { ok: true, product: normaliseStock(candidate as unknown as Product) };
}
