/**
 * UCP 2026-04-08's cart over the one checkout domain and the real database: carts priced by us,
 * every answer valid against the official cart.json (or error_response.json), not-found and
 * unavailable items as the spec's 200 error envelopes with nothing changed, and what a checkout
 * made from a cart starts from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/statement.js';
import { UcpCart, type CartOutcome } from '../src/ucp/cart/ucp-cart.js';
import { UcpError } from '../src/ucp/ucp-error.js';
import { apparel, expectValid, startCatalogWorld, type CatalogWorld } from './support/ucp-catalog.js';

const SHOP = 'cart-shop';
const OTHER = 'cart-other';

let world: CatalogWorld;
let carts: UcpCart;
beforeAll(async () => {
  world = await startCatalogWorld({ [SHOP]: apparel(), [OTHER]: apparel() });
  carts = new UcpCart({ checkout: world.services.checkout, storefrontUrl: 'https://{merchant_id}.shop.example' });
}, 60_000);
afterAll(() => world?.close());

type Body = Record<string, any>;
const valid = (outcome: CartOutcome): Body => {
  expectValid(outcome.body, outcome.body.id ? 'cart.json' : 'types/error_response.json');
  return outcome.body as Body;
};
const sessions = async () => (await world.db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM checkout_sessions`))[0]!.n;
const line = (id: string, quantity = 1) => ({ item: { id }, quantity });
const notFoundEnvelope = (outcome: CartOutcome) => {
  expect(outcome.status).toBe(200);
  expect(valid(outcome)).toMatchObject({ ucp: { version: '2026-04-08', status: 'error' }, messages: [{ type: 'error', code: 'not_found', severity: 'unrecoverable' }] });
};

describe('create_cart', () => {
  it('prices the lines from the catalog (a sent title or price is ignored), with estimated totals and a continue_url', async () => {
    const outcome = await carts.create(SHOP, {
      line_items: [{ item: { id: 'tee-blue-s', title: 'Free tee', price: 1 }, quantity: 2 }, line('mug')],
      context: { address_country: 'US', postal_code: '94105' },
      buyer: { email: 'ada@example.com' },
    });
    expect(outcome.status).toBe(201);
    const cart = valid(outcome);
    expect(cart.id).toMatch(/^cart_[A-Za-z0-9]+$/);
    expect(cart).toEqual({
      ucp: { version: '2026-04-08', status: 'success', capabilities: { 'dev.ucp.shopping.cart': [{ version: '2026-04-08' }] } },
      id: cart.id,
      line_items: [
        { id: 'li_1', item: { id: 'tee-blue-s', title: 'Cotton tee', price: 2750 }, quantity: 2, totals: [{ type: 'subtotal', amount: 5500 }, { type: 'total', amount: 5500 }] },
        { id: 'li_2', item: { id: 'mug', title: 'Stoneware mug', price: 950 }, quantity: 1, totals: [{ type: 'subtotal', amount: 950 }, { type: 'total', amount: 950 }] },
      ],
      context: { address_country: 'US', postal_code: '94105' },
      buyer: { email: 'ada@example.com' },
      currency: 'USD',
      totals: [
        { type: 'subtotal', display_text: 'Subtotal', amount: 6450 },
        { type: 'total', display_text: 'Estimated total (shipping and taxes calculated at checkout)', amount: 6450 },
      ],
      continue_url: `https://cart-shop.shop.example/carts/${cart.id}`,
    });
  });

  it('warns about a line the stock cannot fill, and still keeps it', async () => {
    const cart = valid(await carts.create(SHOP, { line_items: [line('tee-red-s', 9), line('tee-red-m'), line('tee-blue-m', 3)] }));
    expect(cart.messages).toEqual([
      { type: 'warning', code: 'out_of_stock', path: '$.line_items[0]', content: expect.stringContaining('Only 5') },
      { type: 'warning', code: 'out_of_stock', path: '$.line_items[1]', content: expect.stringContaining('Only 0') },
    ]);
  });

  it('answers an item id it does not sell with the error envelope naming the line, creating nothing', async () => {
    const before = await sessions();
    const outcome = await carts.create(SHOP, { line_items: [line('mug'), line('no-such-thing')] });
    expect(valid(outcome)).toEqual({
      ucp: { version: '2026-04-08', status: 'error', capabilities: { 'dev.ucp.shopping.cart': [{ version: '2026-04-08' }] } },
      messages: [{ type: 'error', code: 'item_unavailable', path: '$.line_items[1].item.id', content: expect.stringContaining('no-such-thing'), severity: 'recoverable' }],
      continue_url: 'https://cart-shop.shop.example/',
    });
    expect(await sessions()).toBe(before);
  });

  it.each([
    ['no lines', { line_items: [] }, 'cancel it'],
    ['a quantity of 0', { line_items: [line('mug', 0)] }, '$.line_items[0].quantity'],
    ['a quantity above 999', { line_items: [line('mug', 1000)] }, '$.line_items[0].quantity'],
    ['a line without an item id', { line_items: [{ item: {}, quantity: 1 }] }, '$.line_items[0].item'],
    ['a context that is not an object', { line_items: [line('mug')], context: 'US' }, '$.context'],
    ['no body', undefined, 'The body'],
  ])('refuses %s with 400 invalid_request', async (_name, body, where) => {
    const error = await carts.create(SHOP, body).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(UcpError);
    expect([(error as UcpError).code, (error as UcpError).status2026_04_08]).toEqual(['invalid_request', 400]);
    expect((error as UcpError).content).toContain(where);
  });
});

describe('get, update and cancel', () => {
  it('reads a cart back; another merchant, a session id, a checkout session or nonsense is not_found', async () => {
    const created = valid(await carts.create(SHOP, { line_items: [line('jeans-default')] }));
    const read = await carts.get(SHOP, created.id);
    expect(valid(read)).toEqual(created);
    notFoundEnvelope(await carts.get(OTHER, created.id));
    notFoundEnvelope(await carts.get(SHOP, created.id.replace(/^cart_/, 'cs_')));
    const checkout = await world.services.checkout.open(SHOP, { items: [{ product_id: 'mug' }], protocolState: { protocol: 'ucp', kind: 'checkout' } });
    notFoundEnvelope(await carts.get(SHOP, checkout.session.id.replace(/^cs_/, 'cart_')));
    notFoundEnvelope(await carts.get(SHOP, 'cart_../../x'));
  });

  it('replaces the lines, context and buyer on update, keeping the id', async () => {
    const created = valid(await carts.create(SHOP, { line_items: [line('mug')], context: { address_country: 'US' }, buyer: { email: 'a@example.com' } }));
    const updated = valid(await carts.update(SHOP, created.id, { id: created.id, line_items: [{ id: 'li_1', ...line('mug', 3) }, line('tee')] }));
    expect(updated.id).toBe(created.id);
    expect(updated.line_items.map((l: Body) => [l.item.id, l.quantity, l.item.price])).toEqual([['mug', 3, 950], ['tee', 1, 2500]]);
    expect(updated.context).toBeUndefined();
    expect(updated.buyer).toBeUndefined();
    expect(updated.totals.at(-1).amount).toBe(3 * 950 + 2500);
    expect(valid(await carts.get(SHOP, created.id))).toEqual(updated);
  });

  it('changes nothing on an update with an unknown item, another id, or for another merchant', async () => {
    const created = valid(await carts.create(SHOP, { line_items: [line('mug')] }));
    expect(valid(await carts.update(SHOP, created.id, { id: created.id, line_items: [line('nope')] })).messages[0].code).toBe('item_unavailable');
    const error = await carts.update(SHOP, created.id, { id: 'cart_other', line_items: [line('mug')] }).then(() => undefined, (e: unknown) => e);
    expect((error as UcpError).code).toBe('invalid_request');
    notFoundEnvelope(await carts.update(OTHER, created.id, { id: created.id, line_items: [line('mug', 2)] }));
    expect(valid(await carts.get(SHOP, created.id))).toEqual(created);
  });

  it('answers the cart as it was on cancel, and not_found for it from then on', async () => {
    const created = valid(await carts.create(SHOP, { line_items: [line('mug', 2)] }));
    notFoundEnvelope(await carts.cancel(OTHER, created.id));
    const canceled = await carts.cancel(SHOP, created.id);
    expect(valid(canceled)).toEqual(created);
    notFoundEnvelope(await carts.get(SHOP, created.id));
    notFoundEnvelope(await carts.update(SHOP, created.id, { id: created.id, line_items: [line('mug')] }));
    notFoundEnvelope(await carts.cancel(SHOP, created.id));
    expect(await carts.cartLines(SHOP, created.id)).toBeUndefined();
  });

  it('stores the answer with the change, in its transaction', async () => {
    const stored: unknown[] = [];
    const store = async (_tx: unknown, answer: unknown) => void stored.push(answer);
    const created = await carts.create(SHOP, { line_items: [line('mug')] }, store);
    const updated = await carts.update(SHOP, created.body.id as string, { id: created.body.id, line_items: [line('tee')] }, store);
    const canceled = await carts.cancel(SHOP, created.body.id as string, store);
    expect(stored).toEqual([created.body, updated.body, canceled.body]);
  });
});

describe('checkout from a cart', () => {
  it("gives a cart's lines (as the platform named them and as the domain resolves them), context and buyer, and the checkout linked", async () => {
    const cart = valid(await carts.create(SHOP, { line_items: [line('tee', 2), line('tee-blue-s')], context: { address_country: 'US' }, buyer: { email: 'b@example.com' } }));
    expect(await carts.cartLines(SHOP, cart.id)).toEqual({
      cartId: cart.id,
      lines: [line('tee', 2), line('tee-blue-s')],
      items: [{ product_id: 'tee', variant_sku: 'tee-red-s', quantity: 2 }, { product_id: 'tee', variant_sku: 'tee-blue-s', quantity: 1 }],
      currency: 'USD',
      context: { address_country: 'US' },
      buyer: { email: 'b@example.com' },
    });
    expect(await carts.cartLines(OTHER, cart.id)).toBeUndefined();
    const checkout = await world.services.checkout.open(SHOP, { items: (await carts.cartLines(SHOP, cart.id))!.items });
    expect(Number(checkout.session.subtotal)).toBe(cart.totals[0].amount);
    await carts.linkCheckout(SHOP, cart.id, 'chk_123');
    expect((await carts.cartLines(SHOP, cart.id))!.checkoutId).toBe('chk_123');
    expect(valid(await carts.get(SHOP, cart.id)).line_items).toEqual(cart.line_items);
  });
});
