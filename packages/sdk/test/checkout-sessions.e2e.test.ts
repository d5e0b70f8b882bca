/** The checkout lifecycle against a real gateway. */
import { beforeAll, describe, expect, it } from 'vitest';
import { CommerceGateway, type Product, type ResponseEvent } from '../src/index.js';
import { buyableProducts } from './support/catalog.js';
import { gatewayUnderTest } from './support/gateway-under-test.js';

const { url, keys } = gatewayUnderTest();
const events: ResponseEvent[] = [];
const gw = new CommerceGateway({ apiKey: keys.main, baseUrl: url, onResponse: (event) => events.push(event) });
const address = { name: 'Ada Lovelace', line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

let products: Product[];
beforeAll(async () => {
  products = await buyableProducts(gw, 2);
});

describe('checkoutSessions', () => {
  it('create → retrieve → update → complete', async () => {
    const [a, b] = products as [Product, Product];
    const created = await gw.checkoutSessions.create({ items: [{ product_id: a.id, quantity: 2 }] });
    expect(created).toMatchObject({ status: 'open', currency: 'USD', payment_method: 'demo_card', order: null });
    expect(created.id).toMatch(/^cs_/);
    expect(created.line_items).toEqual([expect.objectContaining({ product_id: a.id, quantity: 2 })]);

    expect(await gw.checkoutSessions.retrieve(created.id)).toEqual(created);

    const updated = await gw.checkoutSessions.update(created.id, { items: [{ product_id: b.id }], shipping_address: address, customer: { email: 'ada@example.com' } });
    expect(updated.line_items.map((l) => l.product_id)).toEqual([b.id]);
    expect(updated.tax.rate).toBe(0.0725);
    expect(updated.customer).toEqual({ email: 'ada@example.com' });

    const completed = await gw.checkoutSessions.complete(created.id);
    expect(completed.status).toBe('completed');
    expect(completed.order).toMatchObject({ checkout_session_id: created.id, status: 'created' });
    expect(await gw.checkoutSessions.retrieve(created.id)).toMatchObject({ status: 'completed', order: completed.order });
  });

  it('cancel', async () => {
    const created = await gw.checkoutSessions.create({ items: [{ product_id: products[0]!.id }] });
    const canceled = await gw.checkoutSessions.cancel(created.id);
    expect(canceled).toMatchObject({ id: created.id, status: 'canceled', order: null });
  });

  it('sends an Idempotency-Key on every write, a new one per call', async () => {
    events.length = 0;
    const created = await gw.checkoutSessions.create({ items: [{ product_id: products[0]!.id }] });
    await gw.checkoutSessions.update(created.id, { payment_method: 'tok_visa' });
    await gw.checkoutSessions.retrieve(created.id);
    await gw.checkoutSessions.cancel(created.id);
    const keys = events.map((e) => [e.method, e.idempotencyKey !== undefined]);
    expect(keys).toEqual([['POST', true], ['PATCH', true], ['GET', false], ['POST', true]]);
    expect(new Set(events.map((e) => e.idempotencyKey).filter(Boolean)).size).toBe(3);
  });

  it("replays the stored answer for a caller's repeated Idempotency-Key: one session, not two", async () => {
    events.length = 0;
    const body = { items: [{ product_id: products[1]!.id }] };
    const first = await gw.checkoutSessions.create(body, { idempotencyKey: `order-${Date.now()}` });
    const again = await gw.checkoutSessions.create(body, { idempotencyKey: events[0]!.idempotencyKey! });
    expect(again).toEqual(first);
    expect(events.map((e) => [e.status, e.replayed])).toEqual([[201, false], [201, true]]);
  });

  it('two concurrent calls with one Idempotency-Key give one session (a 409 in flight, if one occurs, is retried)', async () => {
    events.length = 0;
    const key = `concurrent-${Date.now()}`;
    const body = { items: [{ product_id: products[0]!.id }] };
    const [x, y] = await Promise.all([gw.checkoutSessions.create(body, { idempotencyKey: key }), gw.checkoutSessions.create(body, { idempotencyKey: key })]);
    expect(x.id).toBe(y.id);
    const answers = events.map((e) => e.status);
    expect(answers.filter((s) => s === 201)).toHaveLength(2);
    expect(answers.every((s) => s === 201 || s === 409)).toBe(true);
    expect(events.filter((e) => e.status === 201 && e.replayed)).toHaveLength(1);
  });
});
