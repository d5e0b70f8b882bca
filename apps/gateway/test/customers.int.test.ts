/**
 * Customers on the database (PostgreSQL when TEST_DATABASE_URL is set, else PGlite): buyers
 * remembered once per email with their addresses deduplicated (also by concurrent completions),
 * saved addresses usable only by their own customer of their own merchant, files imported all or
 * nothing and exported back with their address ids, and an erasure that takes a buyer out of
 * sessions, events, idempotent answers and redemptions while orders keep their totals.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../src/catalog/import/catalog-importer.js';
import type { CustomerService } from '../src/customers/customer-service.js';
import { sql } from '../src/db/statement.js';
import { DiscountStore } from '../src/discounts/discount-store.js';
import { buildServices, type Services } from '../src/services.js';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let services: Services;
let customers: CustomerService;

beforeAll(async () => {
  db = await createTestDatabase();
  services = buildServices(db, { config: { env: 'development', webhookAllowPrivateTargets: true } });
  customers = services.customers;
  for (const merchant of ['shop-a', 'shop-b', 'shop-e']) await importCatalog(db, merchant, catalogFile([stocked('chair')]));
}, 120_000);
afterAll(async () => {
  await services?.catalog.close();
  await db?.close();
});

/** How many rows of the merchant a table holds. */
const count = async (table: 'customers' | 'customer_addresses' | 'idempotency_records', merchantId: string) => {
  const [row] = await db.sql.query<{ customers: number; customer_addresses: number; idempotency_records: number }>(sql`
    SELECT (SELECT count(*)::int FROM customers WHERE merchant_id = ${merchantId}) AS customers,
      (SELECT count(*)::int FROM customer_addresses WHERE merchant_id = ${merchantId}) AS customer_addresses,
      (SELECT count(*)::int FROM idempotency_records WHERE merchant_id = ${merchantId}) AS idempotency_records`);
  return row![table];
};

