/**
 * ACP requests as agents send them, through real HTTP with every answer validated against the
 * official schemas. What the RFC (§4.1, §5) and the OpenAPI document's own examples send and the
 * 2026-04-17 JSON Schema lacks is taken — `quantity` on each line item, `items` as the name of
 * `line_items` — and what the schema leaves loose is refused with a 400 ACP Error naming the field,
 * changing nothing: decimal quantities (goods sold by measure: this catalog sells whole units),
 * fulfillment selections naming items not in the cart, over-long strings, countries that do not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpAgent, createBody, payWith, SF, type AcpAgent } from './support/acp.js';
import { bare, stocked } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let agent: AcpAgent;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [
    stocked('chair', [{ sku: 'chair-oak', price: 10.67, quantity: 20 }, { sku: 'chair-pine', price: 9.99, quantity: 20 }]),
    bare('item_123', 3, 10), // the RFC's example id
  ]);
  agent = acpAgent(gateway.url, await gateway.createKey({ merchantIds: ['shop'] }));
});

afterAll(() => gateway?.close());

type Session = { id: string; line_items: { item: { id: string }; quantity: number }[]; totals: { type: string; amount: number }[] };
const totals = (s: Session) => Object.fromEntries(s.totals.map((t) => [t.type, t.amount]));
const lines = (s: Session) => s.line_items.map((l) => [l.item.id, l.quantity]);
const sessionCount = () => gateway.db.prisma.checkoutSession.count();
const SHIP = { selected_fulfillment_options: [{ type: 'shipping', option_id: 'standard', item_ids: [] }] };
const KB10 = 'x'.repeat(10_240);

/** Asserts the request was refused with 400 invalid naming `param`, and that the session (if any) is as it was. */
async function expectRefused(reply: { status: number; body: Record<string, unknown> }, param: string, unchanged?: { id: string; before: unknown }) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body).toMatchObject({ type: 'invalid_request', code: 'invalid', param });
  if (unchanged) expect((await agent.get(unchanged.id)).body).toEqual(unchanged.before);
}

describe('quantity (the RFC\'s Item.quantity)', () => {
  it('buys two of a thing with quantity 2: one line of 2, totals for two units, as two entries of one would', async () => {
    const two = await agent.create(createBody([], { line_items: [{ id: 'chair-oak', quantity: 2 }], fulfillment_details: { address: SF } }));
    expect(two.status, JSON.stringify(two.body)).toBe(201);
    expect(two.body.line_items).toHaveLength(1);
    expect(two.body.line_items[0]).toMatchObject({ item: { id: 'chair-oak' }, quantity: 2, unit_amount: 1067 });
    expect(two.body.line_items[0].item).not.toHaveProperty('quantity'); // the official LineItem carries it; its Item cannot
    expect(totals(two.body)).toMatchObject({ items_base_amount: 2134, subtotal: 2134 });
    const twice = await agent.create(createBody(['chair-oak', 'chair-oak'], { fulfillment_details: { address: SF } }));
    expect(totals(two.body)).toEqual(totals(twice.body));
  });

  it('adds up entries of the same id, in the order the ids first appear, and takes quantity on update', async () => {
    const s = await agent.create(createBody([], { line_items: [{ id: 'chair-oak', quantity: 2 }, { id: 'chair-pine' }, { id: 'chair-oak' }] }));
    expect(lines(s.body)).toEqual([['chair-oak', 3], ['chair-pine', 1]]);
    const updated = await agent.update(s.body.id, { line_items: [{ id: 'chair-pine', quantity: 4 }] });
    expect(updated.status).toBe(200);
    expect(lines(updated.body)).toEqual([['chair-pine', 4]]);
    expect(totals(updated.body).items_base_amount).toBe(4 * 999);
  });

  it('orders the quantity bought and takes that many from stock', async () => {
    const s = await agent.create(createBody([], { line_items: [{ id: 'item_123', quantity: 3 }], fulfillment_details: { address: SF } }));
    await agent.update(s.body.id, SHIP);
    const done = await agent.complete(s.body.id, payWith('spt_test_approve'));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(lines(done.body)).toEqual([['item_123', 3]]);
    expect((await gateway.db.prisma.product.findFirst({ where: { id: 'item_123' } }))!.quantity).toBe(7);
  });

  it('refuses a decimal quantity (ACP\'s goods sold by measure) with a message saying why, naming $.line_items[0].quantity, creating nothing', async () => {
    const before = await sessionCount();
    const decimal = await agent.create(createBody([], { line_items: [{ id: 'chair-oak', quantity: 2.5 }] }));
    await expectRefused(decimal, '$.line_items[0].quantity');
    expect(decimal.body.message).toMatch(/2\.5.*decimal.*whole units/);
    for (const quantity of [0, -1, 1000, '2', null]) {
      await expectRefused(await agent.create(createBody([], { line_items: [{ id: 'chair-pine' }, { id: 'chair-oak', quantity }] })), '$.line_items[1].quantity');
    }
    // at most 999 of one item, however many entries name it
    const summed = await agent.create(createBody([], { line_items: [{ id: 'chair-oak', quantity: 999 }, { id: 'chair-oak', quantity: 1 }] }));
    await expectRefused(summed, '$.line_items[1].quantity');
    expect(summed.body.message).toMatch(/1000 units.*at most 999/);
    expect(await sessionCount()).toBe(before);
  });

  it('refuses a decimal quantity on update too, leaving the session as it was', async () => {
    const s = await agent.create(createBody(['chair-oak']));
    const before = (await agent.get(s.body.id)).body;
    const half = await agent.update(s.body.id, { line_items: [{ id: 'chair-oak', quantity: 0.5 }] });
    await expectRefused(half, '$.line_items[0].quantity', { id: s.body.id, before });
    expect(half.body.message).toMatch(/0\.5.*whole number from 1 to 999/);
  });
});

