/**
 * ACP's discount extension through the REST edge (rfc.discount_extension.md; wire/discounts.ts):
 * codes stacked in order, refused codes with ACP's reasons and warnings, an automatic promotion,
 * codes cleared with [], the deprecated `coupons`, a free-shipping promotion on the cheapest option,
 * a completion whose order webhook carries the discounted total, and a code whose last use went to
 * another order. Every answer is validated against the official schemas (support/acp.ts), and
 * every session's totals are checked to add up.
 */
import { verifyAcp } from '@commerce-gateway/webhooks';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeliveryWorker, type DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { WebhookStore } from '../src/webhooks/webhook-store.js';
import { acpAgent, createBody, payWith, SF, type AcpAgent } from './support/acp.js';
import { acpWebhookEventValidator } from './support/acp-schemas.js';
import { stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const AGENT_SECRET = 'whsec_discounts_agent';
/** Oregon: no sales tax, so amounts are exact. */
const OR = { ...SF, city: 'Portland', state: 'OR', postal_code: '97201' };
const DISCOUNTS = [
  { type: 'code', code: 'TEN', kind: 'percentage', percentage: 10 },
  { type: 'code', code: 'TWENTY', kind: 'percentage', percentage: 20 },
  { type: 'code', code: 'OLD', kind: 'percentage', percentage: 50, starts_at: '2020-01-01T00:00:00Z', ends_at: '2020-02-01T00:00:00Z' },
  { type: 'code', code: 'ONCE', kind: 'fixed', amounts: { USD: 5 }, usage_limit: 1 },
  { type: 'promotion', id: 'lamps-5', title: '5 % off lamps', kind: 'percentage', percentage: 5, applies_to: { categories: ['lamps'] } },
];
const SHIPPING = {
  zones: [
    {
      id: 'us',
      countries: ['US'],
      methods: [
        { id: 'standard', title: 'Standard', prices: { USD: 7 } },
        { id: 'express', title: 'Express', prices: { USD: 15 } },
      ],
    },
  ],
};

let gateway: TestGateway;
let agent: AcpAgent;
let shipAgent: AcpAgent;
let receiver: Receiver;
let worker: DeliveryWorker;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('deals', [
    stocked('chair', [{ sku: 'chair-oak', price: 100, quantity: 50 }], { category: 'Furniture > Chairs' }),
    stocked('lamp', [{ sku: 'lamp-brass', price: 40, quantity: 50 }], { category: 'Lighting > Lamps' }),
  ]);
  await gateway.services.discounts.importFile('deals', catalogFile(DISCOUNTS, 'discounts.ndjson'));
  await gateway.importProducts('freeship', [stocked('mug', [{ sku: 'mug-blue', price: 30, quantity: 50 }])]);
  await gateway.services.shipping.import('freeship', SHIPPING);
  await gateway.services.discounts.importFile('freeship', catalogFile([{ type: 'promotion', id: 'ship-free', title: 'Free shipping this week', kind: 'free_shipping' }], 'ship.ndjson'));
  agent = acpAgent(gateway.url, await gateway.createKey({ merchantIds: ['deals'] }));
  shipAgent = acpAgent(gateway.url, await gateway.createKey({ merchantIds: ['freeship'] }));
  receiver = await startReceiver();
  await new WebhookStore(gateway.db).createEndpoint('deals', `${receiver.url}/agentic_checkout/webhooks/order_events`, AGENT_SECRET, 'acp');
  worker = startDeliveryWorker(gateway.db, { webhookAllowPrivateTargets: true, storefrontUrl: 'https://{merchant_id}.shops.example' }, pino({ level: 'silent' }), { pollIntervalMs: 20 });
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await gateway?.close();
});

type Total = { type: string; amount: number };
type Session = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const amountOf = (totals: Total[], type: string): number => totals.filter((t) => t.type === type).reduce((sum, t) => sum + t.amount, 0);

