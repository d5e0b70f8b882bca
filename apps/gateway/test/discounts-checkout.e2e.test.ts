/**
 * Discount codes and promotions in checkout, end to end: the SDK against a running gateway whose
 * merchant imported a discounts file (the service `gateway discounts import` calls). Codes stack in
 * the order given, refused codes say why and never block the cart, promotions apply by themselves
 * (a category's lines; free shipping makes the cheapest option free), tax follows the discount,
 * every answer is valid against the contract, an order keeps its discounts and its verified
 * webhook shows them, a refund by lines pays back what those units were paid, and a code's usage
 * limit holds at completion — also under 50 concurrent completions.
 */
import { verify } from '@commerce-gateway/webhooks';
import { CommerceGateway, InvalidRequestError, type CheckoutSession, type Order } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeErrors, schemaValidator } from '../src/contract/schema-validator.js';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { SF_ADDRESS, stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const OREGON = { line1: '1 Main St', city: 'Portland', state: 'OR', country: 'US' }; // no sales tax
const DISCOUNTS = [
  { type: 'code', code: 'SAVE10', kind: 'percentage', percentage: 10 },
  { type: 'code', code: 'TWENTY', kind: 'percentage', percentage: 20 },
  { type: 'code', code: 'FIVE', kind: 'fixed', amounts: { USD: 5 } },
  { type: 'code', code: 'OLD', kind: 'percentage', percentage: 50, ends_at: '2020-01-01T00:00:00Z' },
  { type: 'code', code: 'BIG', kind: 'percentage', percentage: 30, minimum_subtotal: { USD: 500 } },
  { type: 'code', code: 'SOLO', kind: 'percentage', percentage: 40, combinable: false },
  { type: 'code', code: 'LAMPS', kind: 'fixed', amounts: { USD: 3 }, applies_to: { categories: ['lamps'] } },
  { type: 'code', code: 'TWICE', kind: 'percentage', percentage: 25, usage_limit: 2 },
  { type: 'code', code: 'RUSH', kind: 'fixed', amounts: { USD: 1 }, usage_limit: 10 },
  { type: 'promotion', id: 'ship-free-150', title: 'Free shipping over $150', kind: 'free_shipping', minimum_subtotal: { USD: 150 } },
  { type: 'promotion', id: 'rugs-15', title: '15 % off rugs', kind: 'percentage', percentage: 15, applies_to: { categories: ['rugs'] } },
];

let gateway: TestGateway;
let receiver: Receiver;
let worker: DeliveryWorker;
let gw: CommerceGateway;
let secret: string;
const validSession = schemaValidator('CheckoutSession');

beforeAll(async () => {
  gateway = await startTestGateway({ SHIPPING_FLAT_RATE: '5', SHIPPING_FREE_FROM: 'never' });
  await gateway.importProducts('shop', [
    stocked('chair', [{ price: 20, quantity: 1_000, policy: 'continue' }], { category: 'Home > Chairs' }),
    stocked('lamp', [{ price: 10, quantity: 1_000 }], { category: 'Home > Lamps' }),
    stocked('rug', [{ price: 40, quantity: 1_000 }], { category: 'Home > Rugs' }),
  ]);
  await gateway.services.discounts.importFile('shop', catalogFile(DISCOUNTS, 'discounts.ndjson'));
  gw = new CommerceGateway({ apiKey: await gateway.createKey({ merchantIds: ['shop'] }), baseUrl: gateway.url, maxRetries: 0 });
  receiver = await startReceiver();
  const store = new WebhookStore(gateway.db);
  secret = (await store.createEndpoint('shop', `${receiver.url}/hooks`, 'whsec_discounts_shop')).secret;
  worker = new DeliveryWorker({ store, allowPrivateTargets: true, permalinks: {}, schedule: [0, 50, 50], pollIntervalMs: 10, timeoutMs: 2000, random: () => 0.5 });
  worker.start();
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await gateway?.close();
});

/** The session, checked against the contract and its arithmetic. */
function checked(session: CheckoutSession): CheckoutSession {
  expect(validSession(session), describeErrors(validSession.errors)).toBe(true);
  const cents = (amount: number) => Math.round(amount * 100);
  const { amounts } = session;
  expect(cents(amounts.total)).toBe(cents(amounts.subtotal) - cents(amounts.discount) + cents(amounts.shipping) + cents(amounts.tax));
  expect(cents(amounts.discount)).toBe(session.line_items.reduce((sum, line) => sum + cents(line.discount), 0));
  for (const applied of session.discounts.applied.filter((d) => d.applies_to === 'items')) {
    expect(applied.allocations.reduce((sum, a) => sum + cents(a.amount), 0)).toBe(cents(applied.amount));
  }
  return session;
}

const open = async (body: Parameters<CommerceGateway['checkoutSessions']['create']>[0]) => checked(await gw.checkoutSessions.create(body));
const codesOf = (session: CheckoutSession) => session.discounts.applied.map((d) => d.code ?? d.promotion_id);

describe('codes on a session', () => {
  it('stacks codes in the order given, each on what the ones before left (10 % then 20 % → 72 %), allocated to the lines', async () => {
    const session = await open({ items: [{ product_id: 'chair', quantity: 4 }, { product_id: 'lamp', quantity: 2 }], shipping_address: OREGON, discount_codes: ['save10', 'TWENTY'] });
    expect(session.discount_codes).toEqual(['save10', 'TWENTY']);
    expect(session.discounts.applied).toEqual([
      { type: 'code', code: 'SAVE10', title: 'SAVE10', applies_to: 'items', amount: 10, currency: 'USD', allocations: [{ line: 1, amount: 8 }, { line: 2, amount: 2 }] },
      { type: 'code', code: 'TWENTY', title: 'TWENTY', applies_to: 'items', amount: 18, currency: 'USD', allocations: [{ line: 1, amount: 14.4 }, { line: 2, amount: 3.6 }] },
    ]);
    expect(session.discounts.rejected).toEqual([]);
    expect(session.line_items.map((line) => line.discount)).toEqual([22.4, 5.6]);
    expect(session.amounts).toEqual({ subtotal: 100, discount: 28, tax: 0, shipping: 5, total: 77, currency: 'USD' });
  });

  it('computes tax on what the taxable lines cost after their discount', async () => {
    const session = await open({ items: [{ product_id: 'chair', quantity: 5 }], shipping_address: SF_ADDRESS, discount_codes: ['FIVE'] });
    expect(session.amounts).toMatchObject({ subtotal: 100, discount: 5, tax: 6.89, shipping: 5 }); // 7.25 % of 95.00 = 6.8875
    expect(session.amounts.total).toBe(106.89);
  });

  it('refuses each code that does not apply with its reason, never blocking the cart', async () => {
    const session = await open({ items: [{ product_id: 'chair' }], discount_codes: ['NOPE', 'OLD', 'BIG', 'SAVE10', 'save10 ', 'SOLO', 'LAMPS'] });
    expect(session.status).toBe('open');
    expect(codesOf(session)).toEqual(['SAVE10']);
    expect(session.discounts.rejected).toEqual([
      { code: 'NOPE', reason: 'unknown', message: 'This code does not exist.' },
      { code: 'OLD', reason: 'expired', message: 'This code expired.' },
      { code: 'BIG', reason: 'minimum_not_met', message: 'The cart does not reach the minimum this code needs.' },
      { code: 'save10', reason: 'already_applied', message: 'This code is already applied.' },
      { code: 'SOLO', reason: 'not_combinable', message: 'This code cannot be combined with the other codes of the cart.' },
      { code: 'LAMPS', reason: 'not_applicable', message: 'This code does not apply to anything in the cart.' },
    ]);
    expect(session.amounts.discount).toBe(2);
  });

  it('applies a code to the lines of its category only', async () => {
    const session = await open({ items: [{ product_id: 'chair' }, { product_id: 'lamp', quantity: 3 }], discount_codes: ['LAMPS'] });
    expect(session.line_items.map((line) => line.discount)).toEqual([0, 3]);
    expect(session.discounts.applied[0]!.allocations).toEqual([{ line: 2, amount: 3 }]);
  });

  it('PATCH replaces the codes (an empty list clears them) and a new cart keeps them, repriced', async () => {
    const session = await open({ items: [{ product_id: 'chair' }], discount_codes: ['SAVE10'] });
    const more = checked(await gw.checkoutSessions.update(session.id, { items: [{ product_id: 'chair', quantity: 3 }] }));
    expect(more.discount_codes).toEqual(['SAVE10']);
    expect(more.amounts.discount).toBe(6);
    const other = checked(await gw.checkoutSessions.update(session.id, { discount_codes: ['TWENTY', 'NOPE'] }));
    expect(codesOf(other)).toEqual(['TWENTY']);
    expect(other.discounts.rejected.map((r) => r.code)).toEqual(['NOPE']);
    const none = checked(await gw.checkoutSessions.update(session.id, { discount_codes: [] }));
    expect(none).toMatchObject({ discount_codes: [], discounts: { applied: [], rejected: [] }, amounts: { discount: 0, total: 65 } });
    expect(none.line_items[0]!.discount).toBe(0);
  });

  it('refuses malformed codes with 400 naming discount_codes, changing nothing', async () => {
    const session = await open({ items: [{ product_id: 'chair' }] });
    for (const discount_codes of [['x'.repeat(65)], [''], Array.from({ length: 11 }, (_, i) => `C${i}`)]) {
      const error = await gw.checkoutSessions.update(session.id, { discount_codes }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).param).toMatch(/^discount_codes/);
    }
    expect(await gw.checkoutSessions.retrieve(session.id)).toEqual(session);
  });
});

