/**
 * Customers with saved addresses, end to end: the SDK against a running gateway. A new buyer's
 * completed session creates the customer and saves the address; a later session for the same email
 * (any case) is offered it and ships there by id, or matches it when the same address is typed
 * again (case, spacing); another buyer's address id, or both an address and an id, is refused
 * naming the field; consent is stored; a merchant never sees another's customers; orders list by
 * customer; an imported customer's address ids are kept and offered; erasure leaves the orders'
 * totals and takes the personal fields out.
 */
import { CommerceGateway, InvalidRequestError, type CheckoutSession } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeErrors, schemaValidator } from '../src/contract/schema-validator.js';
import { stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const HOME = { name: 'Ada Lovelace', line1: '12 St James’s Square', city: 'London', postal_code: 'SW1Y 4JH', country: 'GB' };
const HOME_TYPED_AGAIN = { name: 'ada  lovelace', line1: '12 st james’s square ', city: 'LONDON', postal_code: 'sw1y 4jh', country: 'gb' };
const WORK = { name: 'Ada Lovelace', line1: '1 Market St', city: 'San Francisco', state: 'CA', country: 'US' };

let gateway: TestGateway;
let gw: CommerceGateway;
let other: CommerceGateway;
const validSession = schemaValidator('CheckoutSession');

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ price: 20, quantity: 1_000 }])]);
  await gateway.importProducts('elsewhere', [stocked('stool', [{ price: 10, quantity: 1_000 }])]);
  gw = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: ['shop'] }), baseUrl: gateway.url, maxRetries: 0 });
  other = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: ['elsewhere'] }), baseUrl: gateway.url, maxRetries: 0 });
}, 60_000);
afterAll(() => gateway?.close());

const checked = (session: CheckoutSession) => {
  expect(validSession(session), describeErrors(validSession.errors)).toBe(true);
  return session;
};
const refusal = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('accepted'), (error: unknown) => error as InvalidRequestError);

