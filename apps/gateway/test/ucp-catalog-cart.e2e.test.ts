/**
 * A UCP 2026-04-08 platform shopping through a real gateway over HTTP: discover the catalog and
 * cart capabilities → search → look up → a product's detail → a cart of the variant ids found
 * (idempotent create, a key reused with another body is 409) → update → cancel; checkout from the
 * cart (`cart_id`), its lines winning, converted once. Also: a cart of another merchant, an unknown item, a cursor that is not
 * ours, a product not found, and a platform at 2026-01-11 (no such operations). Every answer is
 * validated against the official schemas (support/official-ucp.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Reply } from './support/http.js';
import { checkoutSchemas, ERROR_RESPONSE, schemaProblems } from './support/official-ucp.js';
import { apparel } from './support/ucp-catalog.js';
import { json, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const SHOPPING = 'https://ucp.dev/schemas/shopping';
const SEARCH = `${SHOPPING}/catalog_search.json#/$defs/search_response`;
const LOOKUP = `${SHOPPING}/catalog_lookup.json#/$defs/lookup_response`;
const PRODUCT = `${SHOPPING}/catalog_lookup.json#/$defs/get_product_response`;
const CART = `${SHOPPING}/cart.json`;

let gateway: TestGateway;
let profiles: ProfileServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('catshop', apparel());
  await gateway.importProducts('othershop', apparel());
  key = await gateway.createKey({ merchantIds: ['catshop'] });
  otherKey = await gateway.createKey({ merchantIds: ['othershop'] });
  profiles = await startProfileServer();
  profiles.route('/platform/2026-04-08', json(shoppingPlatformProfile('2026-04-08')));
  profiles.route('/platform/2026-01-11', json(shoppingPlatformProfile('2026-01-11')));
}, 60_000);

afterAll(async () => {
  await profiles?.close();
  await gateway?.close();
});

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function platform(release: '2026-04-08' | '2026-01-11' = '2026-04-08', apiKey = key) {
  const send = (method: string, path: string, body?: unknown, idempotencyKey: string = randomUUID()) =>
    call(`${gateway.url}/ucp${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'ucp-agent': `profile="${profiles.url}/platform/${release}"`, ...(method === 'GET' ? {} : { 'idempotency-key': idempotencyKey }) },
      ...(body !== undefined ? { json: body } : {}),
    });
  return {
    search: (body: unknown) => send('POST', '/catalog/search', body),
    lookup: (body: unknown) => send('POST', '/catalog/lookup', body),
    product: (body: unknown) => send('POST', '/catalog/product', body),
    createCart: (body: unknown, idempotencyKey?: string) => send('POST', '/carts', body, idempotencyKey),
    getCart: (id: string) => send('GET', `/carts/${id}`),
    updateCart: (id: string, body: unknown, idempotencyKey?: string) => send('PUT', `/carts/${id}`, body, idempotencyKey),
    cancelCart: (id: string) => send('POST', `/carts/${id}/cancel`, {}),
    createCheckout: (body: unknown) => send('POST', '/checkout-sessions', body),
  };
}

/** The answer's body, after checking its status and that it is valid against the official schema. */
function valid(reply: Reply, schema: string, status = 200): Body {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(schemaProblems('2026-04-08', [schema], reply.body)).toEqual([]);
  return reply.body;
}

