/**
 * The rules of the ACP profile's checkout, each through real HTTP with every answer validated
 * against the official schemas: minor units and totals, fulfillment options, the status machine,
 * messages, payments through the test provider (approve, decline, 3-D Secure), capability
 * negotiation, and one domain under both APIs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpAgent, createBody, payWith, SF, type AcpAgent } from './support/acp.js';
import { bare, checkoutCalls, stocked } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let agent: AcpAgent;
let key: string;

const SHIP = { selected_fulfillment_options: [{ type: 'shipping', option_id: 'standard', item_ids: [] }] };

beforeAll(async () => {
  gateway = await startTestGateway({ ORDER_URL_TEMPLATE: 'https://shop.example/orders/{order_id}' });
  await gateway.importProducts('shop', [
    stocked('chair', [{ sku: 'chair-oak', price: 10.67, quantity: 20 }, { sku: 'chair-pine', price: 9.99, quantity: 20 }]),
    stocked('lamp', [{ sku: 'lamp-brass', price: 30, quantity: 2 }]),
    stocked('ebook', [{ sku: 'ebook-pdf', price: 12, requires_shipping: false, taxable: false, quantity: 50 }]),
    stocked('teapot', [{ sku: 'teapot-jp', price: 3500, currency: 'JPY', quantity: 5 }]),
    bare('poster', 7.5, 4),
  ]);
  key = await gateway.createKey({ merchantIds: ['shop'] });
  agent = acpAgent(gateway.url, key);
});

afterAll(() => gateway?.close());

async function ready(ids: string[], extra: Record<string, unknown> = {}) {
  const created = await agent.create(createBody(ids, { fulfillment_details: { address: SF }, ...extra }));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const chosen = await agent.update(created.body.id, { selected_fulfillment_options: [{ type: created.body.fulfillment_options[0].type, option_id: created.body.fulfillment_options[0].id, item_ids: ids }] });
  expect(chosen.body.status).toBe('ready_for_payment');
  return chosen.body;
}

describe('amounts, totals and line items', () => {
  it('shows integer minor units: totals[] with type/display_text/amount, line items with their own totals adding up to the cart', async () => {
    const s = await ready(['chair-oak', 'chair-oak', 'chair-oak', 'ebook-pdf', 'poster']);
    // 3 × 10.67 + 12 + 7.50 = 51.51 → free shipping; taxable 39.51 × 7.25% = 2.864… → 2.86
    const byType = Object.fromEntries(s.totals.map((t: { type: string; amount: number }) => [t.type, t.amount]));
    expect(byType).toEqual({ items_base_amount: 5151, subtotal: 5151, fulfillment: 0, tax: 286, total: 5437 });
    expect(s.currency).toBe('usd');
    const lines = s.line_items as { quantity: number; unit_amount: number; tax_exempt: boolean; totals: { type: string; amount: number }[] }[];
    expect(lines.map((l) => [l.quantity, l.unit_amount, l.tax_exempt])).toEqual([[3, 1067, false], [1, 1200, true], [1, 750, false]]);
    const lineTotal = (type: string) => lines.reduce((sum, l) => sum + l.totals.find((t) => t.type === type)!.amount, 0);
    expect(lineTotal('subtotal')).toBe(5151);
    expect(lineTotal('tax')).toBe(286); // the cart's tax, shared out by taxable subtotal to the minor unit
    expect(lineTotal('total')).toBe(5151 + 286);
    expect(lines[1]!.totals.find((t) => t.type === 'tax')!.amount).toBe(0);
  });

  it('uses the currency exponent: JPY amounts have no minor digits', async () => {
    const created = await agent.create(createBody(['teapot-jp'], { currency: 'jpy', fulfillment_details: { address: SF } }));
    expect(created.status).toBe(201);
    expect(created.body.currency).toBe('jpy');
    expect(created.body.line_items[0].unit_amount).toBe(3500);
    expect(created.body.totals.find((t: { type: string }) => t.type === 'fulfillment').amount).toBe(0); // free from 50 (major units: yen)
    expect(created.body.totals.find((t: { type: string }) => t.type === 'tax').amount).toBe(254); // 3500 × 7.25% = 253.75 → 254 yen
    expect(created.body.totals.find((t: { type: string }) => t.type === 'total').amount).toBe(3754);
  });

  it('refuses a currency the catalog does not price the cart in, with the Error shape', async () => {
    const reply = await agent.create(createBody(['chair-oak'], { currency: 'eur' }));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ type: 'invalid_request', code: 'invalid', param: '$.currency' });
  });
});

describe('fulfillment options from the shipping settings', () => {
  it('offers standard shipping at the flat rate below the threshold, and digital delivery when nothing ships', async () => {
    const shipping = await agent.create(createBody(['chair-pine']));
    expect(shipping.body.fulfillment_options).toEqual([
      { type: 'shipping', id: 'standard', title: 'Standard shipping', description: 'Flat-rate shipping', totals: [{ type: 'total', display_text: 'Standard shipping', amount: 500 }] },
    ]);
    const digital = await agent.create(createBody(['ebook-pdf']));
    expect(digital.body.fulfillment_options).toEqual([
      { type: 'digital', id: 'digital', title: 'Digital delivery', description: 'Nothing in the cart ships', totals: [{ type: 'total', display_text: 'Digital delivery', amount: 0 }] },
    ]);
    expect(digital.body.messages.map((m: { param: string }) => m.param)).toEqual(['$.selected_fulfillment_options']); // no address needed
  });

  it('records the selection in selected_fulfillment_options, and refuses an option the cart is not offered', async () => {
    const created = await agent.create(createBody(['chair-pine'], { fulfillment_details: { address: SF } }));
    const chosen = await agent.update(created.body.id, SHIP);
    expect(chosen.body.selected_fulfillment_options).toEqual([{ type: 'shipping', option_id: 'standard', item_ids: ['chair-pine'] }]);
    const wrong = await agent.update(created.body.id, { selected_fulfillment_options: [{ type: 'digital', option_id: 'digital', item_ids: [] }] });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ type: 'invalid_request', code: 'invalid', param: '$.selected_fulfillment_options' });
  });
});

describe('the status machine', () => {
  it('is not_ready_for_payment until the address and the option are given, then ready_for_payment', async () => {
    const created = await agent.create(createBody(['lamp-brass']));
    expect(created.body.status).toBe('not_ready_for_payment');
    const addressed = await agent.update(created.body.id, { fulfillment_details: { address: SF } });
    expect(addressed.body.status).toBe('not_ready_for_payment');
    expect(addressed.body.messages).toEqual([{ type: 'error', code: 'missing', param: '$.selected_fulfillment_options', resolution: 'recoverable', content_type: 'plain', content: expect.any(String) }]);
    expect((await agent.update(created.body.id, SHIP)).body.status).toBe('ready_for_payment');
  });

  it('completes with an Order whose permalink_url is the merchant order page, and the session stays completed', async () => {
    const s = await ready(['chair-pine']);
    const done = await agent.complete(s.id, payWith('spt_test_approve'));
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('completed');
    expect(done.body.order).toEqual({ type: 'order', id: expect.stringMatching(/^ord_/), checkout_session_id: s.id, permalink_url: `https://shop.example/orders/${done.body.order.id}`, status: 'created' });
    const again = await agent.get(s.id);
    expect(again.body.status).toBe('completed');
    expect(again.body.order.id).toBe(done.body.order.id);
  });

  it('answers 405 in the Error shape to update, complete and cancel of a finished session', async () => {
    const completed = await ready(['chair-pine']);
    await agent.complete(completed.id, payWith('spt_test_approve'));
    const canceled = (await agent.cancel((await agent.create(createBody(['chair-pine']))).body.id)).body;
    expect(canceled.status).toBe('canceled');
    expect(canceled.messages).toEqual([{ type: 'info', content_type: 'plain', content: 'Checkout session has been canceled.' }]);
    for (const id of [completed.id, canceled.id]) {
      for (const reply of [await agent.update(id, SHIP), await agent.complete(id, payWith('spt_test_approve')), await agent.cancel(id)]) {
        expect(reply.status).toBe(405);
        expect(reply.body).toMatchObject({ type: 'invalid_request', code: 'method_not_allowed' });
      }
    }
  });

  it('answers 404 in the Error shape for an unknown session, and 400 naming the item for an unknown item', async () => {
    const missing = await agent.get('cs_nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ type: 'invalid_request', code: 'not_found' });
    const unknown = await agent.create(createBody(['chair-oak', 'no-such-item']));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ type: 'invalid_request', code: 'invalid', param: '$.line_items[1].id' });
  });

  it('refuses fields the official schema does not have (additionalProperties: false), naming them', async () => {
    const reply = await agent.create({ ...createBody([]), line_items: [{ id: 'chair-oak', sku: 'chair-oak' }] });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ type: 'invalid_request', code: 'invalid', param: '$.line_items[0].sku', message: '$.line_items[0].sku is not a field of this request (ACP 2026-04-17)' });
    const noCapabilities = await agent.create({ line_items: [{ id: 'chair-oak' }], currency: 'usd' });
    expect(noCapabilities.body).toMatchObject({ code: 'invalid', param: '$.capabilities' });
  });
});

describe('messages[]', () => {
  it('reports out_of_stock on the line while the cart asks more than is left, and completion refuses it', async () => {
    const s = await agent.create(createBody(['chair-pine', 'lamp-brass', 'lamp-brass', 'lamp-brass'], { fulfillment_details: { address: SF } }));
    expect(s.body.status).toBe('not_ready_for_payment');
    expect(s.body.messages[0]).toMatchObject({ type: 'error', code: 'out_of_stock', param: '$.line_items[1]' });
    expect(s.body.line_items[1]).toMatchObject({ availability_status: 'out_of_stock', available_quantity: 2 });
    await agent.update(s.body.id, SHIP);
    const refused = await agent.complete(s.body.id, payWith('spt_test_approve'));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: 'invalid_request', code: 'out_of_stock', param: '$.line_items[1]' });
    const fixed = await agent.update(s.body.id, { line_items: [{ id: 'lamp-brass' }] });
    expect(fixed.body.status).toBe('ready_for_payment');
  });

  it('declines with payment_declined (nothing ordered, no stock taken), shows it on the session, and a later payment goes through', async () => {
    const s = await ready(['poster']);
    const declined = await agent.complete(s.id, payWith('spt_test_decline'));
    expect(declined.status).toBe(400);
    expect(declined.body).toMatchObject({ type: 'invalid_request', code: 'payment_declined', param: '$.payment_data' });
    const after = await agent.get(s.id);
    expect(after.body.status).toBe('ready_for_payment');
    expect(after.body.messages).toEqual([expect.objectContaining({ type: 'error', code: 'payment_declined', param: '$.payment_data' })]);
    expect(await gateway.db.prisma.order.count({ where: { checkoutSessionId: s.id } })).toBe(0);
    expect((await gateway.db.prisma.product.findFirst({ where: { id: 'poster' } }))!.quantity).toBe(4);
    const paid = await agent.complete(s.id, payWith('spt_test_approve'));
    expect(paid.body.status).toBe('completed');
    expect(paid.body.messages).toEqual([]);
  });

  it('asks for 3-D Secure: authentication_required with authentication_metadata, requires_3ds without a result, completed with one', async () => {
    const s = await ready(['chair-oak']);
    const first = await agent.complete(s.id, payWith('spt_test_3ds'));
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ code: 'requires_3ds', param: '$.authentication_result' });
    const waiting = await agent.get(s.id);
    expect(waiting.body.status).toBe('authentication_required');
    expect(waiting.body.authentication_metadata).toMatchObject({ directory_server: 'visa', acquirer_details: expect.any(Object) });
    const without = await agent.complete(s.id, payWith('spt_test_approve'));
    expect(without.status).toBe(400);
    expect(without.body).toEqual({ type: 'invalid_request', code: 'requires_3ds', message: expect.any(String), param: '$.authentication_result' });
    const authenticated = await agent.complete(s.id, payWith('spt_test_3ds', {
      authentication_result: { outcome: 'authenticated', outcome_details: { three_ds_cryptogram: 'AbCdEfGhIjKlMnOpQrStUvWxY0=', electronic_commerce_indicator: '05', transaction_id: 'ds_1', version: '2.2.0' } },
    }));
    expect(authenticated.status, JSON.stringify(authenticated.body)).toBe(200);
    expect(authenticated.body.status).toBe('completed');
  });

  it('adds intervention_required when the payment needs 3-D Secure and the agent did not declare it supports it', async () => {
    const s = await ready(['chair-oak'], { capabilities: { interventions: { supported: [] } } });
    expect((await agent.complete(s.id, payWith('spt_test_3ds'))).body.code).toBe('requires_3ds');
    const waiting = await agent.get(s.id);
    expect(waiting.body.messages.map((m: { code: string }) => m.code)).toEqual(['requires_3ds', 'intervention_required']);
  });

  it("completes with the RFC's own example request (§9.5: buyer, billing address, spt_123, an authentication result)", async () => {
    const s = await ready(['chair-oak']);
    const rfcExample = {
      buyer: { first_name: 'John', last_name: 'Smith', email: 'johnsmith@mail.com', phone_number: '15552003434' },
      payment_data: {
        handler_id: 'card_tokenized',
        instrument: { type: 'card', credential: { type: 'spt', token: 'spt_123' } },
        billing_address: { name: 'test', line_one: '1234 Chat Road', line_two: '', city: 'San Francisco', state: 'CA', country: 'US', postal_code: '94131' },
      },
      authentication_result: {
        outcome: 'authenticated',
        outcome_details: { three_ds_cryptogram: 'AbCdEfGhIjKlMnOpQrStUvWxY0=', electronic_commerce_indicator: '05', transaction_id: 'dsTransId_abc123', version: '2.2.0' },
      },
    };
    const done = await agent.complete(s.id, rfcExample);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.status).toBe('completed');
    expect(done.body.buyer).toEqual(rfcExample.buyer);
  });

  it('refuses a handler the session does not offer', async () => {
    const s = await ready(['chair-oak']);
    const reply = await agent.complete(s.id, { payment_data: { handler_id: 'card_other', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_approve' } } } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid', param: '$.payment_data.handler_id' });
  });
});

describe('capability negotiation', () => {
  it.each([
    [['3ds', 'biometric', 'address_verification'], ['3ds']],
    [['biometric'], []],
    [[], []],
  ])('answers the intersection of what the agent offered (%j) and what we support: %j', async (offered, expected) => {
    const reply = await agent.create(createBody(['chair-oak'], { capabilities: { interventions: { supported: offered, display_context: 'webview' } } }));
    expect(reply.body.capabilities.interventions).toEqual({ supported: expected, required: [], enforcement: 'conditional' });
    expect(reply.body.capabilities.payment.handlers.map((h: { id: string; psp: string }) => [h.id, h.psp])).toEqual([['card_tokenized', 'test']]);
    expect((await agent.get(reply.body.id)).body.capabilities.interventions.supported).toEqual(expected);
  });
});

describe('one domain under both APIs', () => {
  it('an ACP session is priced like ours, and our own API reads it', async () => {
    const ours = checkoutCalls(gateway.url, key);
    const mine = await ours.create({ items: [{ product_id: 'chair', variant_sku: 'chair-oak', quantity: 2 }], shipping_address: { line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' } });
    const acp = await agent.create(createBody(['chair-oak', 'chair-oak'], { fulfillment_details: { address: SF } }));
    expect(acp.body.totals.find((t: { type: string }) => t.type === 'total').amount).toBe(Math.round(mine.body.checkout_session.amounts.total * 100));
    const seen = await ours.get(acp.body.id);
    expect(seen.status).toBe(200);
    expect(seen.body.checkout_session).toMatchObject({ id: acp.body.id, status: 'open', currency: 'USD' });
  });
});
