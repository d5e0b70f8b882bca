/**
 * The UCP catalog and cart tests' world: the real services over a fresh test database (the read
 * model and search index warmed up as `serve` does), a small apparel catalog, and the official
 * 2026-04-08 response validators.
 */
import pino from 'pino';
import { importCatalog } from '../../src/catalog/import/catalog-importer.js';
import { inventory } from '../../src/catalog/inventory.js';
import { loadConfig } from '../../src/config/config.js';
import type { Product, Variant } from '../../src/contract/types.js';
import { buildServices, type Services } from '../../src/services.js';
import { describeProblem, shoppingSchema, ucpSchemaValidator } from '../../src/ucp/ucp-schemas.js';
import { catalogFile, product } from './fixtures.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface CatalogWorld {
  db: TestDatabase;
  services: Services;
  close(): Promise<void>;
}

export async function startCatalogWorld(catalogs: Record<string, Product[]>): Promise<CatalogWorld> {
  const db = await createTestDatabase();
  const services = buildServices(db, { config: loadConfig({ LOG_LEVEL: 'silent' }), logger: pino({ level: 'silent' }) });
  for (const [merchantId, products] of Object.entries(catalogs)) await importCatalog(db, merchantId, catalogFile(products));
  await services.shipping.profiles.listen(db);
  await services.discounts.active.listen(db);
  await services.catalog.warmUp();
  return {
    db,
    services,
    async close() {
      await services.shipping.profiles.close();
      await services.discounts.active.close();
      await services.catalog.close();
      await db.close();
    },
  };
}

function variant(sku: string, price: number, quantity: number, attributes: Record<string, string>, policy: 'deny' | 'continue' = 'deny'): Variant {
  return { sku, title: Object.values(attributes).join(' / ') || sku, price, currency: 'USD', attributes, inventory: inventory(quantity, policy) };
}

/** A tee in two colours and two sizes (red M sold out, blue M on backorder), a mug without variants, jeans, twelve socks. */
export function apparel(): Product[] {
  return [
    product({
      id: 'tee',
      title: 'Cotton tee',
      description: 'A soft cotton t-shirt',
      category: 'Apparel > Shirts',
      price: 25,
      tags: ['cotton'],
      images: [{ url: 'https://cdn.example/tee-back.jpg', position: 1 }, { url: 'https://cdn.example/tee.jpg', alt_text: 'The tee', position: 0 }],
      variants: [
        variant('tee-red-s', 25, 5, { Color: 'Red', Size: 'S' }),
        variant('tee-red-m', 25, 0, { Color: 'Red', Size: 'M' }),
        variant('tee-blue-s', 27.5, 3, { Color: 'Blue', Size: 'S' }),
        variant('tee-blue-m', 27.5, 0, { Color: 'Blue', Size: 'M' }, 'continue'),
      ],
    }),
    product({ id: 'mug', title: 'Stoneware mug', category: 'Kitchen > Mugs', price: 9.5, variants: [], availability: inventory(10, 'deny') }),
    product({ id: 'jeans', title: 'Selvedge jeans', category: 'Apparel > Pants', price: 75 }),
    ...Array.from({ length: 12 }, (_, i) => product({ id: `sock-${String(i + 1).padStart(2, '0')}`, title: `Wool sock ${String(i + 1).padStart(2, '0')}`, category: 'Apparel > Socks', price: 5 + i })),
  ];
}

/** Throws with the first problem unless `body` is valid against the official 2026-04-08 schema (`catalog_search.json#/$defs/search_response`, …). */
export function expectValid(body: unknown, definition: string): void {
  const validate = ucpSchemaValidator('2026-04-08', shoppingSchema(definition));
  if (!validate(body)) throw new Error(`not a valid ${definition}: ${describeProblem(validate)} — ${JSON.stringify(validate.errors?.slice(0, 3))}`);
}