/** The totals add up, the lines add up to them, and the applied discounts to the discount totals. */
function expectAddsUp(session: Session): void {
  const t = session.totals as Total[];
  expect(amountOf(t, 'items_base_amount') - amountOf(t, 'items_discount')).toBe(amountOf(t, 'subtotal'));
  expect(amountOf(t, 'subtotal') - amountOf(t, 'discount') + amountOf(t, 'fulfillment') + amountOf(t, 'tax')).toBe(amountOf(t, 'total'));
  const lines = session.line_items as { totals: Total[] }[];
  for (const { totals } of lines) {
    expect(amountOf(totals, 'items_base_amount') - amountOf(totals, 'items_discount')).toBe(amountOf(totals, 'subtotal'));
    expect(amountOf(totals, 'subtotal') + amountOf(totals, 'tax')).toBe(amountOf(totals, 'total'));
  }
  for (const type of ['items_base_amount', 'items_discount', 'subtotal', 'tax']) {
    expect(lines.reduce((sum, line) => sum + amountOf(line.totals, type), 0), type).toBe(amountOf(t, type));
  }
  if (!session.discounts) return;
  const applied = session.discounts.applied as { amount: number; allocations: { path: string; amount: number }[] }[];
  for (const discount of applied) expect(discount.allocations.reduce((sum, a) => sum + a.amount, 0)).toBe(discount.amount);
  const allocated = (prefix: string) => applied.flatMap((d) => d.allocations).filter((a) => a.path.startsWith(prefix)).reduce((sum, a) => sum + a.amount, 0);
  expect(allocated('$.line_items[')).toBe(amountOf(t, 'items_discount'));
  expect(allocated('$.totals.shipping')).toBe(amountOf(t, 'discount'));
}

const declared = { capabilities: { interventions: { supported: ['3ds'] }, extensions: ['discount'] } };

/** A session of `ids` at an Oregon address, standard shipping chosen. */
async function readySession(ids: string[], extra: Record<string, unknown>): Promise<Session> {
  const created = await agent.create(createBody(ids, { ...declared, fulfillment_details: { name: 'Ada Lovelace', email: 'ada@example.com', address: OR }, ...extra }));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const chosen = await agent.update(created.body.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: created.body.fulfillment_options[0].id, item_ids: [] }] });
  expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
  return chosen.body;
}

