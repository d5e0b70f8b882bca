import { describe, expect, it } from 'vitest';
import { scrubPersonalData } from './personal-data-scrub.js';

describe('scrubbing a stored payload', () => {
  it('nulls our customer and shipping address, removes ACP buyer details, keeps the rest in its key order', () => {
    const payload = {
      id: 'evt_1', type: 'order.created',
      data: { object: { id: 'cs_1', customer: { email: 'a@example.com' }, shipping_address: { line1: '1 A St' }, amounts: { total: 5 }, buyer: { email: 'a@example.com' }, order: { id: 'ord_1', fulfillment_details: { name: 'A' } } } },
    };
    const scrubbed = scrubPersonalData(payload) as typeof payload;
    expect(scrubbed).toEqual({ id: 'evt_1', type: 'order.created', data: { object: { id: 'cs_1', customer: null, shipping_address: null, amounts: { total: 5 }, order: { id: 'ord_1' } } } });
    expect(Object.keys(scrubbed.data.object)).toEqual(['id', 'customer', 'shipping_address', 'amounts', 'order']);
    expect(JSON.stringify(scrubbed)).not.toContain('a@example.com');
  });
});