describe('UCP 2026-04-08 catalog and cart over REST', () => {
  it('discovers catalog search, lookup and cart in the 2026-04-08 profile only', async () => {
    const latest = (await call(`${gateway.url}/.well-known/ucp`)).body;
    expect(Object.keys(latest.ucp.capabilities)).toEqual(expect.arrayContaining(['dev.ucp.shopping.catalog.search', 'dev.ucp.shopping.catalog.lookup', 'dev.ucp.shopping.cart']));
    const older = (await call(`${gateway.url}/.well-known/ucp/2026-01-11`)).body;
    expect(older.ucp.capabilities.map((c: Body) => c.name)).not.toContain('dev.ucp.shopping.cart');
  });

  it('searches, looks up, shows a product, fills a cart with what it found, updates and cancels it', async () => {
    const agent = platform();
    const found = valid(await agent.search({ query: 'cotton tee', filters: { price: { max: 3000 } }, context: { currency: 'USD', address_country: 'US' }, pagination: { limit: 3 } }), SEARCH);
    expect(found.products[0].id).toBe('tee');
    const looked = valid(await agent.lookup({ ids: ['tee', 'mug', 'nope'] }), LOOKUP);
    expect(looked.messages).toEqual([{ type: 'info', code: 'not_found', content: 'nope' }]);
    const detail = valid(await agent.product({ id: 'tee', selected: [{ name: 'Color', label: 'Blue' }] }), PRODUCT);
    const blue = detail.product.variants[0];
    expect(blue).toMatchObject({ id: 'tee-blue-s', price: { amount: 2750, currency: 'USD' } });

    const idempotencyKey = randomUUID();
    const body = { line_items: [{ item: { id: blue.id }, quantity: 2 }, { item: { id: looked.products[1].variants[0].id }, quantity: 1 }], context: { address_country: 'US' } };
    const cart = valid(await agent.createCart(body, idempotencyKey), CART, 201);
    expect(cart.totals).toEqual([
      { type: 'subtotal', display_text: 'Subtotal', amount: 2 * 2750 + 950 },
      { type: 'total', display_text: expect.any(String), amount: 2 * 2750 + 950 },
    ]);
    // The same request again is the same answer; the key with another body is a conflict.
    const replay = await agent.createCart(body, idempotencyKey);
    expect([replay.status, replay.body]).toEqual([201, cart]);
    expect((await agent.createCart({ line_items: [{ item: { id: 'mug' }, quantity: 5 }] }, idempotencyKey)).status).toBe(409);

    const updated = valid(await agent.updateCart(cart.id, { id: cart.id, line_items: [{ id: 'li_1', item: { id: blue.id }, quantity: 1 }] }), CART);
    expect(updated.line_items).toEqual([{ id: 'li_1', item: { id: 'tee-blue-s', title: 'Cotton tee', price: 2750 }, quantity: 1, totals: [{ type: 'subtotal', amount: 2750 }, { type: 'total', amount: 2750 }] }]);
    expect(valid(await agent.getCart(cart.id), CART)).toEqual(updated);

    const canceled = valid(await agent.cancelCart(cart.id), CART);
    expect(canceled.id).toBe(cart.id);
    expect(valid(await agent.getCart(cart.id), ERROR_RESPONSE).messages[0]).toMatchObject({ type: 'error', code: 'not_found', severity: 'unrecoverable' });
  });

  it("creates a checkout from a cart (cart_id) with the cart's lines, whatever line_items says, and returns it again for the same cart", async () => {
    const agent = platform();
    const cart = valid(await agent.createCart({ line_items: [{ item: { id: 'tee-blue-s' }, quantity: 2 }] }), CART, 201);
    const checkout = await agent.createCheckout({ cart_id: cart.id, line_items: [{ item: { id: 'mug' }, quantity: 5 }] });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(201);
    expect(schemaProblems('2026-04-08', checkoutSchemas('2026-04-08'), checkout.body)).toEqual([]);
    expect(checkout.body.line_items.map((line: Body) => [line.item.id, line.quantity, line.item.price])).toEqual([['tee-blue-s', 2, 2750]]);
    // Idempotent conversion (cart.md): the same cart gives the same open checkout; no line_items needed.
    const again = await agent.createCheckout({ cart_id: cart.id });
    expect(again.body.id).toBe(checkout.body.id);
    const unknown = await agent.createCheckout({ cart_id: 'cart_nothing', line_items: [] });
    expect(unknown.body.messages[0]).toMatchObject({ code: 'not_found', path: '$.cart_id' });
  });

  it('pages a search with the cursor it gave, and refuses one that is not ours', async () => {
    const agent = platform();
    const first = valid(await agent.search({ filters: { categories: ['socks'] }, pagination: { limit: 10 } }), SEARCH);
    expect(first.pagination).toEqual({ has_next_page: true, cursor: expect.any(String), total_count: 12 });
    const second = valid(await agent.search({ filters: { categories: ['socks'] }, pagination: { limit: 10, cursor: first.pagination.cursor } }), SEARCH);
    expect([second.products.length, second.pagination.has_next_page]).toEqual([2, false]);
    const bad = await agent.search({ query: 'tee', pagination: { cursor: 'not-ours' } });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_cursor']);
  });

  it("answers another merchant's cart, an unknown item and an unknown product as 200 error envelopes, changing nothing", async () => {
    const cart = valid(await platform().createCart({ line_items: [{ item: { id: 'mug' }, quantity: 1 }] }), CART, 201);
    const other = platform('2026-04-08', otherKey);
    for (const reply of [await other.getCart(cart.id), await other.updateCart(cart.id, { id: cart.id, line_items: [{ item: { id: 'mug' }, quantity: 9 }] }), await other.cancelCart(cart.id)]) {
      expect(valid(reply, ERROR_RESPONSE).messages[0].code).toBe('not_found');
    }
    const unknown = valid(await platform().updateCart(cart.id, { id: cart.id, line_items: [{ item: { id: 'ghost' }, quantity: 1 }] }), ERROR_RESPONSE);
    expect(unknown.messages[0]).toMatchObject({ code: 'item_unavailable', path: '$.line_items[0].item.id' });
    expect(valid(await platform().getCart(cart.id), CART)).toEqual(cart);
    expect(valid(await platform().product({ id: 'ghost' }), ERROR_RESPONSE).messages[0].code).toBe('not_found');
    const malformed = await platform().createCart({ line_items: [{ item: { id: 'mug' }, quantity: 0 }] });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'invalid_request']);
  });

  it('has no catalog or cart for a platform at 2026-01-11', async () => {
    const agent = platform('2026-01-11');
    for (const reply of [await agent.search({ query: 'tee' }), await agent.createCart({ line_items: [{ item: { id: 'mug' }, quantity: 1 }] })]) {
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ status: 'requires_escalation', messages: [{ type: 'error', code: 'not_found' }] });
    }
  });
});
