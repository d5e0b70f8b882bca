/**
 * A UCP 2026-04-08 platform shops through MCP with the official client against a real gateway
 * whose catalog and cart REST operations do the work: search_catalog → lookup_catalog →
 * get_product → create_cart (replayed with its meta idempotency-key) → update_cart → get_cart →
 * cancel_cart; another merchant's key finds no such cart; a checkout from a cart (cart_id). Every result is validated against the
 * official schema of its operation.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpAgent, type McpAgent } from './support/mcp.js';
import { checkoutSchemas, ERROR_RESPONSE, schemaProblems } from './support/official-ucp.js';
import { apparel } from './support/ucp-catalog.js';
import { json, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const SHOPPING = 'https://ucp.dev/schemas/shopping';
const SEARCH = `${SHOPPING}/catalog_search.json#/$defs/search_response`;
const LOOKUP = `${SHOPPING}/catalog_lookup.json#/$defs/lookup_response`;
const PRODUCT = `${SHOPPING}/catalog_lookup.json#/$defs/get_product_response`;
const CART = `${SHOPPING}/cart.json`;

let gateway: TestGateway;
let profiles: ProfileServer;
let agent: McpAgent;
let rival: McpAgent;
let meta: (idempotencyKey?: string) => Record<string, unknown>;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('catshop', apparel());
  await gateway.importProducts('othershop', apparel());
  profiles = await startProfileServer();
  profiles.route('/platform/2026-04-08', json(shoppingPlatformProfile('2026-04-08')));
  const profile = `${profiles.url}/platform/2026-04-08`;
  meta = (idempotencyKey) => ({ 'ucp-agent': { profile }, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) });
  agent = await mcpAgent(gateway.url, await gateway.createKey({ merchantIds: ['catshop'] }));
  rival = await mcpAgent(gateway.url, await gateway.createKey({ merchantIds: ['othershop'] }));
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await rival?.close();
  await profiles?.close();
  await gateway?.close();
});

async function tool(name: string, args: Record<string, unknown>, schema: string, by = agent): Promise<Body> {
  const { result, error } = await by.call(name, args);
  expect(error, `${name}: ${JSON.stringify(error?.data)}`).toBeUndefined();
  const body = result!.structuredContent;
  expect(schemaProblems('2026-04-08', [schema], body)).toEqual([]);
  return body;
}

describe('UCP 2026-04-08 catalog and cart over MCP', () => {
  it('searches, looks up, shows a product, fills a cart, replays it, updates, reads and cancels it', async () => {
    const found = await tool('search_catalog', { meta: meta(), catalog: { query: 'cotton tee', context: { currency: 'USD', address_country: 'US' }, pagination: { limit: 3 } } }, SEARCH);
    expect(found.products[0].id).toBe('tee');
    const looked = await tool('lookup_catalog', { meta: meta(), catalog: { ids: ['tee', 'mug', 'nope'] } }, LOOKUP);
    expect(looked.messages).toEqual([{ type: 'info', code: 'not_found', content: 'nope' }]);
    const detail = await tool('get_product', { meta: meta(), catalog: { id: 'tee', selected: [{ name: 'Color', label: 'Blue' }] } }, PRODUCT);
    const blue = detail.product.variants[0];
    expect(blue).toMatchObject({ id: 'tee-blue-s' });

    const idempotencyKey = randomUUID();
    const cartBody = { line_items: [{ item: { id: blue.id }, quantity: 2 }], context: { address_country: 'US' } };
    const cart = await tool('create_cart', { meta: meta(idempotencyKey), cart: cartBody }, CART);
    expect(await tool('create_cart', { meta: meta(idempotencyKey), cart: cartBody }, CART)).toEqual(cart);

    const updated = await tool('update_cart', { meta: meta(), id: cart.id, cart: { line_items: [{ id: 'li_1', item: { id: blue.id }, quantity: 1 }] } }, CART);
    expect(updated.line_items).toEqual([expect.objectContaining({ id: 'li_1', quantity: 1 })]);
    expect(await tool('get_cart', { meta: meta(), id: cart.id }, CART)).toEqual(updated);

    const hidden = await tool('get_cart', { meta: meta(), id: cart.id }, ERROR_RESPONSE, rival);
    expect(hidden.messages[0]).toMatchObject({ type: 'error', code: 'not_found' });

    const canceled = await tool('cancel_cart', { meta: meta(randomUUID()), id: cart.id }, CART);
    expect(canceled.id).toBe(cart.id);
    expect((await tool('get_cart', { meta: meta(), id: cart.id }, ERROR_RESPONSE)).messages[0]).toMatchObject({ code: 'not_found' });
  });

  it('checks out from a cart (create_checkout with cart_id): the cart\'s lines', async () => {
    const cart = await tool('create_cart', { meta: meta(), cart: { line_items: [{ item: { id: 'tee-blue-s' }, quantity: 2 }] } }, CART);
    const { result, error } = await agent.call('create_checkout', { meta: meta(), checkout: { cart_id: cart.id } });
    expect(error, JSON.stringify(error?.data)).toBeUndefined();
    const checkout = result!.structuredContent as Body;
    expect(schemaProblems('2026-04-08', checkoutSchemas('2026-04-08'), checkout)).toEqual([]);
    expect(checkout.line_items.map((line: Body) => [line.item.id, line.quantity])).toEqual([['tee-blue-s', 2]]);
  });
});
