import { describe, expect, it } from 'vitest';
import { changedStock, productStockKey, variantsStockKey } from './stock-key.js';

/** The database's stock lists (CatalogStore.stockLists) of products, in id order. */
function lists(products: { id: string; quantity: number; policy: 'deny' | 'continue'; variants?: { sku: string; quantity: number; policy: 'deny' | 'continue' }[] }[]) {
  return {
    products: products.map((p) => `${p.id}\u0003${p.quantity}\u0001${p.policy}`).join('\u0004'),
    variants: products
      .flatMap((p) => (p.variants ?? []).map((v) => `${p.id}\u0003${v.sku}\u0001${v.quantity}\u0001${v.policy}`))
      .join('\u0004'),
  };
}

describe('changedStock', () => {
  const chair = { id: 'chair', quantity: 0, policy: 'deny' as const, variants: [{ sku: 'chair-red', quantity: 3, policy: 'deny' as const }, { sku: 'chair-blue', quantity: 0, policy: 'continue' as const }] };
  const lamp = { id: 'lamp', quantity: 7, policy: 'deny' as const };
  // An id that begins another: its variants must not be taken for the longer one's.
  const lampShade = { id: 'lamp-shade', quantity: 0, policy: 'deny' as const, variants: [{ sku: 'shade-1', quantity: 2, policy: 'deny' as const }] };
  const ids = ['chair', 'lamp', 'lamp-shade'];
  const keys = [variantsStockKey(chair.variants), productStockKey(7, 'deny'), variantsStockKey(lampShade.variants)];

  it('finds nothing changed when every key is the database stock', () => {
    expect(changedStock(lists([chair, lamp, lampShade]), ids, keys)).toEqual([]);
  });

  it('names the products whose stock differs: a variant, a product without variants, a policy', () => {
    const sold = { ...chair, variants: [chair.variants[0]!, { ...chair.variants[1]!, quantity: 5 }] };
    expect(changedStock(lists([sold, { ...lamp, quantity: 6 }, lampShade]), ids, keys)).toEqual(['chair', 'lamp']);
    expect(changedStock(lists([chair, { ...lamp, policy: 'continue' }, lampShade]), ids, keys)).toEqual(['lamp']);
    // Variants in another order are another stock (keys follow position order).
    expect(changedStock(lists([{ ...chair, variants: [...chair.variants].reverse() }, lamp, lampShade]), ids, keys)).toEqual(['chair']);
  });

  it('refuses lists of other products, or of the same in another order', () => {
    expect(changedStock(lists([chair, lamp]), ids, keys)).toBeUndefined();
    expect(changedStock(lists([chair, lamp, lampShade, { id: 'rug', quantity: 1, policy: 'deny' }]), ids, keys)).toBeUndefined();
    expect(changedStock(lists([lamp, chair, lampShade]), ids, keys)).toBeUndefined();
    expect(changedStock(lists([chair, { ...lamp, id: 'lamb' }, lampShade]), ids, keys)).toBeUndefined();
    expect(changedStock({ products: lists([chair, lamp, lampShade]).products, variants: 'ghost\u0003g-1\u00011\u0001deny' }, ids, keys)).toBeUndefined();
  });

  it('answers an empty catalog', () => {
    expect(changedStock({ products: '', variants: '' }, [], [])).toEqual([]);
  });
});
