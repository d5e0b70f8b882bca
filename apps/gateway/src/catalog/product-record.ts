/**
 * A product as the catalog's stores read it (its variants and images with it): the columns the
 * domain maps from, written by hand so that no database type leaves the stores. The stores' rows
 * (Prisma's, or the JSON of the bulk reads) are structurally these.
 */
export type InventoryPolicy = 'deny' | 'continue';

export interface VariantRecord {
  sku: string;
  position: number;
  title: string;
  price: number;
  currency: string;
  requiresShipping: boolean | null;
  taxable: boolean | null;
  weightGrams: number | null;
  weightUnit: string | null;
  /** Attribute name → one value. */
  attributes: unknown;
  quantity: number;
  policy: InventoryPolicy;
}

export interface ImageRecord {
  position: number;
  url: string;
  altText: string | null;
}

export interface ProductRecord {
  id: string;
  title: string;
  description: string;
  vendor: string;
  category: string;
  price: number;
  currency: string;
  tags: string[];
  /** Attribute name → its values. */
  attributes: unknown;
  /** Stock of a product without variants; otherwise derived from them. */
  quantity: number;
  policy: InventoryPolicy;
  variants: VariantRecord[];
  images: ImageRecord[];
}
