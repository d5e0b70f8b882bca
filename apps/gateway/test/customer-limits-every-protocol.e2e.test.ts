/**
 * A per-customer discount limit holds whichever protocol buys: the buyer of our API
 * (`customer.email`), of ACP (`buyer.email`, or only `fulfillment_details.email`), of UCP
 * (`buyer.email`) and of MCP (ACP's tools) is one customer, known by the normalized email, and every
 * completion records it with the order's redemptions. Concurrent completions by one email through
 * the four use a code limited to one use per customer exactly once. Runs on PostgreSQL
 * (TEST_DATABASE_URL) and on PGlite (test/pglite/vitest.config.ts).
 */
import { randomUUID } from 'node:crypto';
import { CommerceGateway } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/statement.js';
import { acpAgent, createBody, payWith, SF, type AcpAgent } from './support/acp.js';
import { stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import { call } from './support/http.js';
import { mcpAgent, type McpAgent } from './support/mcp.js';
import { json, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROUNDS = 3;
const CODES = Array.from({ length: ROUNDS + 1 }, (_, i) => ({ type: 'code', code: `ONCE${i}`, kind: 'fixed', amounts: { USD: 1 }, per_customer_limit: 1 }));
const OREGON = { line1: '1 Main St', city: 'Portland', state: 'OR', postal_code: '97201', country: 'US' };
const ACP_OREGON = { ...SF, line_one: '1 Main St', city: 'Portland', state: 'OR', postal_code: '97201' };
const UCP_OREGON = { street_address: '1 Main St', address_locality: 'Portland', address_region: 'OR', postal_code: '97201', address_country: 'US', first_name: 'Ada', last_name: 'Lovelace' };

let gateway: TestGateway;
let profiles: ProfileServer;
let key: string;
let gw: CommerceGateway;
let acp: AcpAgent;
let mcp: McpAgent;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ sku: 'chair-oak', price: 20, quantity: 1_000 }])]);
  await gateway.services.discounts.importFile('shop', catalogFile(CODES, 'discounts.ndjson'));
  key = await gateway.createKey({ merchantIds: ['shop'] });
  gw = new CommerceGateway({ apiKey: key, baseUrl: gateway.url, maxRetries: 0 });
  acp = acpAgent(gateway.url, key);
  mcp = await mcpAgent(gateway.url, key);
  profiles = await startProfileServer();
  profiles.route('/platform', json(shoppingPlatformProfile('2026-04-08')));
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await profiles?.close();
  await gateway?.close();
});

/** The uses of a code recorded, with the email each was recorded with. */
const uses = (code: string) =>
  gateway.db.sql.query<{ email: string | null; order_id: string }>(sql`SELECT email, order_id FROM discount_redemptions WHERE merchant_id = 'shop' AND key = ${code} ORDER BY created_at, order_id`);

/** Our API: a session with the code, ready to complete; completing it answers whether an order was placed. */
async function viaOurApi(email: string, code: string): Promise<() => Promise<boolean>> {
  const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair', variant_sku: 'chair-oak', quantity: 1 }], customer: { email }, shipping_address: OREGON, discount_codes: [code] });
  expect(session.discounts.applied.map((d) => d.code)).toEqual([code]);
  return async () => (await gw.checkoutSessions.complete(session.id).then(() => true, () => false));
}

/** ACP (over HTTP, or through MCP's ACP tools): the buyer given only as the fulfillment contact's email. */
async function viaAcp(email: string, code: string, through: 'http' | 'mcp' = 'http'): Promise<() => Promise<boolean>> {
  const created = await acp.create(createBody(['chair-oak'], { fulfillment_details: { name: 'Ada Lovelace', email, address: ACP_OREGON }, discounts: { codes: [code] } }));
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const option = created.body.fulfillment_options[0].id as string;
  const ready = await acp.update(id, { selected_fulfillment_options: [{ type: 'shipping', option_id: option, item_ids: ['chair-oak'] }] });
  expect(ready.body.status).toBe('ready_for_payment');
  expect(ready.body.discounts.applied.map((d: Body) => d.code)).toEqual([code]);
  if (through === 'http') return async () => (await acp.complete(id, payWith('spt_test_approve'))).status === 200;
  return async () => {
    const { result, error } = await mcp.call('complete_checkout_session', { meta: { api_version: '2026-04-17', idempotency_key: randomUUID() }, id, payload: payWith('spt_test_approve') });
    return !error && !result?.isError && (result?.structuredContent as Body)?.status === 'completed';
  };
}

