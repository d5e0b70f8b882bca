import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../kernel/errors.js';
import { checkShippingAddress, planStockTakes, stockError } from './completion-rules.js';

const line = (variantSku: string, quantity: number, requiresShipping = true) => ({ productId: variantSku.split('-')[0]!, variantSku, quantity, title: 'T', requiresShipping });

describe('planStockTakes', () => {
  it('sums the lines of one SKU and orders the takes by SKU, whatever the cart order', () => {
    const takes = planStockTakes([line('b-1', 1), line('a-1', 2), line('b-1', 3), line('c-1', 1)]);
    expect(takes.map((t) => [t.sku, t.quantity, t.lines])).toEqual([['a-1', 2, [1]], ['b-1', 4, [0, 2]], ['c-1', 1, [3]]]);
  });
});

describe('checkShippingAddress', () => {
  it('asks nothing when no line ships', () => {
    expect(() => checkShippingAddress([line('a-1', 1, false)], null)).not.toThrow();
  });

  it.each([
    [null, 'shipping_address'],
    [{ line1: '1 Main St', city: 'Paris' }, 'shipping_address.country'],
    [{ city: 'Paris', country: 'FR' }, 'shipping_address.line1'],
  ])('needs line1, city and country when a line ships: %o', (address, param) => {
    expect(() => checkShippingAddress([line('a-1', 1, false), line('b-1', 1)], address)).toThrow(expect.objectContaining({ param }));
  });
});

describe('stockError', () => {
  it('names every line of the SKU, what was asked and what is left', () => {
    const [take] = planStockTakes([line('a-1', 2), line('a-1', 3)]);
    const error = stockError(take!, { kind: 'short', available: 4 });
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ param: 'line_items[0].quantity', message: 'Not enough stock for line_items[0] + line_items[1] (sku a-1, T): 5 requested, 4 available' });
  });
});
