/**
 * Shipping profiles end to end: a profile imported for a merchant (the service the CLI calls),
 * then sessions to a covered country (US: standard + express, standard free from 100.00), another
 * (DE: standard in EUR is not sold, so USD) and an uncovered one (FR), through the SDK and through ACP
 * (answers validated against the official schemas); and the import's refusals.
 */
import { completeCheckoutSession, createCheckoutSession, createClient, updateCheckoutSession, type Client } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShippingProfileError } from '../src/shipping/shipping-profile.js';
import { acpAgent, createBody, payWith, SF, type AcpAgent } from './support/acp.js';
import { stocked } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const PROFILE = {
  zones: [
    {
      id: 'us',
      countries: ['US'],
      methods: [
        { id: 'standard', title: 'Standard', prices: { USD: 7 }, free_from: { USD: 100 }, delivery_estimate: { min_business_days: 3, max_business_days: 5 } },
        { id: 'express', title: 'Express', prices: { USD: 15 }, delivery_estimate: { min_business_days: 1, max_business_days: 2 } },
      ],
    },
    { id: 'de', countries: ['DE'], methods: [{ id: 'standard', title: 'Standard (DE)', prices: { USD: 12 } }] },
  ],
};
const US = { line1: '1 Market St', city: 'San Francisco', state: 'OR', country: 'US' }; // OR: no sales tax
const DE = { line1: 'Unter den Linden 1', city: 'Berlin', country: 'DE' };
const FR = { line1: '1 Rue de Rivoli', city: 'Paris', country: 'FR' };

let gateway: TestGateway;
let client: Client;
let agent: AcpAgent;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [stocked('chair', [{ sku: 'chair-oak', price: 20, quantity: 50, taxable: false }])]);
  await gateway.importProducts('flat', [stocked('chair', [{ sku: 'flat-chair', price: 20, quantity: 50 }])]);
  const key = await gateway.createKey({ merchantIds: ['shop'] });
  await gateway.services.shipping.import('shop', PROFILE);
  client = createClient({ baseUrl: gateway.url, headers: { 'X-ACP-API-Key': key } });
  agent = acpAgent(gateway.url, key);
});
afterAll(() => gateway?.close());

const open = async (body: Parameters<typeof createCheckoutSession>[0]['body']) => {
  const { data, response } = await createCheckoutSession({ client, body });
  expect(response?.status).toBe(201);
  return data!.checkout_session;
};

describe('our API with a shipping profile', () => {
  it('lists the US options, preselects the cheapest and prices the total with it', async () => {
    const session = await open({ items: [{ product_id: 'chair', quantity: 2 }], shipping_address: US });
    expect(session.shipping_options).toEqual([
      { id: 'standard', title: 'Standard', method: 'standard', amount: 7, original_amount: 7, promotion: null, currency: 'USD', delivery_estimate: { min_business_days: 3, max_business_days: 5 } },
      { id: 'express', title: 'Express', method: 'express', amount: 15, original_amount: 15, promotion: null, currency: 'USD', delivery_estimate: { min_business_days: 1, max_business_days: 2 } },
    ]);
    expect(session).toMatchObject({ shipping_option_id: 'standard', shipping_option_chosen: false, shipping_unavailable: null, shipping: { method: 'standard', amount: 7, currency: 'USD' } });
    expect(session.amounts).toEqual({ subtotal: 40, discount: 0, tax: 0, shipping: 7, total: 47, currency: 'USD' });
  });

  it('makes standard free from its threshold; express keeps its price', async () => {
    const session = await open({ items: [{ product_id: 'chair', quantity: 5 }], shipping_address: US });
    expect(session.shipping_options.map((o) => [o.id, o.amount])).toEqual([['standard', 0], ['express', 15]]);
    expect(session.amounts.total).toBe(100);
  });

  it('prices the chosen express option, keeps it across PATCHes while offered, and completes with it', async () => {
    const created = await open({ items: [{ product_id: 'chair' }], shipping_address: US });
    const { data: chosen } = await updateCheckoutSession({ client, path: { session_id: created.id }, body: { shipping_option_id: 'express' } });
    expect(chosen!.checkout_session).toMatchObject({ shipping_option_id: 'express', shipping_option_chosen: true, shipping: { method: 'express', amount: 15 } });
    const { data: more } = await updateCheckoutSession({ client, path: { session_id: created.id }, body: { items: [{ product_id: 'chair', quantity: 3 }] } });
    expect(more!.checkout_session).toMatchObject({ shipping_option_id: 'express', amounts: { subtotal: 60, shipping: 15, total: 75 } });
    // DE offers no express: the choice is dropped and the cheapest there is priced.
    const { data: moved } = await updateCheckoutSession({ client, path: { session_id: created.id }, body: { shipping_address: DE } });
    expect(moved!.checkout_session).toMatchObject({ shipping_option_id: 'standard', shipping_option_chosen: false, shipping: { method: 'standard', amount: 12 } });
    const { data: done, response } = await completeCheckoutSession({ client, path: { session_id: created.id } });
    expect(response?.status).toBe(200);
    expect(done!.checkout_session.amounts.total).toBe(72); // the chair is not taxable
  });

  it('refuses an option the destination is not offered, naming shipping_option_id', async () => {
    const created = await open({ items: [{ product_id: 'chair' }], shipping_address: DE });
    const { error, response } = await updateCheckoutSession({ client, path: { session_id: created.id }, body: { shipping_option_id: 'express' } });
    expect(response?.status).toBe(400);
    expect(error).toMatchObject({ code: 'invalid_request', param: 'shipping_option_id' });
  });

  it('says why an uncovered country has no option, and complete refuses it', async () => {
    const session = await open({ items: [{ product_id: 'chair' }], shipping_address: FR });
    expect(session).toMatchObject({ shipping_options: [], shipping_option_id: null, shipping: { method: 'pending', amount: 0 } });
    expect(session.shipping_unavailable).toMatchObject({ code: 'shipping_unavailable', country: 'FR', region: null });
    const { error, response } = await completeCheckoutSession({ client, path: { session_id: session.id } });
    expect(response?.status).toBe(400);
    expect(error).toMatchObject({ code: 'invalid_request', param: 'shipping_address.country' });
  });

  it('leaves a merchant without a profile at the flat rate', async () => {
    const flatKey = await gateway.createKey({ merchantIds: ['flat'] });
    const flat = createClient({ baseUrl: gateway.url, headers: { 'X-ACP-API-Key': flatKey } });
    const { data } = await createCheckoutSession({ client: flat, body: { items: [{ product_id: 'chair' }], shipping_address: FR } });
    expect(data!.checkout_session).toMatchObject({ shipping: { method: 'standard', amount: 5 }, shipping_option_id: 'standard', shipping_unavailable: null });
  });
});