describe('the discount extension', () => {
  it('stacks codes in order (10 % then 20 % leaves 72 %), echoes them, and declares the extension', async () => {
    const session = await readySession(['chair-oak'], { discounts: { codes: ['TEN', 'twenty'] } });
    expect(session.status).toBe('ready_for_payment');
    expect(session.capabilities.extensions).toEqual([
      { name: 'discount', extends: ['$.CheckoutSessionCreateRequest.discounts', '$.CheckoutSessionUpdateRequest.discounts', '$.CheckoutSession.discounts'] },
    ]);
    expect(session.discounts.codes).toEqual(['TEN', 'twenty']);
    expect(session.discounts.rejected).toEqual([]);
    expect(session.discounts.applied).toEqual([
      { id: 'code_TEN', code: 'TEN', coupon: { id: 'TEN', name: 'TEN', amount_off: 1000, currency: 'usd' }, amount: 1000, automatic: false, method: 'across', priority: 1, allocations: [{ path: '$.line_items[0]', amount: 1000 }] },
      { id: 'code_TWENTY', code: 'TWENTY', coupon: { id: 'TWENTY', name: 'TWENTY', amount_off: 1800, currency: 'usd' }, amount: 1800, automatic: false, method: 'across', priority: 2, allocations: [{ path: '$.line_items[0]', amount: 1800 }] },
    ]);
    expect(session.line_items[0].totals).toEqual([
      { type: 'items_base_amount', display_text: 'Base amount', amount: 10000 },
      { type: 'items_discount', display_text: 'Discount', amount: 2800 },
      { type: 'subtotal', display_text: 'Subtotal', amount: 7200 },
      { type: 'tax', display_text: 'Tax', amount: 0 },
      { type: 'total', display_text: 'Total', amount: 7200 },
    ]);
    // The RFC (§6.2, §8.2) puts the line's discount in `line_items[].discount`; the official LineItem has no such field
    // and forbids others (additionalProperties: false). Answers follow the schema: the line's `items_discount` total.
    expect(session.line_items[0]).not.toHaveProperty('discount');
    expect(amountOf(session.totals, 'items_discount')).toBe(2800);
    expect(amountOf(session.totals, 'subtotal')).toBe(7200);
    expectAddsUp(session);
    expect(session.messages).toEqual([]);
  });

  it('refuses an unknown and an expired code with ACP reasons, as rejected entries and warnings, without blocking payment', async () => {
    const session = await readySession(['chair-oak'], {});
    const updated = await agent.update(session.id, { discounts: { codes: ['TEN', 'NOPE', 'OLD', 'ten'] } });
    expect(updated.status).toBe(200);
    const body = updated.body;
    expect(body.status).toBe('ready_for_payment');
    expect(body.discounts.applied.map((d: { id: string }) => d.id)).toEqual(['code_TEN']);
    expect(body.discounts.rejected).toEqual([
      { code: 'NOPE', reason: 'discount_code_invalid', message: 'This code does not exist.' },
      { code: 'OLD', reason: 'discount_code_expired', message: 'This code expired.' },
      { code: 'ten', reason: 'discount_code_already_applied', message: 'This code is already applied.' },
    ]);
    expect(body.messages).toEqual([
      { type: 'warning', code: 'discount_code_invalid', param: '$.discounts.codes[1]', content_type: 'plain', content: 'Code "NOPE": This code does not exist.' },
      { type: 'warning', code: 'discount_code_expired', param: '$.discounts.codes[2]', content_type: 'plain', content: 'Code "OLD": This code expired.' },
      { type: 'warning', code: 'discount_code_already_applied', param: '$.discounts.codes[3]', content_type: 'plain', content: 'Code "ten": This code is already applied.' },
    ]);
    expect(amountOf(body.totals, 'total')).toBe(9000);
    expectAddsUp(body);
  });

  it('applies a promotion by itself (automatic), and [] clears the codes but not the promotion', async () => {
    const session = await readySession(['chair-oak', 'lamp-brass'], { discounts: { codes: ['TEN'] } });
    // The promotion first (5 % of the lamp's 40.00), then TEN on what is left: 10 % of 100.00 + 38.00.
    expect(session.discounts.applied).toEqual([
      { id: 'promo_lamps-5', coupon: { id: 'lamps-5', name: '5 % off lamps', amount_off: 200, currency: 'usd' }, amount: 200, automatic: true, method: 'across', priority: 1, allocations: [{ path: '$.line_items[1]', amount: 200 }] },
      { id: 'code_TEN', code: 'TEN', coupon: { id: 'TEN', name: 'TEN', amount_off: 1380, currency: 'usd' }, amount: 1380, automatic: false, method: 'across', priority: 2, allocations: [{ path: '$.line_items[0]', amount: 1000 }, { path: '$.line_items[1]', amount: 380 }] },
    ]);
    expectAddsUp(session);

    const cleared = await agent.update(session.id, { discounts: { codes: [] } });
    expect(cleared.body.discounts).toEqual({
      codes: [],
      applied: [{ id: 'promo_lamps-5', coupon: { id: 'lamps-5', name: '5 % off lamps', amount_off: 200, currency: 'usd' }, amount: 200, automatic: true, method: 'across', priority: 1, allocations: [{ path: '$.line_items[1]', amount: 200 }] }],
      rejected: [],
    });
    expect(amountOf(cleared.body.totals, 'items_discount')).toBe(200);
    expect(amountOf(cleared.body.totals, 'total')).toBe(13800);
    expectAddsUp(cleared.body);

    // An update that does not name codes keeps them as they were.
    const kept = await agent.update(session.id, { buyer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } });
    expect(kept.body.discounts.codes).toEqual([]);
  });

  it('takes the deprecated coupons from an agent that did not declare the extension: totals show the discount, no discounts object until it sends one', async () => {
    const created = await agent.create(createBody(['chair-oak'], { coupons: ['TEN', 'NOPE'], fulfillment_details: { name: 'Ada', email: 'ada@example.com', address: OR } }));
    expect(created.status).toBe(201);
    expect(created.body.discounts).toBeUndefined();
    expect(created.body.capabilities.extensions).toBeUndefined();
    expect(amountOf(created.body.totals, 'items_discount')).toBe(1000);
    expect(created.body.messages).toContainEqual({ type: 'warning', code: 'discount_code_invalid', param: '$.coupons[1]', content_type: 'plain', content: 'Code "NOPE": This code does not exist.' });
    expectAddsUp(created.body);

    // discounts.codes wins over coupons (RFC §10.1); sending it activates the extension.
    const updated = await agent.update(created.body.id, { discounts: { codes: ['TWENTY'] }, coupons: ['TEN'] });
    expect(updated.body.capabilities.extensions.map((e: { name: string }) => e.name)).toEqual(['discount']);
    expect(updated.body.discounts.codes).toEqual(['TWENTY']);
    expect(amountOf(updated.body.totals, 'items_discount')).toBe(2000);
    expectAddsUp(updated.body);
  });

  it('refuses more than 10 codes or a blank one, naming the field', async () => {
    const many = await agent.create(createBody(['chair-oak'], { ...declared, discounts: { codes: Array.from({ length: 11 }, (_, i) => `C${i}`) } }));
    expect(many.status).toBe(400);
    expect(many.body).toMatchObject({ type: 'invalid_request', code: 'invalid', param: '$.discounts.codes' });
    const blank = await agent.create(createBody(['chair-oak'], { coupons: ['  '] }));
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ type: 'invalid_request', code: 'invalid', param: '$.coupons[0]' });
  });
});