describe('promotions', () => {
  it('take a percentage off a category by themselves, before the codes', async () => {
    const session = await open({ items: [{ product_id: 'rug', quantity: 2 }, { product_id: 'chair' }], discount_codes: ['SAVE10'] });
    expect(session.discounts.applied.map((d) => ({ type: d.type, id: d.code ?? d.promotion_id, title: d.title, amount: d.amount }))).toEqual([
      { type: 'promotion', id: 'rugs-15', title: '15 % off rugs', amount: 12 },
      { type: 'code', id: 'SAVE10', title: 'SAVE10', amount: 8.8 }, // 10 % of 100 − 12
    ]);
    expect(session.line_items.map((line) => line.discount)).toEqual([18.8, 2]);
  });

  it('free shipping from a subtotal makes the cheapest option free and says so', async () => {
    const below = await open({ items: [{ product_id: 'rug', quantity: 3 }], shipping_address: OREGON });
    expect(below.shipping_options[0]).toMatchObject({ amount: 5, original_amount: 5, promotion: null });
    const session = await open({ items: [{ product_id: 'rug', quantity: 4 }], shipping_address: OREGON });
    expect(session.shipping_options).toEqual([
      { id: 'standard', title: 'Standard shipping', method: 'standard', amount: 0, original_amount: 5, promotion: { id: 'ship-free-150', title: 'Free shipping over $150' }, currency: 'USD', delivery_estimate: null },
    ]);
    expect(session.shipping).toEqual({ method: 'standard', amount: 0, currency: 'USD' });
    expect(session.discounts.applied.find((d) => d.applies_to === 'shipping')).toEqual({
      type: 'promotion', promotion_id: 'ship-free-150', title: 'Free shipping over $150', applies_to: 'shipping', amount: 5, currency: 'USD', allocations: [],
    });
    expect(session.amounts).toMatchObject({ subtotal: 160, discount: 24, shipping: 0, total: 136 });
  });
});