describe('remembering buyers', () => {
  it('upserts the customer by normalized email and saves an address once, however it is spaced or cased', async () => {
    const first = await db.transaction((tx) => customers.remember(tx, 'shop-a', { email: ' Ada@Example.com', name: 'Ada', address: { ...SF_ADDRESS, line1: '1  Market St' } }));
    const again = await db.transaction((tx) => customers.remember(tx, 'shop-a', { email: 'ada@example.COM', phone: '+1 555 0100', consent: { marketing: true }, address: { ...SF_ADDRESS, line1: '1 market st ', country: 'us' } }));
    expect(again).toEqual(first);
    expect(first.customerId).toMatch(/^cus_/);
    expect(first.addressId).toMatch(/^addr_/);
    const other = await db.transaction((tx) => customers.remember(tx, 'shop-a', { email: 'ada@example.com', address: { ...SF_ADDRESS, line2: 'Apt 4' } }));
    expect(other.addressId).not.toBe(first.addressId);
    const customer = await customers.findByEmail('shop-a', 'ADA@example.com');
    expect(customer).toMatchObject({ id: first.customerId, email: 'ada@example.com', name: 'Ada', phone: '+1 555 0100', consent: { marketing: true, analytics: null, saleOfData: null } });
    expect(customer!.consent.updatedAt).toBeInstanceOf(Date);
    expect(customer!.addresses.map((a) => a.id)).toEqual([other.addressId, first.addressId]); // newest first
    expect(customer!.addresses[1]!.address).toEqual({ ...SF_ADDRESS, line1: '1  Market St' }); // as first given, trimmed
    expect(await customers.matchSavedAddress('shop-a', 'ada@example.com', { ...SF_ADDRESS, line1: '1 MARKET ST' })).toBe(first.addressId);
    expect(await customers.matchSavedAddress('shop-a', 'ada@example.com', { ...SF_ADDRESS, city: 'Oakland' })).toBeNull();
    expect(await customers.findByEmail('shop-a', 'nobody@example.com')).toBeNull();
  });

  it('keeps name and consents when a later call leaves them out, saves no address without line1, city and country', async () => {
    await db.transaction((tx) => customers.remember(tx, 'shop-a', { email: 'bo@example.com', name: 'Bo', consent: { analytics: false } }));
    const later = await db.transaction((tx) => customers.remember(tx, 'shop-a', { email: 'bo@example.com', address: { city: 'Paris', country: 'FR' } }));
    expect(later.addressId).toBeNull();
    expect(await customers.findByEmail('shop-a', 'bo@example.com')).toMatchObject({ name: 'Bo', consent: { marketing: null, analytics: false }, addresses: [] });
  });

  it('works inside the caller\'s transaction: rolled back with it', async () => {
    await expect(db.transaction(async (tx) => {
      await customers.remember(tx, 'shop-a', { email: 'rolled@example.com', address: SF_ADDRESS });
      expect(await customers.findByEmail('shop-a', 'rolled@example.com', tx)).not.toBeNull();
      throw new Error('payment declined');
    })).rejects.toThrow('payment declined');
    expect(await customers.findByEmail('shop-a', 'rolled@example.com')).toBeNull();
  });

  it('yields one customer and one address from 20 concurrent completions of one email', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      db.transaction(async (tx) => {
        const remembered = await customers.remember(tx, 'shop-a', { email: i % 2 ? 'Race@Example.com' : 'race@example.com ', name: `Racer ${i}`, address: { ...SF_ADDRESS, line1: i % 2 ? '9 Race Rd' : '9  race rd' } });
        await tx.query(sql`SELECT pg_sleep(0.005)`); // the rest of a completion
        return remembered;
      })));
    expect(new Set(results.map((r) => r.customerId)).size).toBe(1);
    expect(new Set(results.map((r) => r.addressId)).size).toBe(1);
    const [row] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM customers WHERE merchant_id = 'shop-a' AND email = 'race@example.com'`);
    expect(row!.n).toBe(1);
    expect((await customers.findByEmail('shop-a', 'race@example.com'))!.addresses).toHaveLength(1);
  }, 60_000);
});

describe('saved addresses by id', () => {
  it('are usable only by their own customer of their own merchant', async () => {
    const ann = await db.transaction((tx) => customers.remember(tx, 'shop-a', { email: 'ann@example.com', address: SF_ADDRESS }));
    await db.transaction((tx) => customers.remember(tx, 'shop-a', { email: 'cat@example.com', address: SF_ADDRESS }));
    await db.transaction((tx) => customers.remember(tx, 'shop-b', { email: 'ann@example.com', address: SF_ADDRESS }));
    expect(await customers.addressById('shop-a', ' ANN@example.com', ann.addressId!)).toMatchObject({ id: ann.addressId, address: SF_ADDRESS });
    expect(await customers.addressById('shop-a', 'cat@example.com', ann.addressId!)).toBeNull(); // another customer's
    expect(await customers.addressById('shop-b', 'ann@example.com', ann.addressId!)).toBeNull(); // another merchant's
    expect(await customers.addressById('shop-a', 'ann@example.com', 'addr_nope')).toBeNull();
  });
});

describe('customers files', () => {
  const RECORDS = [
    { email: 'dee@example.com', name: 'Dee', phone: '+1 555 0101', consent: { marketing: true, analytics: false, sale_of_data: false }, addresses: [{ id: 'dee-home', ...SF_ADDRESS }, { line1: '2 Pine St', city: 'Portland', state: 'OR', country: 'US' }] },
    { email: 'eve@example.com', addresses: [{ id: 'eve_1', name: 'Eve', line1: '3 Elm St', line2: 'Unit 5', city: 'Austin', state: 'TX', postal_code: '73301', country: 'US' }] },
    { email: 'fay@example.com', consent: { sale_of_data: true } },
  ];

  it('imports all of a file, exports it back with the ids kept, and imports the export again unchanged', async () => {
    expect(await customers.importFile('shop-files', catalogFile(RECORDS, 'customers.ndjson'))).toEqual({ customers: 3, addresses: 3 });
    const exported = await customers.export('shop-files');
    expect(exported.map((r) => r.email)).toEqual(['dee@example.com', 'eve@example.com', 'fay@example.com']);
    expect(exported[0]).toMatchObject({ email: 'dee@example.com', name: 'Dee', phone: '+1 555 0101', consent: RECORDS[0]!.consent });
    expect(exported[0]!.addresses![0]).toEqual({ id: 'dee-home', ...SF_ADDRESS });
    expect(exported[0]!.addresses![1]).toMatchObject({ id: expect.stringMatching(/^addr_/), line1: '2 Pine St' });
    expect(exported[1]).toEqual(RECORDS[1]);
    expect(exported[2]).toEqual(RECORDS[2]);
    const file = catalogFile([], 'export.json');
    writeFileSync(file, JSON.stringify(exported, null, 2)); // a JSON array this time
    expect(await customers.importFile('shop-files', file)).toEqual({ customers: 3, addresses: 3 });
    expect(await customers.export('shop-files')).toEqual(exported);
    // An address given again by id is updated in place; one equal to a saved one is not added twice.
    await customers.importFile('shop-files', catalogFile([{ email: 'DEE@example.com', addresses: [{ id: 'dee-home', ...SF_ADDRESS, line2: 'Floor 2' }, { line1: '2 pine st', city: 'PORTLAND', state: 'or', country: 'us' }] }]));
    const dee = await customers.findByEmail('shop-files', 'dee@example.com');
    expect(dee!.addresses).toHaveLength(2);
    expect(dee!.addresses.find((a) => a.id === 'dee-home')!.address.line2).toBe('Floor 2');
    expect(dee!.name).toBe('Dee');
  });

  it.each([
    [[RECORDS[0], { email: 'x@example.com', addresses: [{ line1: '1 A St', city: 'B', country: 'XX' }] }], /^line 2: addresses\[0\]\.country: "XX" is not an ISO 3166-1 country$/],
    [[RECORDS[0], { email: ' DEE@example.com' }], /^line 2: email dee@example.com is also on line 1$/],
    [[RECORDS[0], { email: 'x@example.com', addresses: [{ id: 'dee-home', line1: '1 A St', city: 'B', country: 'US' }] }], /^line 2: addresses\[0\]\.id: "dee-home" is also an address id on line 1$/],
    [[RECORDS[2], { email: 'x@example.com', vip: true }], /^line 2: vip: is not a field of a customer$/],
    [[RECORDS[2], '{"email":'], /^line 2: invalid JSON/],
  ])('refuses a bad file with its line, and writes nothing of it (%#)', async (lines, message) => {
    await expect(customers.importFile('shop-bad', catalogFile(lines as object[], 'bad.ndjson'))).rejects.toThrow(message);
    expect(await count('customers', 'shop-bad')).toBe(0);
    expect(await count('customer_addresses', 'shop-bad')).toBe(0);
  });

  it('refuses an address id that belongs to another customer of the merchant, naming the line, and writes nothing', async () => {
    const before = await customers.export('shop-files');
    const file = catalogFile([{ email: 'new@example.com', name: 'New' }, { email: 'gus@example.com', addresses: [{ id: 'eve_1', line1: '4 Oak St', city: 'Reno', country: 'US' }] }]);
    await expect(customers.importFile('shop-files', file)).rejects.toThrow(/^line 2: addresses\[0\]\.id: "eve_1" is the id of another customer's address$/);
    expect(await customers.export('shop-files')).toEqual(before);
    // Another merchant may use the same id for its own customer.
    expect(await customers.importFile('shop-other', file)).toEqual({ customers: 2, addresses: 1 });
  });
});

describe('data-subject export and erasure', () => {
  it('exports what the merchant holds of a buyer; erases it in one go, orders keeping their totals', async () => {
    const merchant = 'shop-e';
    const buyer = { email: 'Zoe@Example.com', name: 'Zoe', phone: '+1 555 0199' };
    // A completed order through our API, with an order change event, and an open ACP session.
    const session = await services.checkout.create(merchant, { items: [{ product_id: 'chair', quantity: 2 }], customer: buyer, shipping_address: SF_ADDRESS });
    const completed = await services.checkout.complete(merchant, session.id);
    const orderId = completed.order!.id;
    await services.orders.fulfil(merchant, orderId, { carrier: 'UPS' });
    const acp = await services.checkout.open(merchant, {
      items: [{ product_id: 'chair', quantity: 1 }], customer: { email: 'zoe@example.com' },
      protocolState: { protocol: 'acp', item_ids: ['chair'], interventions: [], buyer: { email: 'zoe@example.com', first_name: 'Zoe' }, fulfillment_details: { name: 'Zoe', address: { line_one: '1 Market St' } } },
    });
    const untouched = await services.checkout.create(merchant, { items: [{ product_id: 'chair', quantity: 1 }], customer: { email: 'yan@example.com' }, shipping_address: SF_ADDRESS });
    await services.checkout.complete(merchant, untouched.id);
    // An idempotent answer holding the session, a redemption with the email, a saved customer.
    const stored = await services.idempotency.begin({ merchantId: merchant, apiKeyId: 'key_1', operation: 'createCheckoutSession', params: '{}', key: 'k1' }, 'hash');
    if (stored.kind !== 'started') throw new Error('not started');
    await services.idempotency.complete(stored.recordId, 201, completed);
    await services.discounts.importFile(merchant, catalogFile([{ type: 'code', code: 'HI', kind: 'percentage', percentage: 5 }], 'd.ndjson'));
    await db.transaction((tx) => new DiscountStore(db).redeem(tx, merchant, ['HI'], orderId, 'zoe@example.com'));
    await db.transaction((tx) => customers.remember(tx, merchant, { ...buyer, consent: { marketing: false }, address: SF_ADDRESS }));

    const data = await customers.exportData(merchant, ' ZOE@example.com');
    expect(data).toMatchObject({
      email: 'zoe@example.com',
      customer: { email: 'zoe@example.com', name: 'Zoe', phone: '+1 555 0199' },
      consent: { marketing: false, analytics: null, sale_of_data: null },
      addresses: [{ ...SF_ADDRESS, id: expect.stringMatching(/^addr_/) }],
      orders: [{ id: orderId, checkout_session_id: session.id, status: 'fulfilled', currency: 'USD', total: expect.stringMatching(/^\d+$/) }],
    });
    const totalBefore = data.orders[0]!.total;

    const erased = await customers.erase(merchant, 'zoe@example.com');
    expect(erased).toEqual({ customers: 1, addresses: 1, checkoutSessions: 2, orders: 1, webhookEvents: 2, idempotentResponses: 1, discountRedemptions: 1 });

    const sessions = await db.sql.query<{ id: string; customer: unknown; shipping_address: unknown; protocol_state: unknown; total: string }>(sql`
      SELECT id, customer, shipping_address, protocol_state, total::text AS total FROM checkout_sessions WHERE id = ANY(${[session.id, acp.session.id]}::text[])`);
    // The ACP session keeps its protocol's state, without the buyer (still shown through ACP).
    const cleared = Object.fromEntries(sessions.map(({ id, customer, shipping_address, protocol_state }) => [id, [customer, shipping_address, protocol_state]]));
    expect(cleared).toEqual({ [session.id]: [null, null, null], [acp.session.id]: [null, null, { protocol: 'acp', item_ids: ['chair'], interventions: [] }] });
    const order = await services.orders.get(merchant, orderId);
    expect(order).toMatchObject({ status: 'fulfilled', customer: null, shipping_address: null, line_items: [{ product_id: 'chair', quantity: 2 }] });
    const [orderRow] = await db.sql.query<{ total: string }>(sql`SELECT total::text AS total FROM orders WHERE id = ${orderId}`);
    expect(orderRow!.total).toBe(totalBefore);
    const events = await db.sql.query<{ payload: string }>(sql`SELECT payload::text AS payload FROM webhook_events WHERE merchant_id = ${merchant}`);
    const zoes = events.filter((e) => e.payload.includes(session.id));
    expect(zoes).toHaveLength(2);
    for (const event of zoes) {
      expect(event.payload.toLowerCase()).not.toContain('zoe');
      expect(event.payload).not.toContain('Market St');
      expect((JSON.parse(event.payload) as { data: { object: { customer: unknown } } }).data.object.customer).toBeNull();
    }
    expect(events.some((e) => e.payload.includes('yan@example.com'))).toBe(true); // another buyer's event is left alone
    expect(await count('idempotency_records', merchant)).toBe(0);
    const [use] = await db.sql.query<{ email: string | null }>(sql`SELECT email FROM discount_redemptions WHERE merchant_id = ${merchant} AND order_id = ${orderId}`);
    expect(use!.email).toBeNull();
    expect(await customers.findByEmail(merchant, 'zoe@example.com')).toBeNull();
    expect((await services.checkout.get(merchant, untouched.id)).customer).toEqual({ email: 'yan@example.com' });
  }, 60_000);

  it('refuses an email the merchant knows nothing of, changing nothing', async () => {
    await db.transaction((tx) => customers.remember(tx, 'shop-b', { email: 'only-b@example.com' }));
    await expect(customers.erase('shop-a', 'only-b@example.com')).rejects.toThrow(/merchant shop-a has no customer, checkout session or discount use of only-b@example\.com/);
    await expect(customers.exportData('shop-a', 'only-b@example.com')).rejects.toThrow(/has no customer/);
    expect(await customers.findByEmail('shop-b', 'only-b@example.com')).not.toBeNull();
  });
});