describe('items, the RFC\'s name for line_items', () => {
  it('creates a session from the RFC §4.1 request as written (with the currency and capabilities the schema requires)', async () => {
    const rfc41 = {
      items: [{ id: 'item_123', quantity: 1 }],
      buyer: { first_name: 'John', last_name: 'Smith', email: 'john@example.com' },
      fulfillment_details: {
        name: 'John Smith',
        phone_number: '15551234567',
        email: 'john@example.com',
        address: { name: 'John Smith', line_one: '1234 Chat Road', line_two: '', city: 'San Francisco', state: 'CA', country: 'US', postal_code: '94102' },
      },
    };
    const reply = await agent.create({ ...rfc41, currency: 'usd', capabilities: {} });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(lines(reply.body)).toEqual([['item_123', 1]]);
    expect(reply.body.buyer).toEqual(rfc41.buyer);
    expect(reply.body.fulfillment_details).toEqual(rfc41.fulfillment_details);
  });

  it('takes items on update, names errors by it, and refuses items beside line_items, naming $.items', async () => {
    const s = await agent.create({ items: [{ id: 'chair-oak', quantity: 2 }], currency: 'usd', capabilities: {} });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    expect(lines(s.body)).toEqual([['chair-oak', 2]]);
    const updated = await agent.update(s.body.id, { items: [{ id: 'chair-pine', quantity: 3 }] });
    expect(lines(updated.body)).toEqual([['chair-pine', 3]]);
    const before = (await agent.get(s.body.id)).body;
    await expectRefused(await agent.update(s.body.id, { items: [{ id: 'chair-oak' }, { id: 'no-such-item' }] }), '$.items[1].id', { id: s.body.id, before });
    await expectRefused(await agent.update(s.body.id, { items: [{ id: 'chair-oak', quantity: 1.5 }] }), '$.items[0].quantity', { id: s.body.id, before });
    await expectRefused(await agent.update(s.body.id, { items: [{ id: 'chair-oak' }], line_items: [{ id: 'chair-oak' }] }), '$.items', { id: s.body.id, before });
    const count = await sessionCount();
    await expectRefused(await agent.create(createBody(['chair-oak'], { items: [{ id: 'chair-oak' }] })), '$.items');
    const neither = await agent.create({ currency: 'usd', capabilities: {} });
    await expectRefused(neither, '$.line_items');
    expect(neither.body.message).toContain('items');
    expect(await sessionCount()).toBe(count);
  });
});

describe('selected_fulfillment_options', () => {
  it('refuses item_ids that name no item of the cart, naming the entry, and leaves the session as it was', async () => {
    const s = await agent.create(createBody(['chair-oak'], { fulfillment_details: { address: SF } }));
    const before = (await agent.get(s.body.id)).body;
    const unknown = await agent.update(s.body.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: 'standard', item_ids: ['chair-oak', 'lamp-nowhere'] }] });
    await expectRefused(unknown, '$.selected_fulfillment_options[0].item_ids[1]', { id: s.body.id, before });
    expect(unknown.body.message).toContain('lamp-nowhere');
    expect(before.selected_fulfillment_options).toBeUndefined();
    // the ids of the cart the same update leaves count, not the old cart's
    const swapped = await agent.update(s.body.id, { line_items: [{ id: 'chair-pine' }], selected_fulfillment_options: [{ type: 'shipping', option_id: 'standard', item_ids: ['chair-oak'] }] });
    await expectRefused(swapped, '$.selected_fulfillment_options[0].item_ids[0]', { id: s.body.id, before });
  });

  it('takes the cart\'s item ids, its line ids, or [] for the whole cart', async () => {
    for (const itemIds of [['chair-oak'], ['li_1'], []]) {
      const s = await agent.create(createBody(['chair-oak'], { fulfillment_details: { address: SF } }));
      const chosen = await agent.update(s.body.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: 'standard', item_ids: itemIds }] });
      expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
      expect(chosen.body.status).toBe('ready_for_payment');
    }
  });
});