describe('ACP with a shipping profile', () => {
  it('offers the zone\'s options with delivery times, waits for the agent\'s choice, and totals with it', async () => {
    const created = await agent.create(createBody(['chair-oak'], { fulfillment_details: { name: 'Ada', address: { ...SF, state: 'OR' } } }));
    expect(created.status).toBe(201);
    const options = created.body.fulfillment_options as { id: string; earliest_delivery_time?: string; latest_delivery_time?: string; totals: { amount: number }[] }[];
    expect(options.map((o) => [o.id, o.totals[0]!.amount])).toEqual([['standard', 700], ['express', 1500]]);
    expect(Date.parse(options[1]!.earliest_delivery_time!)).toBeLessThan(Date.parse(options[0]!.earliest_delivery_time!));
    expect(created.body.status).toBe('not_ready_for_payment');
    const chosen = await agent.update(created.body.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: 'express', item_ids: [] }] });
    expect(chosen.body.status).toBe('ready_for_payment');
    expect(chosen.body.totals).toContainEqual(expect.objectContaining({ type: 'fulfillment', amount: 1500 }));
    const paid = await agent.complete(created.body.id, payWith('spt_test_approve'));
    expect(paid.body.status).toBe('completed');
  });

  it('tells the agent an uncovered country is region_restricted, and refuses to complete it', async () => {
    const created = await agent.create(createBody(['chair-oak'], { fulfillment_details: { name: 'Ada', address: { ...SF, state: 'IDF', city: 'Paris', country: 'FR' } } }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.fulfillment_options).toEqual([]);
    expect(created.body.messages).toContainEqual(expect.objectContaining({ code: 'region_restricted', param: '$.fulfillment_details.address.country' }));
    const refused = await agent.complete(created.body.id, payWith('spt_test_approve'));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'region_restricted' });
  });
});

describe('shipping import refuses a bad profile whole, naming the field', () => {
  const zone = (extra: Record<string, unknown> = {}) => ({ id: 'z', countries: ['GB'], methods: [{ id: 'standard', title: 'S', prices: { USD: 100 } }], ...extra });
  it.each([
    ['an unknown country', { zones: [zone({ countries: ['ZZ'] })] }, '$.zones[0].countries[0]'],
    ['a negative price', { zones: [zone({ methods: [{ id: 'standard', title: 'S', prices: { USD: -1 } }] })] }, '$.zones[0].methods[0].prices.USD'],
    ['a price finer than a cent', { zones: [zone({ methods: [{ id: 'standard', title: 'S', prices: { USD: 1.005 } }] })] }, '$.zones[0].methods[0].prices.USD'],
    ['a currency the merchant does not sell in', { zones: [zone({ methods: [{ id: 'standard', title: 'S', prices: { EUR: 100 } }] })] }, '$.zones[0].methods[0].prices.EUR'],
    ['a malformed currency', { zones: [zone({ methods: [{ id: 'standard', title: 'S', prices: { usd: 100 } }] })] }, '$.zones[0].methods[0].prices.usd'],
    ['duplicate method ids', { zones: [zone({ methods: [{ id: 'standard', title: 'S', prices: { USD: 1 } }, { id: 'standard', title: 'T', prices: { USD: 2 } }] })] }, '$.zones[0].methods[1].id'],
    ['overlapping zones', { zones: [zone(), zone({ id: 'y', countries: ['IE', 'GB'] })] }, '$.zones[1].countries[1]'],
  ])('%s', async (_name, document, path) => {
    const before = await gateway.services.shipping.export('shop');
    const failure = await gateway.services.shipping.import('shop', document).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ShippingProfileError);
    expect((failure as ShippingProfileError).param).toBe(path);
    expect((failure as Error).message).not.toContain('\n');
    expect(await gateway.services.shipping.export('shop')).toEqual(before);
  });
});