describe('a free-shipping promotion', () => {
  it('makes the cheapest option free; shown as the order-level discount on shipping, counted once', async () => {
    const created = await shipAgent.create({ ...createBody(['mug-blue'], declared), fulfillment_details: { name: 'Ada', email: 'ada@example.com', address: OR } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [standard, express] = created.body.fulfillment_options;
    expect(standard).toMatchObject({ id: 'standard', description: 'Standard, free with the promotion “Free shipping this week”' });
    expect(standard.totals).toEqual([
      { type: 'fulfillment', display_text: 'Standard', amount: 700 },
      { type: 'discount', display_text: 'Promotion', amount: 700 },
      { type: 'total', display_text: 'Standard', amount: 0 },
    ]);
    expect(express.totals).toEqual([{ type: 'total', display_text: 'Express', amount: 1500 }]);

    const chosen = await shipAgent.update(created.body.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: 'standard', item_ids: [] }] });
    const body = chosen.body;
    expect(body.discounts.applied).toEqual([
      { id: 'promo_ship-free', coupon: { id: 'ship-free', name: 'Free shipping this week', amount_off: 700, currency: 'usd' }, amount: 700, automatic: true, method: 'across', priority: 1, allocations: [{ path: '$.totals.shipping', amount: 700 }] },
    ]);
    expect(body.totals).toEqual([
      { type: 'items_base_amount', display_text: 'Item(s) total', amount: 3000 },
      { type: 'subtotal', display_text: 'Subtotal', amount: 3000 },
      { type: 'discount', display_text: 'Shipping promotion', amount: 700 },
      { type: 'fulfillment', display_text: 'Shipping', amount: 700 },
      { type: 'tax', display_text: 'Tax', amount: 0 },
      { type: 'total', display_text: 'Total', amount: 3000 },
    ]);
    expectAddsUp(body);

    // Express keeps its price: the promotion no longer applies to the option priced.
    const fast = await shipAgent.update(created.body.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: 'express', item_ids: [] }] });
    expect(fast.body.discounts.applied).toEqual([]);
    expect(amountOf(fast.body.totals, 'discount')).toBe(0);
    expect(amountOf(fast.body.totals, 'fulfillment')).toBe(1500);
    expect(amountOf(fast.body.totals, 'total')).toBe(4500);
    expectAddsUp(fast.body);
  });
});

describe('completion', () => {
  it('orders at the discounted total; the order webhook (order_create) carries it', async () => {
    const session = await readySession(['chair-oak'], { discounts: { codes: ['TEN', 'TWENTY'] } });
    const completed = await agent.complete(session.id, payWith('spt_test_approve'));
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.status).toBe('completed');
    expect(completed.body.discounts.applied.map((d: { id: string }) => d.id)).toEqual(['code_TEN', 'code_TWENTY']);
    expect(amountOf(completed.body.totals, 'total')).toBe(7200);
    expectAddsUp(completed.body);

    const deliveries = await receiver.waitFor(1);
    const delivery = deliveries.find((d) => d.raw.includes(completed.body.order.id))!;
    const event = verifyAcp(delivery.raw, delivery.headers['merchant-signature'], AGENT_SECRET);
    const valid = acpWebhookEventValidator();
    expect(valid(event), JSON.stringify(valid.errors)).toBe(true);
    expect(event).toMatchObject({ type: 'order_create', data: { id: completed.body.order.id } });
    expect(event.data.totals).toContainEqual({ type: 'total', display_text: 'Total', amount: 7200 });
    expect(event.data.totals).toContainEqual({ type: 'discount', display_text: 'Discounts', amount: 2800 });
  });

  it('refuses a completion whose code lost its last use to another order (400 discount_code_usage_limit_reached) and shows the new price', async () => {
    const first = await readySession(['lamp-brass'], { discounts: { codes: ['ONCE'] } });
    const second = await readySession(['lamp-brass'], { discounts: { codes: ['ONCE'] } });
    expect(second.discounts.applied.map((d: { id: string }) => d.id)).toEqual(['promo_lamps-5', 'code_ONCE']);
    expect((await agent.complete(first.id, payWith('spt_test_approve'))).status).toBe(200);

    const refused = await agent.complete(second.id, payWith('spt_test_approve'));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: 'invalid_request', code: 'discount_code_usage_limit_reached', param: '$.discounts.codes' });
    expect(refused.body.message).toMatch(/^ONCE reached its usage limit/);

    const repriced = await agent.get(second.id);
    expect(repriced.body.status).toBe('ready_for_payment');
    expect(repriced.body.discounts.rejected).toEqual([{ code: 'ONCE', reason: 'discount_code_usage_limit_reached', message: 'This code has been used as many times as it may be.' }]);
    expect(repriced.body.messages).toEqual([
      { type: 'warning', code: 'discount_code_usage_limit_reached', param: '$.discounts.codes[0]', content_type: 'plain', content: 'Code "ONCE": This code has been used as many times as it may be.' },
    ]);
    expect(amountOf(repriced.body.totals, 'subtotal')).toBe(3800); // the lamp less the promotion's 5 %, ONCE no longer taken off
    expectAddsUp(repriced.body);
  });
});