describe('a buyer remembered', () => {
  let customerId: string;
  let homeId: string;

  it('a new buyer’s completion creates the customer and saves the address', async () => {
    const session = checked(await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], customer: { email: 'ada@example.com', name: 'Ada', consent: { marketing: true, sale_of_data: false } }, shipping_address: HOME }));
    expect(session).toMatchObject({ customer_id: null, shipping_address_id: null, saved_addresses: [] });
    const completed = checked(await gw.checkoutSessions.complete(session.id));
    expect(completed.customer_id).toMatch(/^cus_/);
    expect(completed.shipping_address_id).toMatch(/^addr_/);
    customerId = completed.customer_id!;
    homeId = completed.shipping_address_id!;
    expect((await gw.orders.retrieve(completed.order!.id)).customer_id).toBe(customerId);
    const data = await gateway.services.customers.exportData('shop', 'ada@example.com');
    expect(data).toMatchObject({ customer: { id: customerId, name: 'Ada' }, consent: { marketing: true, analytics: null, sale_of_data: false } });
    expect(data.consent!.updated_at).toEqual(expect.any(String));
    expect(data.orders.map((o) => o.id)).toEqual([completed.order!.id]);
  });

  it('a later session for the email (any case) is offered the saved address and ships there by id', async () => {
    const session = checked(await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], customer: { email: 'ADA@Example.com' } }));
    expect(session.customer_id).toBe(customerId);
    expect(session.saved_addresses).toEqual([{ id: homeId, address: HOME }]);
    const chosen = checked(await gw.checkoutSessions.update(session.id, { shipping_address_id: homeId }));
    expect(chosen).toMatchObject({ shipping_address: HOME, shipping_address_id: homeId });
    expect(chosen.tax.rate).toBe(0.2); // GB, from the saved address
    const completed = await gw.checkoutSessions.complete(session.id);
    expect(completed.shipping_address_id).toBe(homeId); // the same address: no second one saved
    expect((await gateway.services.customers.findByEmail('shop', 'ada@example.com'))!.addresses.map((a) => a.id)).toEqual([homeId]);
  });

  it('the same address typed again takes the saved one’s id; a new one is saved beside it at completion', async () => {
    const again = checked(await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], customer: { email: 'ada@example.com' }, shipping_address: HOME_TYPED_AGAIN }));
    expect(again.shipping_address_id).toBe(homeId);
    const work = checked(await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], customer: { email: 'ada@example.com' }, shipping_address: WORK }));
    expect(work.shipping_address_id).toBeNull();
    const completed = await gw.checkoutSessions.complete(work.id);
    expect(completed.shipping_address_id).toMatch(/^addr_/);
    expect(completed.shipping_address_id).not.toBe(homeId);
    const later = checked(await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], customer: { email: 'ada@example.com' } }));
    expect(later.saved_addresses.map((a) => a.id)).toEqual([completed.shipping_address_id, homeId]); // newest first
  });

  it('refuses another buyer’s address id, an id without an email, and an address with an id, naming shipping_address_id', async () => {
    const grace = await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], customer: { email: 'grace@example.com' }, shipping_address: WORK });
    const graceId = (await gw.checkoutSessions.complete(grace.id)).shipping_address_id!;
    const ada = await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], customer: { email: 'ada@example.com' } });
    expect((await refusal(gw.checkoutSessions.update(ada.id, { shipping_address_id: graceId }))).param).toBe('shipping_address_id');
    expect((await refusal(gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], shipping_address_id: homeId }))).param).toBe('shipping_address_id');
    expect((await refusal(gw.checkoutSessions.update(ada.id, { shipping_address: WORK, shipping_address_id: homeId }))).param).toBe('shipping_address_id');
    expect(await gw.checkoutSessions.retrieve(ada.id)).toMatchObject({ shipping_address: null, shipping_address_id: null });
  });

  it('another merchant knows nothing of the buyer, and cannot use their address ids', async () => {
    const session = checked(await other.checkoutSessions.create({ items: [{ product_id: 'stool' }], customer: { email: 'ada@example.com' } }));
    expect(session).toMatchObject({ customer_id: null, saved_addresses: [] });
    expect((await refusal(other.checkoutSessions.update(session.id, { shipping_address_id: homeId }))).param).toBe('shipping_address_id');
  });

  it('lists a customer’s orders', async () => {
    const page = await gw.orders.list({ customer_id: customerId });
    expect(page.items.length).toBe(3);
    for (const order of page.items) expect(order.customer_id).toBe(customerId);
    expect((await gw.orders.list({ customer_id: 'cus_nobody' })).items).toEqual([]);
  });
});

describe('imported customers', () => {
  it('keep their address ids, which sessions offer and ship to', async () => {
    const file = catalogFile([{ email: 'Lin@Example.com', name: 'Lin', addresses: [{ id: 'home-1', line1: '1 Rue de Rivoli', city: 'Paris', country: 'FR' }] }], 'customers.ndjson');
    await gateway.services.customers.importFile('shop', file);
    const session = checked(await gw.checkoutSessions.create({ items: [{ product_id: 'chair' }], customer: { email: 'lin@example.com' }, shipping_address_id: 'home-1' }));
    expect(session).toMatchObject({ shipping_address_id: 'home-1', shipping_address: { line1: '1 Rue de Rivoli', city: 'Paris', country: 'FR' } });
    expect(session.customer_id).toMatch(/^cus_/);
  });
});

describe('erasure', () => {
  it('keeps the orders’ totals and takes the personal fields out', async () => {
    const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair', quantity: 2 }], customer: { email: 'erase.me@example.com', name: 'Eve' }, shipping_address: WORK });
    const completed = await gw.checkoutSessions.complete(session.id);
    const before = await gw.orders.retrieve(completed.order!.id);
    await gateway.services.customers.erase('shop', 'erase.me@example.com');
    const after = await gw.orders.retrieve(completed.order!.id);
    expect(after).toMatchObject({ customer: null, customer_id: null, shipping_address: null, amounts: before.amounts, line_items: before.line_items, status: before.status });
    expect(await gw.checkoutSessions.retrieve(session.id)).toMatchObject({ customer: null, customer_id: null, shipping_address: null, shipping_address_id: null, saved_addresses: [] });
    expect(await gateway.services.customers.findByEmail('shop', 'erase.me@example.com')).toBeNull();
  });
});