describe('strings and countries', () => {
  const address = (fields: Record<string, string> = {}) => ({ ...SF, ...fields });

  it('refuses a 10 KB buyer.email, name or phone on create, creating nothing', async () => {
    const before = await sessionCount();
    const email = await agent.create(createBody(['chair-oak'], { buyer: { email: `${KB10}@example.com` } }));
    await expectRefused(email, '$.buyer.email');
    expect(email.body.message).toBe('$.buyer.email is longer than 320 characters');
    await expectRefused(await agent.create(createBody(['chair-oak'], { buyer: { email: 'a@example.com', first_name: KB10 } })), '$.buyer.first_name');
    await expectRefused(await agent.create(createBody(['chair-oak'], { buyer: { email: 'a@example.com', phone_number: KB10 } })), '$.buyer.phone_number');
    await expectRefused(await agent.create(createBody(['chair-oak'], { fulfillment_details: { email: `${KB10}@example.com` } })), '$.fulfillment_details.email');
    // first and last names together must make a name our own API can show (200 characters)
    await expectRefused(await agent.create(createBody(['chair-oak'], { buyer: { email: 'a@example.com', first_name: 'x'.repeat(150), last_name: 'y'.repeat(150) } })), '$.buyer');
    expect(await sessionCount()).toBe(before);
  });

  it('refuses a 10 KB address.state (or any address field) on update, leaving the session as it was; 200 characters pass', async () => {
    const s = await agent.create(createBody(['chair-oak']));
    const before = (await agent.get(s.body.id)).body;
    const state = await agent.update(s.body.id, { fulfillment_details: { address: address({ state: KB10 }) } });
    await expectRefused(state, '$.fulfillment_details.address.state', { id: s.body.id, before });
    expect(state.body.message).toBe('$.fulfillment_details.address.state is longer than 200 characters');
    for (const field of ['name', 'line_one', 'line_two', 'city', 'postal_code']) {
      await expectRefused(await agent.update(s.body.id, { fulfillment_details: { address: address({ [field]: KB10 }) } }), `$.fulfillment_details.address.${field}`, { id: s.body.id, before });
    }
    const longest = await agent.update(s.body.id, { fulfillment_details: { address: address({ state: 'x'.repeat(200) }) } });
    expect(longest.status).toBe(200);
  });

  it('refuses a country that is no ISO 3166-1 alpha-2 code (ZZ), on create, update and a billing address; US in any case passes', async () => {
    const before = await sessionCount();
    const zz = await agent.create(createBody(['chair-oak'], { fulfillment_details: { address: address({ country: 'ZZ' }) } }));
    await expectRefused(zz, '$.fulfillment_details.address.country');
    expect(zz.body.message).toMatch(/ISO 3166-1 alpha-2.*"ZZ"/);
    expect(await sessionCount()).toBe(before);

    const s = await agent.create(createBody(['chair-oak'], { fulfillment_details: { address: address({ country: 'us' }) } }));
    expect(s.status).toBe(201);
    await agent.update(s.body.id, SHIP);
    const ready = (await agent.get(s.body.id)).body;
    expect(ready.status).toBe('ready_for_payment');
    for (const country of ['ZZ', 'XK', 'EU', 'U1']) {
      await expectRefused(await agent.update(s.body.id, { fulfillment_details: { address: address({ country }) } }), '$.fulfillment_details.address.country', { id: s.body.id, before: ready });
    }
    const billing = await agent.complete(s.body.id, payWith('spt_test_approve', { payment_data: { ...payWith('spt_test_approve').payment_data, billing_address: address({ country: 'ZZ' }) } }));
    await expectRefused(billing, '$.payment_data.billing_address.country', { id: s.body.id, before: ready });
    expect(await gateway.db.prisma.order.count({ where: { checkoutSessionId: s.body.id } })).toBe(0);
  });
});
