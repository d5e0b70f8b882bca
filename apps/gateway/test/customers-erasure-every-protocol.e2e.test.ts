/**
 * Erasure finds every trace of a buyer, whichever protocol they bought through: an ACP buyer known
 * only by the fulfillment contact (name, email, phone, address) and by `buyer`, a UCP buyer, are
 * customers of the merchant; `gateway customers erase --email` (PostgreSQL: the CLI needs the
 * database the gateway uses) and the admin API's erasure by customer id take their name, email and
 * address out of every read — ACP's and our API's session, the order, the admin order — and out of
 * every table (stored idempotent answers, `order.created` events, addresses), and report what they
 * removed. The admin audit log names the customer by id, never by email.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/statement.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { acpAgent, createBody, payWith, type AcpAgent } from './support/acp.js';
import { stocked } from './support/checkout.js';
import { runCli } from './support/cli.js';
import { call } from './support/http.js';
import { json, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let gateway: TestGateway;
let profiles: ProfileServer;
let key: string;
let operator: string;
let acp: AcpAgent;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ sku: 'chair-oak', price: 20, quantity: 1_000 }])]);
  await new WebhookStore(gateway.db).createEndpoint('shop', 'https://hooks.example/orders', 'whsec_erasure_shop_0123456789');
  key = await gateway.createKey({ merchantIds: ['shop'] });
  operator = (await gateway.services.admin.operators.create({ name: 'privacy desk', access: 'full', merchantIds: ['shop'] })).token;
  acp = acpAgent(gateway.url, key);
  profiles = await startProfileServer();
  profiles.route('/platform', json(shoppingPlatformProfile('2026-04-08')));
}, 60_000);

afterAll(async () => {
  await profiles?.close();
  await gateway?.close();
});

const api = (path: string) => call(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
const admin = (path: string, init: RequestInit = {}) => call(`${gateway.url}/admin${path}`, { ...init, headers: { authorization: `Bearer ${operator}` } });

/** Every row of every table that holds one of these words (any case), as `table: row`. */
async function traces(words: string[]): Promise<string[]> {
  const tables = await gateway.db.sql.query<{ name: string }>(sql`
    SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`);
  const found: string[] = [];
  for (const { name } of tables) {
    const rows = await gateway.db.sql.query<{ row: string }>({ text: `SELECT t::text AS row FROM "${name}" AS t`, values: [] } as never);
    for (const { row } of rows) if (words.some((word) => row.toLowerCase().includes(word))) found.push(`${name}: ${row.slice(0, 300)}`);
  }
  return found;
}

/** An ACP checkout, completed: the buyer named only as the fulfillment contact. */
async function acpOrder(contact: { name: string; email: string; phone_number: string }, address: Record<string, string>): Promise<{ sessionId: string; orderId: string }> {
  const created = await acp.create(createBody(['chair-oak'], { fulfillment_details: { ...contact, address } }));
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  await acp.update(id, { selected_fulfillment_options: [{ type: 'shipping', option_id: created.body.fulfillment_options[0].id, item_ids: ['chair-oak'] }] });
  const completed = await acp.complete(id, payWith('spt_test_approve'));
  expect(completed.status).toBe(200);
  return { sessionId: id, orderId: completed.body.order.id };
}

/** Every read that shows the session or its order, as text. */
async function reads(sessionId: string, orderId: string, protocolRead: () => Promise<{ status: number; body: unknown }> = () => acp.get(sessionId)): Promise<string> {
  const answers = [await protocolRead(), await api(`/checkout_sessions/${sessionId}`), await api(`/orders/${orderId}`), await admin(`/merchants/shop/orders/${orderId}`)];
  for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return JSON.stringify(answers.map((answer) => answer.body)).toLowerCase();
}