/** UCP over REST: the buyer's email, a destination and an option chosen, the code applied. */
async function viaUcp(email: string, code: string): Promise<() => Promise<boolean>> {
  const send = (method: string, path: string, body: unknown) =>
    call(`${gateway.url}/ucp${path}`, { method, json: body, headers: { authorization: `Bearer ${key}`, 'ucp-agent': `profile="${profiles.url}/platform"`, 'request-id': randomUUID(), 'idempotency-key': randomUUID() } });
  const lines = [{ item: { id: 'chair-oak' }, quantity: 1 }];
  const buyer = { email, first_name: 'Ada', last_name: 'Lovelace' };
  const created = (await send('POST', '/checkout-sessions', { line_items: lines, buyer, fulfillment: { methods: [{ type: 'shipping', destinations: [UCP_OREGON] }] } })).body;
  const method = created.fulfillment.methods[0];
  const group = method.groups[0];
  const ready = (
    await send('PUT', `/checkout-sessions/${created.id}`, {
      id: created.id,
      line_items: lines,
      buyer,
      fulfillment: { methods: [{ id: method.id, type: 'shipping', line_item_ids: ['li_1'], selected_destination_id: method.selected_destination_id, groups: [{ id: group.id, selected_option_id: group.options[0].id }] }] },
      discounts: { codes: [code] },
    })
  ).body;
  expect(ready.status, JSON.stringify(ready.messages)).toBe('ready_for_complete');
  expect(ready.discounts.applied.map((d: Body) => d.code)).toEqual([code]);
  const instrument = { id: 'instr_1', handler_id: 'mock_payment_handler', type: 'card', credential: { type: 'token', token: 'success_token' }, selected: true };
  return async () => (await send('POST', `/checkout-sessions/${created.id}/complete`, { payment: { instruments: [instrument] } })).body.status === 'completed';
}

describe('a per-customer discount limit, whichever protocol buys', () => {
  it('records the normalized email of an ACP buyer known only by the fulfillment contact, and holds the limit across repeated ACP checkouts', async () => {
    const first = await viaAcp('Grace@Example.com', 'ONCE0');
    expect(await first()).toBe(true);
    expect(await uses('ONCE0')).toEqual([expect.objectContaining({ email: 'grace@example.com' })]);
    // The same buyer again: the code is refused (its own limit reached), whatever the case of the email.
    const again = await acp.create(createBody(['chair-oak'], { fulfillment_details: { name: 'Grace', email: 'GRACE@example.com', address: ACP_OREGON }, discounts: { codes: ['ONCE0'] } }));
    expect(again.body.discounts.applied).toEqual([]);
    expect(again.body.discounts.rejected).toEqual([expect.objectContaining({ code: 'ONCE0' })]);
    expect(await uses('ONCE0')).toHaveLength(1);
    // The buyer is a customer of the merchant.
    expect(await gateway.services.customers.findByEmail('shop', 'grace@example.com')).toMatchObject({ email: 'grace@example.com', name: 'Ada Lovelace' });
  });

  it.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))('round %i: concurrent completions by one email through our API, ACP, UCP and MCP use the code once', async (round) => {
    const code = `ONCE${round}`;
    const email = `ada.${round}@example.com`;
    const completions = await Promise.all([
      viaOurApi(email.toUpperCase(), code),
      viaAcp(` ${email}`.trim(), code),
      viaUcp(email.replace('ada', 'ADA'), code),
      viaAcp(email, code, 'mcp'),
    ]);
    const placed = await Promise.all(completions.map((complete) => complete()));
    const recorded = await uses(code);
    expect(recorded).toEqual([{ email, order_id: expect.stringMatching(/^ord_/) }]);
    // The completions refused gave the code up; at least the one that used it placed its order.
    expect(placed.filter(Boolean).length).toBeGreaterThanOrEqual(1);
  });
});
