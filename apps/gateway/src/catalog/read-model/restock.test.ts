import { describe, expect, it } from 'vitest';
import type { Product } from '../../contract/types.js';
import { restock } from './restock.js';

const variant = (sku: string, quantity: number) => ({
  sku, title: sku, price: 10, currency: 'USD', attributes: {}, inventory: { status: 'in_stock' as const, quantity, policy: 'deny' as const },
});
const chair: Product = {
  id: 'chair', title: 'Chair', description: '', vendor: 'Acme', category: 'Chairs', price: 10, currency: 'USD', tags: [], attributes: {}, images: [],
  variants: [variant('chair-red', 20), variant('chair-blue', 8)],
  availability: { status: 'in_stock', quantity: 28, policy: 'deny' },
};

describe('restock', () => {
  it('applies the stored quantities and policies, deriving the product availability from its variants', () => {
    const after = restock(chair, {
      id: 'chair', quantity: 0, policy: 'deny',
      variants: [{ sku: 'chair-red', quantity: 3, policy: 'deny' }, { sku: 'chair-blue', quantity: 0, policy: 'continue' }],
    })!;
    expect(after.variants.map((v) => v.inventory)).toEqual([
      { status: 'limited', quantity: 3, policy: 'deny' },
      { status: 'out_of_stock', quantity: 0, policy: 'continue' },
    ]);
    expect(after.availability).toEqual({ status: 'limited', quantity: 3, policy: 'continue' });
    expect({ ...after, variants: [], availability: null }).toEqual({ ...chair, variants: [], availability: null });
    expect(chair.variants[0]!.inventory.quantity).toBe(20); // the held product is not modified
  });

  it("uses a product's own stock when it has no variants", () => {
    const lamp = { ...chair, id: 'lamp', variants: [] };
    expect(restock(lamp, { id: 'lamp', quantity: 0, policy: 'deny', variants: [] })?.availability).toEqual({ status: 'out_of_stock', quantity: 0, policy: 'deny' });
  });

  it('declines when the stored variants are not the ones held (the product changed otherwise)', () => {
    expect(restock(chair, { id: 'chair', quantity: 0, policy: 'deny', variants: [{ sku: 'chair-red', quantity: 1, policy: 'deny' }] })).toBeUndefined();
    expect(restock(chair, {
      id: 'chair', quantity: 0, policy: 'deny',
      variants: [{ sku: 'chair-blue', quantity: 1, policy: 'deny' }, { sku: 'chair-red', quantity: 1, policy: 'deny' }],
    })).toBeUndefined();
  });
});
