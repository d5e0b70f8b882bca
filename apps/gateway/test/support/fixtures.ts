import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Product } from '../../src/contract/types.js';

/** A valid product; override any field. */
export function product(overrides: Partial<Product> & { id: string }): Product {
  const price = overrides.price ?? 10;
  return {
    title: `Product ${overrides.id}`,
    description: 'A thing',
    vendor: 'Acme',
    category: 'Things',
    price,
    currency: 'USD',
    availability: { status: 'in_stock', quantity: 20, policy: 'deny' },
    tags: [],
    attributes: {},
    images: [],
    variants: [
      {
        sku: `${overrides.id}-default`,
        title: 'Default',
        price,
        currency: 'USD',
        requires_shipping: true,
        taxable: true,
        attributes: {},
        inventory: { status: 'in_stock', quantity: 20, policy: 'deny' },
      },
    ],
    ...overrides,
  };
}

/** Writes records as NDJSON (or raw lines as given) to a temporary file. */
export function catalogFile(lines: (object | string)[], name = 'catalog.ndjson'): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-catalog-'));
  const path = join(dir, name);
  writeFileSync(path, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return path;
}