describe('erasure of a buyer of any protocol', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)('`customers erase --email` of an ACP-only buyer takes their name, email and address out of every read and every table, and says what it removed', async () => {
    const address = { name: 'Ada Lovelace', line_one: '12 Analytical Way', city: 'Portland', state: 'OR', country: 'US', postal_code: '97201' };
    const { sessionId, orderId } = await acpOrder({ name: 'Ada Lovelace', email: 'Ada.Lovelace@Example.com', phone_number: '+15550100' }, address);
    // A second session, left open, with the buyer named as `buyer`.
    const open = await acp.create(createBody(['chair-oak'], { buyer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada.lovelace@example.com' }, fulfillment_details: { name: 'Ada Lovelace', address } }));
    expect(open.status).toBe(201);
    // A third, written before the fulfillment contact was the session's customer: only ACP's state names the buyer.
    const legacy = await acp.create(createBody(['chair-oak'], { fulfillment_details: { name: 'Ada Lovelace', email: 'ada.lovelace@example.com', address } }));
    await gateway.db.sql.execute(sql`UPDATE checkout_sessions SET customer = NULL WHERE id = ${legacy.body.id as string}`);
    expect(await reads(sessionId, orderId)).toContain('lovelace');

    // The ACP-only buyer is a customer: shown by id as by email, every order of theirs listed.
    const customerId = (await api(`/orders/${orderId}`)).body.customer_id as string;
    const shown = await runCli(['customers', 'show', '--customer', customerId, '--merchant', 'shop'], { DATABASE_URL: gateway.db.url });
    expect(JSON.parse(shown.stdout)).toMatchObject({ email: 'ada.lovelace@example.com', customer: { id: customerId, name: 'Ada Lovelace' }, orders: [{ id: orderId }] });
    const erased = await runCli(['customers', 'erase', '--email', 'ADA.LOVELACE@example.com', '--merchant', 'shop'], { DATABASE_URL: gateway.db.url });
    expect(erased.stderr).toBe('');
    expect(erased.stdout).toMatch(/^erased ada\.lovelace@example\.com from merchant shop: 1 customer, 1 saved address, 3 checkout sessions cleared \(1 order kept with their totals\), [1-9]\d* webhook events? scrubbed, [1-9]\d* stored idempotent responses? deleted, 0 discount uses anonymized\n$/);

    expect(await reads(sessionId, orderId)).not.toMatch(/lovelace|analytical/);
    for (const id of [open.body.id, legacy.body.id]) expect(JSON.stringify((await acp.get(id)).body).toLowerCase()).not.toMatch(/lovelace|analytical/);
    expect(await traces(['lovelace', 'analytical', '5550100'])).toEqual([]);
  }, 120_000);

  it('the admin API erases a buyer of ACP and UCP by customer id; the answer counts what it removed; the audit log names the id, never the email', async () => {
    const { sessionId, orderId } = await acpOrder({ name: 'Grace Hopper', email: 'grace.hopper@example.com', phone_number: '+15550199' }, { name: 'Grace Hopper', line_one: '9 Cobol Rd', city: 'Salem', state: 'OR', country: 'US', postal_code: '97301' });
    const ucp = await call(`${gateway.url}/ucp/checkout-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'ucp-agent': `profile="${profiles.url}/platform"`, 'request-id': randomUUID(), 'idempotency-key': randomUUID() },
      json: { line_items: [{ item: { id: 'chair-oak' }, quantity: 1 }], buyer: { email: 'GRACE.HOPPER@example.com', first_name: 'Grace', last_name: 'Hopper' }, fulfillment: { methods: [{ type: 'shipping', destinations: [{ street_address: '9 Cobol Rd', address_locality: 'Salem', address_region: 'OR', postal_code: '97301', address_country: 'US', first_name: 'Grace', last_name: 'Hopper' }] }] } },
    });
    expect(ucp.status, JSON.stringify(ucp.body)).toBe(201);
    // The UCP checkout completed too: an order of the same customer.
    const ucpSend = (method: string, path: string, body: unknown) =>
      call(`${gateway.url}/ucp/checkout-sessions/${ucp.body.id}${path}`, { method, json: body, headers: { authorization: `Bearer ${key}`, 'ucp-agent': `profile="${profiles.url}/platform"`, 'request-id': randomUUID(), 'idempotency-key': randomUUID() } });
    const method = ucp.body.fulfillment.methods[0];
    const routed = await ucpSend('PUT', '', { id: ucp.body.id, line_items: [{ item: { id: 'chair-oak' }, quantity: 1 }], buyer: { email: 'GRACE.HOPPER@example.com', first_name: 'Grace', last_name: 'Hopper' }, fulfillment: { methods: [{ id: method.id, type: 'shipping', line_item_ids: ['li_1'], selected_destination_id: method.selected_destination_id, groups: [{ id: method.groups[0].id, selected_option_id: method.groups[0].options[0].id }] }] } });
    expect(routed.body.status, JSON.stringify(routed.body.messages)).toBe('ready_for_complete');
    const instrument = { id: 'instr_1', handler_id: 'mock_payment_handler', type: 'card', credential: { type: 'token', token: 'success_token' }, selected: true };
    const ucpDone = await ucpSend('POST', '/complete', { payment: { instruments: [instrument] } });
    expect(ucpDone.body.status).toBe('completed');
    expect((await api(`/orders/${ucpDone.body.order.id}`)).body.customer_id).toBe((await api(`/orders/${orderId}`)).body.customer_id);
    // And a UCP cart of theirs (a session row whose protocol state alone names the buyer).
    const ucpHeaders = () => ({ authorization: `Bearer ${key}`, 'ucp-agent': `profile="${profiles.url}/platform"`, 'request-id': randomUUID(), 'idempotency-key': randomUUID() });
    const cart = await call(`${gateway.url}/ucp/carts`, { method: 'POST', headers: ucpHeaders(), json: { line_items: [{ item: { id: 'chair-oak' }, quantity: 1 }], buyer: { email: 'grace.hopper@example.com', first_name: 'Grace', last_name: 'Hopper' } } });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const customerId = (await api(`/orders/${orderId}`)).body.customer_id as string;
    expect(customerId).toMatch(/^cus_/);
    // Customers are listed, shown and erased by id.
    const listed = (await admin('/merchants/shop/customers')).body.items as Body[];
    expect(listed.find((item) => item.email === 'grace.hopper@example.com')).toMatchObject({ id: customerId });
    expect((await admin(`/merchants/shop/customers/${customerId}`)).body).toMatchObject({ customer: { id: customerId, email: 'grace.hopper@example.com' } });

    // An email where the id belongs is refused (400), and neither its audit entry nor any other holds it.
    const byEmail = await admin('/merchants/shop/customers/grace.hopper@example.com', { method: 'DELETE' });
    expect(byEmail.status).toBe(400);
    expect(byEmail.body.error).toMatchObject({ type: 'invalid_request', param: 'customer_id' });
    const erased = await admin(`/merchants/shop/customers/${customerId}`, { method: 'DELETE' });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    expect(erased.body).toMatchObject({ customers: 1, addresses: 1, checkoutSessions: 3, orders: 2 });
    expect(erased.body.webhookEvents).toBeGreaterThan(0);
    expect(erased.body.idempotentResponses).toBeGreaterThan(0);
    expect((await admin(`/merchants/shop/customers/${customerId}`)).status).toBe(404);

    expect(await reads(sessionId, orderId)).not.toMatch(/hopper|cobol/);
    expect(await reads(ucp.body.id, ucpDone.body.order.id, () => ucpSend('GET', '', undefined))).not.toMatch(/hopper|cobol/);
    const ucpRead = await call(`${gateway.url}/ucp/checkout-sessions/${ucp.body.id}`, { headers: { authorization: `Bearer ${key}`, 'ucp-agent': `profile="${profiles.url}/platform"`, 'request-id': randomUUID() } });
    expect(ucpRead.body.id).toBe(ucp.body.id); // still the platform's checkout, without its buyer
    expect(JSON.stringify(ucpRead.body).toLowerCase()).not.toMatch(/hopper|cobol/);
    const cartRead = await call(`${gateway.url}/ucp/carts/${cart.body.id}`, { headers: ucpHeaders() });
    expect(cartRead.body.id).toBe(cart.body.id);
    expect(JSON.stringify(cartRead.body).toLowerCase()).not.toMatch(/hopper/);
    expect(await traces(['hopper', 'cobol', '5550199'])).toEqual([]);
    const audit = await gateway.db.sql.query<{ row: string }>(sql`SELECT t::text AS row FROM admin_audit_log AS t WHERE t.operation = 'removeCustomer'`);
    expect(audit.length).toBeGreaterThan(0);
    expect(audit.filter(({ row }) => row.includes(customerId))).toHaveLength(1);
    const entries = await gateway.db.sql.query<{ row: string }>(sql`SELECT t::text AS row FROM admin_audit_log AS t`);
    expect(entries.filter(({ row }) => /hopper|example\.com/i.test(row))).toEqual([]);
  }, 120_000);
});
