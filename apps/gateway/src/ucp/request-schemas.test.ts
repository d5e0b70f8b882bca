import { describe, expect, it } from 'vitest';
import { releaseOf, UCP_VERSIONS } from './releases/releases.js';
import { firstProblem, ucpRequestValidator } from './request-schemas.js';

const CHECKOUT = 'https://ucp.dev/schemas/shopping/checkout.json';
const line = { item: { id: 'chair-oak' }, quantity: 1 };

describe('UCP request schemas, resolved from ucp_request', () => {
  it('requires what an operation requires and drops what it omits (an echoed title or price is not refused)', () => {
    const create = ucpRequestValidator('2026-04-08', 'create', [CHECKOUT]);
    expect(create({ line_items: [line] })).toBe(true);
    expect(create({ line_items: [{ ...line, item: { id: 'chair-oak', title: 'Cheap', price: 1 } }], totals: 'anything' })).toBe(true);
    expect(create({})).toBe(false);
    expect(firstProblem(create)).toEqual({ path: '$.line_items', message: '$.line_items is required' });
    expect(create({ line_items: [{ item: { id: 'chair-oak' }, quantity: 0 }] })).toBe(false);
    expect(firstProblem(create).path).toBe('$.line_items[0].quantity');
    const complete = ucpRequestValidator('2026-04-08', 'complete', [CHECKOUT]);
    expect(complete({})).toBe(false);
    expect(firstProblem(complete).path).toBe('$.payment');
  });

  it('2026-01-11 deviation: currency and payment are optional in requests, as its own examples send them', () => {
    const create = ucpRequestValidator('2026-01-11', 'create', [CHECKOUT]);
    expect(create({ line_items: [line] })).toBe(true);
    expect(create({ line_items: [line], currency: 42 })).toBe(false); // still typed when sent
  });

  it('deviation: the body id on update is optional at both releases (the path names the session)', () => {
    for (const release of UCP_VERSIONS) {
      const update = ucpRequestValidator(release, 'update', [CHECKOUT]);
      expect(update({ line_items: [line] }), release).toBe(true);
      expect(update({ id: 'cs_1', line_items: [{ id: 'li_1', ...line }] }), release).toBe(true);
    }
  });

  it('deviation: a fulfillment method resent without id or line_item_ids is accepted on update, and still typed', () => {
    for (const release of UCP_VERSIONS) {
      const composed = releaseOf(release).checkout.extensionDefinition;
      const update = ucpRequestValidator(release, 'update', [CHECKOUT, `https://ucp.dev/schemas/shopping/fulfillment.json#/$defs/${composed}`]);
      const method = { type: 'shipping', destinations: [{ id: 'd1', address_country: 'US' }], selected_destination_id: 'd1' };
      expect(update({ line_items: [line], fulfillment: { methods: [method] } }), release).toBe(true);
      expect(update({ line_items: [line], fulfillment: { methods: [{ ...method, id: 42 }] } }), release).toBe(false);
      expect(update({ line_items: [line], fulfillment: { methods: [{ ...method, groups: [{ selected_option_id: 'x' }] }] } }), release).toBe(false); // a group still names its id
    }
  });
});
