import { join } from 'node:path';
import { packageRoot } from './db/paths.js';
import type { Services } from './services.js';

export const DEMO_MERCHANT = 'demo';
export const DEMO_CATALOG = join(packageRoot, 'data', 'demo', 'products.ndjson');
/** Two codes to try: WELCOME10 (10 % off) and CHAIRS15 (15 % off chairs, alone). */
export const DEMO_DISCOUNTS = join(packageRoot, 'data', 'demo', 'discounts.ndjson');

/**
 * First development start on an empty database: merchant `demo` with the demo
 * catalog and discount codes, and a development key with every scope. Returns the key, or
 * undefined when the database already holds a merchant.
 */
export async function seedDemo({ keys, imports, discounts }: Pick<Services, 'keys' | 'imports' | 'discounts'>): Promise<{ key: string; products: number } | undefined> {
  if (await keys.anyMerchant()) return undefined;
  const { imported } = await imports.importFile(DEMO_MERCHANT, DEMO_CATALOG);
  await discounts.importFile(DEMO_MERCHANT, DEMO_DISCOUNTS);
  const { key } = await keys.create({ merchantIds: [DEMO_MERCHANT], env: 'development', scopes: ['*'] });
  return { key, products: imported };
}