describe('orders placed with discounts', () => {
  it('keep the discounts, send them in the verified webhook, and refund lines by what their units were paid', async () => {
    const session = await open({ items: [{ product_id: 'chair', quantity: 4 }, { product_id: 'lamp', quantity: 2 }], shipping_address: SF_ADDRESS, discount_codes: ['SAVE10', 'TWENTY'] });
    const completed = checked(await gw.checkoutSessions.complete(session.id));
    const order = await gw.orders.retrieve(completed.order!.id);
    expect(order.discounts).toEqual(session.discounts);
    expect(order.amounts).toEqual(session.amounts);
    expect(order.line_items).toEqual(session.line_items);

    const created = () => receiver.requests.find((r) => r.raw.toString().includes(order.id));
    await expect.poll(() => created() !== undefined, { interval: 20 }).toBe(true);
    const event = verify(created()!.raw, created()!.headers['x-webhook-signature'], secret) as { type: string; data: { object: CheckoutSession } };
    expect(event.type).toBe('order.created');
    expect(event.data.object.amounts).toEqual(session.amounts);
    expect(event.data.object.discounts).toEqual(session.discounts);

    // Line 1: 4 chairs at 20.00, 22.40 off, so 57.60 plus their share of the tax (7.25 % of 72.00 = 5.22, allocated by 57.60 : 14.40 → 4.18).
    const refunded: Order = await gw.orders.refund(order.id, { reason: 'requested_by_customer', lines: [{ line: 1, quantity: 1 }] });
    expect(refunded.refunds[0]!.amount).toBe(15.44); // (57.60 + 4.18) / 4 = 15.445, rounded down
    const rest = await gw.orders.refund(order.id, { reason: 'other' });
    expect(rest.refunded_amount).toBe(order.amounts.total);
    expect(rest.status).toBe('refunded');
  });
});

