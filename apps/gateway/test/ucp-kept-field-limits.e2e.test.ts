/**
 * UCP inputs as strict as ACP's (issue 35, item 9): what a checkout keeps of a buyer and an
 * address has the same limits whichever protocol sends it (contract/kept-field-limits.ts). A
 * 10,012-character `buyer.email`, an email that is no address, a 51-character phone number and
 * `address_country: "ZZ"` (or a country's name, which UCP's schema tolerates) are refused by UCP's
 * create and update at both releases, in UCP's error shape naming the field, as ACP refuses them
 * — and no customer is stored. What fits is still taken (`us` in any case, 320 characters of email).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpAgent, createBody, SF } from './support/acp.js';
import { stocked } from './support/checkout.js';
import { call } from './support/http.js';
import { json, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const LONG_EMAIL = `${'a'.repeat(10_000)}@example.com`; // 10,012 characters
const OREGON = { street_address: '1 Main St', address_locality: 'Portland', address_region: 'OR', postal_code: '97201', address_country: 'US' };
const LINES = [{ item: { id: 'chair-oak' }, quantity: 1 }];

let gateway: TestGateway;
let profiles: ProfileServer;
let key = '';

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ sku: 'chair-oak', price: 20, quantity: 100 }])]);
  await gateway.services.shipping.import('shop', { zones: [{ id: 'us', countries: ['US'], methods: [{ id: 'standard', title: 'Standard', prices: { USD: 7 } }] }] });
  key = await gateway.createKey({ merchantIds: ['shop'] });
  profiles = await startProfileServer();
  for (const release of ['2026-04-08', '2026-01-11'] as const) profiles.route(`/platform/${release}`, json(shoppingPlatformProfile(release)));
}, 60_000);

afterAll(async () => {
  await profiles?.close();
  await gateway?.close();
});

const ucp = (release: string) => (method: string, path: string, body: unknown) =>
  call(`${gateway.url}/ucp${path}`, {
    method,
    json: body,
    headers: { authorization: `Bearer ${key}`, 'ucp-agent': `profile="${profiles.url}/platform/${release}"`, 'request-id': randomUUID(), 'idempotency-key': randomUUID() },
  });

const shipTo = (address: Record<string, string>) => ({ fulfillment: { methods: [{ type: 'shipping', destinations: [address] }] } });
const customers = async () => gateway.db.prisma.customer.count();

/** The error code in the shape of the release: 2026-04-08 `{code, content}`, 2026-01-11 `{status, messages: [{code, content, path}]}`. */
const errorCode = (body: Body): string | undefined => body.code ?? body.messages?.[0]?.code;

describe.each(['2026-04-08', '2026-01-11'] as const)('UCP %s', (release) => {
  const send = ucp(release);

  it.each([
    ['a 10,012-character email', { buyer: { email: LONG_EMAIL } }, '$.buyer.email', /more than 320 characters/],
    ['an email that is no address', { buyer: { email: 'not an email' } }, '$.buyer.email', /email/],
    ['a 51-character phone number', { buyer: { email: 'ada@example.com', phone_number: '1'.repeat(51) } }, '$.buyer.phone_number', /more than 50 characters/],
    ['a 201-character first name', { buyer: { email: 'ada@example.com', first_name: 'A'.repeat(201) } }, '$.buyer.first_name', /more than 200 characters/],
    ['address_country "ZZ"', shipTo({ ...OREGON, address_country: 'ZZ' }), '$.fulfillment.methods[0].destinations[0].address_country', /ISO 3166-1 alpha-2/],
    ['a country by name', shipTo({ ...OREGON, address_country: 'United States' }), '$.fulfillment.methods[0].destinations[0].address_country', /ISO 3166-1 alpha-2/],
    ['a 201-character street', shipTo({ ...OREGON, street_address: 'x'.repeat(201) }), '$.fulfillment.methods[0].destinations[0].street_address', /more than 200 characters/],
  ])('refuses %s on create, as ACP does, storing no customer', async (_case, fields, path, says) => {
    const before = await customers();
    const created = await send('POST', '/checkout-sessions', { line_items: LINES, ...fields });
    expect(created.status, JSON.stringify(created.body)).toBe(400);
    expect(errorCode(created.body)).toBe('invalid_request');
    expect(JSON.stringify(created.body)).toContain(path);
    expect(JSON.stringify(created.body)).toMatch(says);
    expect(await customers()).toBe(before);
  });

  it('refuses the same on update, and a checkout that fits completes as before', async () => {
    const created = await send('POST', '/checkout-sessions', { line_items: LINES, buyer: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' }, ...shipTo({ ...OREGON, address_country: 'us' }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    for (const fields of [{ buyer: { email: LONG_EMAIL } }, shipTo({ ...OREGON, address_country: 'ZZ' })]) {
      const updated = await send('PUT', `/checkout-sessions/${id}`, { id, line_items: LINES, ...fields });
      expect(updated.status, JSON.stringify(updated.body)).toBe(400);
      expect(errorCode(updated.body)).toBe('invalid_request');
    }
    const email = `${'b'.repeat(308)}@example.com`; // 320 characters: the most our contract keeps
    const fits = await send('PUT', `/checkout-sessions/${id}`, { id, line_items: LINES, buyer: { email } });
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    expect((fits.body as Body).buyer.email).toBe(email);
  });
});

describe('ACP, for comparison', () => {
  it('refuses the same email and country', async () => {
    const agent = acpAgent(gateway.url, key);
    const email = await agent.create(createBody(['chair-oak'], { buyer: { email: LONG_EMAIL } }));
    expect(email.status).toBe(400);
    const country = await agent.create(createBody(['chair-oak'], { fulfillment_details: { name: 'Ada', address: { ...SF, country: 'ZZ' } } }));
    expect(country.status).toBe(400);
  });
});

describe('our own API, the same rule', () => {
  it('refuses a country that is no ISO 3166-1 alpha-2 code, and takes one in any case', async () => {
    const session = (country: string) =>
      call(`${gateway.url}/checkout_sessions`, { method: 'POST', headers: { 'x-acp-api-key': key }, json: { items: [{ product_id: 'chair', variant_sku: 'chair-oak' }], shipping_address: { line1: '1 Main St', city: 'Portland', country } } });
    const zz = await session('ZZ');
    expect(zz.status).toBe(400);
    expect(zz.body).toMatchObject({ code: 'invalid_request', param: 'shipping_address.country', detail: expect.stringContaining('ISO 3166-1 alpha-2') });
    expect((await session('us')).status).toBe(201);
  });
});
