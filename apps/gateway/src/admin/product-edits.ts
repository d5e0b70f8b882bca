/**
 * An operator's change to a product's prices and stock (the console's product page): the product
 * as the catalog serves it, with the new base price and variants' prices and quantities, written
 * back as a one-product catalog import — the importer's validation, stock status, search index
 * and read model, the same as `gateway catalog import` of that product. Nothing else changes.
 *
 *   await edits.update('shop', 'desk-chair', { variants: [{ sku: 'DC-1', price: 45, quantity: 12 }] });
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CatalogService } from '../catalog/catalog-service.js';
import { ImportError } from '../catalog/import/catalog-importer.js';
import type { CatalogImportService } from '../catalog/import/catalog-import-service.js';
import type { Product } from '../contract/types.js';
import { InvalidRequestError } from '../kernel/errors.js';

export interface ProductEdit {
  price?: number;
  variants?: { sku: string; price?: number; quantity?: number }[];
}

/** The product with the edit applied; a SKU it does not have is refused, naming it. */
export function applyEdit(product: Product, edit: ProductEdit): Product {
  const variants = product.variants.map((v) => ({ ...v, inventory: { ...v.inventory } }));
  for (const [i, change] of (edit.variants ?? []).entries()) {
    const variant = variants.find((v) => v.sku === change.sku);
    if (!variant) throw new InvalidRequestError(`Product ${product.id} has no variant ${JSON.stringify(change.sku)}`, `variants[${i}].sku`);
    if (change.price !== undefined) variant.price = change.price;
    if (change.quantity !== undefined) variant.inventory.quantity = change.quantity;
  }
  const { similarity_score: _score, ...stored } = product as Product & { similarity_score?: number };
  return { ...stored, ...(edit.price === undefined ? {} : { price: edit.price }), variants };
}

export class ProductEdits {
  constructor(
    private readonly catalog: Pick<CatalogService, 'get'>,
    private readonly imports: Pick<CatalogImportService, 'importFile'>,
  ) {}

  async update(merchantId: string, productId: string, edit: ProductEdit): Promise<Product> {
    const changed = applyEdit(await this.catalog.get(merchantId, productId), edit);
    const dir = await mkdtemp(join(tmpdir(), 'gateway-edit-'));
    try {
      const path = join(dir, 'product.ndjson');
      await writeFile(path, `${JSON.stringify(changed)}\n`);
      await this.imports.importFile(merchantId, path);
    } catch (error) {
      if (error instanceof ImportError) throw new InvalidRequestError(`The product cannot be saved so: ${error.message}`);
      throw error;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return this.catalog.get(merchantId, productId);
  }
}