describe('usage limits at completion', () => {
  it('a code limited to 2 orders: the third completion is refused naming discount_codes, the session repriced without it', async () => {
    const sessions = await Promise.all([1, 2, 3].map(() => open({ items: [{ product_id: 'chair' }], shipping_address: OREGON, discount_codes: ['TWICE'] })));
    for (const session of sessions) expect(session.amounts.discount).toBe(5);
    await gw.checkoutSessions.complete(sessions[0]!.id);
    await gw.checkoutSessions.complete(sessions[1]!.id);
    const refused = await gw.checkoutSessions.complete(sessions[2]!.id).then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect((refused as InvalidRequestError).param).toBe('discount_codes');
    const repriced = checked(await gw.checkoutSessions.retrieve(sessions[2]!.id));
    expect(repriced).toMatchObject({ status: 'open', order: null, discounts: { applied: [], rejected: [{ code: 'TWICE', reason: 'limit_reached' }] }, amounts: { discount: 0 } });
    expect((await gw.checkoutSessions.complete(repriced.id)).order).not.toBeNull();
    const later = await open({ items: [{ product_id: 'chair' }], discount_codes: ['TWICE'] });
    expect(later.discounts.rejected).toEqual([{ code: 'TWICE', reason: 'limit_reached', message: 'This code has been used as many times as it may be.' }]);
  });

  it('50 concurrent completions of a code limited to 10: exactly 10 orders use it', async () => {
    const sessions = await Promise.all(Array.from({ length: 50 }, () => open({ items: [{ product_id: 'chair' }], shipping_address: OREGON, discount_codes: ['RUSH'] })));
    const outcomes = await Promise.allSettled(sessions.map((session) => gw.checkoutSessions.complete(session.id)));
    const completed = outcomes.filter((o): o is PromiseFulfilledResult<CheckoutSession> => o.status === 'fulfilled');
    expect(completed).toHaveLength(10);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect((outcome.reason as InvalidRequestError).param).toBe('discount_codes');
    }
    const orders = await Promise.all(completed.map((o) => gw.orders.retrieve(o.value.order!.id)));
    for (const order of orders) expect(order.discounts.applied.map((d) => d.code)).toEqual(['RUSH']);
  }, 120_000);
});
