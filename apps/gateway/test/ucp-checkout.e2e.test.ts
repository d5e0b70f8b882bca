/**
 * A UCP platform checking out through a real gateway over HTTP, for each release: discover → create
 * with a buyer whose saved address is offered → choose it → the options for that destination →
 * choose one, with discount codes (one refused) → a declined test token (payment_failed, nothing
 * ordered) → the test token that approves → the order with its permalink. Also: an unknown item, a
 * checkout of another merchant, idempotent replays and a key reused with another body (409), a
 * body the schema refuses, a version refused, and a platform whose profile lists no checkout. Every answer is validated against the official
 * schemas of its release (support/official-ucp.ts, independent of the gateway's own loader).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import { call, type Reply } from './support/http.js';
import { checkoutSchemas, ERROR_RESPONSE, schemaProblems, type UcpRelease } from './support/official-ucp.js';
import { shoppingPlatformProfile, json, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const SHIPPING = {
  zones: [{ id: 'us', countries: ['US'], methods: [{ id: 'standard', title: 'Standard', prices: { USD: 7 } }, { id: 'express', title: 'Express', prices: { USD: 15 } }] }],
};
/** Oregon: no sales tax, so the amounts are exact. */
const HOME = { id: 'home-1', line1: '1 Main St', city: 'Portland', state: 'OR', postal_code: '97201', country: 'US' };

let gateway: TestGateway;
let profiles: ProfileServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('ucpshop', [
    stocked('chair', [{ sku: 'chair-oak', price: 100, quantity: 50 }]),
    stocked('ebook', [{ sku: 'ebook-1', price: 12, quantity: 50, requires_shipping: false, taxable: false }]),
  ]);
  await gateway.services.shipping.import('ucpshop', SHIPPING);
  await gateway.services.discounts.importFile('ucpshop', catalogFile([{ type: 'code', code: 'TEN', kind: 'percentage', percentage: 10 }], 'discounts.ndjson'));
  await gateway.services.customers.importFile('ucpshop', catalogFile([{ email: 'ada@example.com', name: 'Ada Lovelace', addresses: [HOME] }], 'customers.ndjson'));
  await gateway.importProducts('othershop', [stocked('stool', [{ sku: 'stool-1', price: 10, quantity: 5 }])]);
  key = await gateway.createKey({ merchantIds: ['ucpshop'] });
  otherKey = await gateway.createKey({ merchantIds: ['othershop'] });
  profiles = await startProfileServer();
  profiles.route('/platform/2026-04-08', json(shoppingPlatformProfile('2026-04-08', 'https://platform.example/webhooks/orders')));
  profiles.route('/platform/2026-01-11', json(shoppingPlatformProfile('2026-01-11', 'https://platform.example/webhooks/orders')));
  profiles.route('/platform/no-checkout', json({ ...shoppingPlatformProfile('2026-04-08'), ucp: { ...(shoppingPlatformProfile('2026-04-08').ucp as object), capabilities: {} } }));
}, 60_000);

afterAll(async () => {
  await profiles?.close();
  await gateway?.close();
});

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function platform(release: UcpRelease, apiKey = key) {
  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${apiKey}`,
    'ucp-agent': `profile="${profiles.url}/platform/${release}"`,
    'request-id': randomUUID(),
    ...extra,
  });
  const send = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    call(`${gateway.url}/ucp${path}`, { method, headers: headers(method === 'GET' ? extra : { 'idempotency-key': randomUUID(), ...extra }), ...(body !== undefined ? { json: body } : {}) });
  return {
    create: (body: unknown, extra?: Record<string, string>) => send('POST', '/checkout-sessions', body, extra),
    get: (id: string) => send('GET', `/checkout-sessions/${id}`),
    update: (id: string, body: unknown, extra?: Record<string, string>) => send('PUT', `/checkout-sessions/${id}`, body, extra),
    complete: (id: string, body: unknown, extra?: Record<string, string>) => send('POST', `/checkout-sessions/${id}/complete`, body, extra),
    cancel: (id: string) => send('POST', `/checkout-sessions/${id}/cancel`, {}),
  };
}

/** A checkout answer, valid against its release's official schemas. */
function checkout(release: UcpRelease, reply: Reply, status = 200): Body {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(schemaProblems(release, checkoutSchemas(release), reply.body)).toEqual([]);
  return reply.body;
}

const amount = (totals: { type: string; amount: number }[], type: string) => totals.filter((total) => total.type === type).reduce((sum, total) => sum + total.amount, 0);
const errorsOf = (body: Body) => (body.messages ?? []).filter((message: Body) => message.type === 'error');

/** 2026-04-08 instruments; 2026-01-11 `payment_data`. */
function payWith(release: UcpRelease, token: string): Body {
  const base = { id: 'instr_1', handler_id: 'mock_payment_handler', type: 'card', credential: { type: 'token', token } };
  // 2026-01-11's card instrument carries its brand and last digits itself; 2026-04-08 shows them under `display`.
  if (release === '2026-01-11') return { payment_data: { ...base, brand: 'visa', last_digits: '4242' } };
  return { payment: { instruments: [{ ...base, display: { brand: 'visa', last_digits: '4242' }, selected: true }] } };
}

describe.each(['2026-04-08', '2026-01-11'] as const)('UCP %s checkout over REST', (release) => {
  const agent = () => platform(release);
  const chair = [{ item: { id: 'chair-oak' }, quantity: 2 }];
  const sign = (value: number) => (release === '2026-01-11' ? value : -value);

  it('discovers the checkout capability and the test handler', async () => {
    const path = release === '2026-04-08' ? '/.well-known/ucp' : '/.well-known/ucp/2026-01-11';
    const profile = (await call(`${gateway.url}${path}`)).body;
    const names = release === '2026-01-11' ? profile.ucp.capabilities.map((c: Body) => c.name) : Object.keys(profile.ucp.capabilities);
    expect(names).toEqual(expect.arrayContaining(['dev.ucp.shopping.checkout', 'dev.ucp.shopping.fulfillment', 'dev.ucp.shopping.discount', 'dev.ucp.shopping.buyer_consent']));
  });

  it('walks a buyer with a saved address from create to a placed order', async () => {
    const buyer = { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', consent: { marketing: true, analytics: false } };
    const created = checkout(release, await agent().create({ line_items: chair, buyer }), 201);
    expect(created).toMatchObject({ status: 'incomplete', currency: 'USD', buyer, ucp: { version: release } });
    expect(created.line_items).toEqual([{ id: 'li_1', item: { id: 'chair-oak', title: expect.any(String), price: 10_000 }, quantity: 2, totals: [{ type: 'subtotal', amount: 20_000 }, { type: 'total', amount: 20_000 }] }]);
    expect(created.links.map((link: Body) => link.type)).toEqual(['terms_of_service', 'privacy_policy']);
    expect(created.continue_url).toMatch(/^https:\/\//);
    // The saved address is offered as a destination; nothing is chosen yet.
    const method = created.fulfillment.methods[0];
    expect(method).toMatchObject({ type: 'shipping', line_item_ids: ['li_1'], selected_destination_id: null });
    expect(method.destinations).toEqual([expect.objectContaining({ id: 'home-1', street_address: '1 Main St', address_locality: 'Portland', address_country: 'US' })]);
    expect(errorsOf(created)).toEqual([expect.objectContaining({ code: 'missing', path: '$.fulfillment.methods[0].selected_destination_id', severity: 'recoverable' })]);

    // Choose the saved address: the destination's options are offered.
    const routed = checkout(release, await agent().update(created.id, { id: created.id, line_items: chair, buyer, fulfillment: { methods: [{ id: method.id, type: 'shipping', line_item_ids: ['li_1'], selected_destination_id: 'home-1' }] } }));
    const group = routed.fulfillment.methods[0].groups[0];
    expect(routed.fulfillment.methods[0].selected_destination_id).toBe('home-1');
    expect(group.options.map((option: Body) => [option.id, option.totals[0].amount])).toEqual([['standard', 700], ['express', 1_500]]);
    expect(errorsOf(routed)).toEqual([expect.objectContaining({ code: 'missing', path: '$.fulfillment.methods[0].groups[0].selected_option_id' })]);

    // Choose express, apply a code (and one that does not exist).
    const ready = checkout(
      release,
      await agent().update(created.id, {
        line_items: chair,
        buyer,
        fulfillment: { methods: [{ id: method.id, type: 'shipping', line_item_ids: ['li_1'], selected_destination_id: 'home-1', groups: [{ id: group.id, selected_option_id: 'express' }] }] },
        discounts: { codes: ['ten', 'NOPE'] },
      }),
    );
    expect(ready.status).toBe('ready_for_complete');
    expect(errorsOf(ready)).toEqual([]);
    expect(ready.messages).toEqual([expect.objectContaining({ type: 'warning', code: 'discount_code_invalid', path: '$.discounts.codes[1]' })]);
    expect(ready.discounts).toMatchObject({ codes: ['ten', 'NOPE'], applied: [{ code: 'TEN', amount: 2_000, automatic: false, allocations: [{ path: '$.line_items[0]', amount: 2_000 }] }] });
    expect(amount(ready.totals, 'subtotal')).toBe(20_000);
    expect(amount(ready.totals, 'items_discount')).toBe(sign(2_000));
    expect(amount(ready.totals, 'fulfillment')).toBe(1_500);
    expect(amount(ready.totals, 'total')).toBe(20_000 - 2_000 + 1_500);
    expect(ready.line_items[0].totals).toEqual([{ type: 'subtotal', amount: 20_000 }, { type: 'items_discount', amount: sign(2_000) }, { type: 'total', amount: 18_000 }]);

    // A declined token: a business outcome, nothing ordered.
    const declined = checkout(release, await agent().complete(created.id, payWith(release, 'fail_token')));
    expect(declined.status).toBe('ready_for_complete');
    expect(declined.order).toBeUndefined();
    expect(errorsOf(declined)).toEqual([expect.objectContaining({ code: 'payment_failed', path: '$.payment' })]);

    // The token that approves places the order.
    const completed = checkout(release, await agent().complete(created.id, payWith(release, 'success_token')));
    expect(completed).toMatchObject({ status: 'completed', order: { id: expect.stringMatching(/^ord_/), permalink_url: expect.stringMatching(/^https:\/\/.+ord_/) } });
    expect(completed.continue_url).toBeUndefined();
    expect(JSON.stringify(completed.payment)).not.toContain('credential'); // the credential is never shown back
    expect(JSON.stringify(completed.payment)).toContain('4242');
    const read = checkout(release, await agent().get(created.id));
    expect(read.order.id).toBe(completed.order.id);
    const order = await gateway.services.orders.get('ucpshop', completed.order.id);
    expect(order).toMatchObject({ amounts: { total: 195 }, shipping_address: { line1: '1 Main St', city: 'Portland' }, customer: { email: 'ada@example.com' } });
    // A finished checkout cannot change.
    const late = await agent().update(created.id, { line_items: chair });
    expect(late.status).toBe(release === '2026-04-08' ? 200 : 409); // 2026-04-08: a business outcome, the error envelope
    expect(JSON.stringify(late.body)).toContain('checkout_not_modifiable');
  });

  it('ships a destination the platform gives, and completes a cart that ships nothing without a destination', async () => {
    const destination = { street_address: '9 Elm St', address_locality: 'Salem', address_region: 'OR', postal_code: '97301', address_country: 'US', first_name: 'Grace', last_name: 'Hopper' };
    const created = checkout(release, await agent().create({ line_items: chair, buyer: { email: 'grace@example.com' }, fulfillment: { methods: [{ type: 'shipping', destinations: [destination] }] } }), 201);
    const method = created.fulfillment.methods[0];
    expect(method).toMatchObject({ selected_destination_id: 'dest_1', destinations: [{ id: 'dest_1', ...destination }] });
    expect(method.groups[0].options.length).toBe(2);

    const digital = checkout(release, await agent().create({ line_items: [{ item: { id: 'ebook-1' }, quantity: 1 }], buyer: { email: 'grace@example.com' } }), 201);
    expect(digital.status).toBe('ready_for_complete');
    expect(digital.fulfillment).toBeUndefined();
    const done = checkout(release, await agent().complete(digital.id, payWith(release, 'success_token')));
    expect(done.status).toBe('completed');
  });

  it('answers an unknown item as the release does, and never shows another merchant’s checkout', async () => {
    const unknown = await agent().create({ line_items: [{ item: { id: 'no-such-item' }, quantity: 1 }] });
    expect(unknown.status).toBe(release === '2026-04-08' ? 200 : 400); // 2026-01-11: "cannot be served"
    if (release === '2026-04-08') {
      expect(schemaProblems(release, [ERROR_RESPONSE], unknown.body)).toEqual([]);
      expect(unknown.body).toMatchObject({ ucp: { status: 'error' }, messages: [{ type: 'error', code: 'item_unavailable', path: '$.line_items[0].item.id', severity: 'unrecoverable' }] });
    } else {
      expect(unknown.body).toMatchObject({ status: 'requires_escalation', messages: [{ type: 'error', code: 'item_unavailable' }] });
    }
    const mine = checkout(release, await agent().create({ line_items: chair }), 201);
    // Not found: 2026-04-08 a business outcome (200, the error envelope), 2026-01-11 404.
    for (const reply of [await platform(release, otherKey).get(mine.id), await agent().get('cs_nothing')]) {
      expect(reply.status).toBe(release === '2026-04-08' ? 200 : 404);
      expect(reply.body.messages[0]).toMatchObject({ type: 'error', code: 'not_found' });
      if (release === '2026-04-08') expect(schemaProblems(release, [ERROR_RESPONSE], reply.body)).toEqual([]);
    }
  });

  it('replays an idempotent create, refuses its key with another body (409), and refuses a body the schema forbids', async () => {
    const idempotencyKey = randomUUID();
    const first = await agent().create({ line_items: chair }, { 'idempotency-key': idempotencyKey });
    const again = await agent().create({ line_items: chair }, { 'idempotency-key': idempotencyKey });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const conflict = await agent().create({ line_items: [{ item: { id: 'chair-oak' }, quantity: 3 }] }, { 'idempotency-key': idempotencyKey });
    expect(conflict.status).toBe(409);
    const invalid = await agent().create({ line_items: [{ item: { id: 'chair-oak' }, quantity: 0 }] });
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(invalid.body)).toContain('quantity');
    const noLines = await agent().update(first.body.id, { buyer: { email: 'x@example.com' } });
    expect(noLines.status).toBe(400);
  });

  it('completes the same checkout once: a retried completion shows the order', async () => {
    const created = checkout(release, await agent().create({ line_items: [{ item: { id: 'ebook-1' }, quantity: 1 }], buyer: { email: 'once@example.com' } }), 201);
    const first = checkout(release, await agent().complete(created.id, payWith(release, 'success_token')));
    const second = checkout(release, await agent().complete(created.id, payWith(release, 'success_token')));
    expect(second.order.id).toBe(first.order.id);
    const canceled = checkout(release, await agent().cancel((checkout(release, await agent().create({ line_items: chair }), 201)).id));
    expect(canceled.status).toBe('canceled');
  });
});

describe('UCP negotiation on checkout', () => {
  it('refuses a version it does not speak; serves checkout to a platform whose profile lists no checkout capability', async () => {
    const headers = { authorization: `Bearer ${key}`, 'ucp-agent': `profile="${profiles.url}/platform/2026-04-08", version="2027-01-01"` };
    const newer = await call(`${gateway.url}/ucp/checkout-sessions`, { method: 'POST', headers, json: { line_items: [{ item: { id: 'chair-oak' }, quantity: 1 }] } });
    expect(newer.status).toBe(422);
    expect(newer.body).toMatchObject({ code: 'version_unsupported' });
    const partial = await call(`${gateway.url}/ucp/checkout-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'ucp-agent': `profile="${profiles.url}/platform/no-checkout"` },
      json: { line_items: [{ item: { id: 'chair-oak' }, quantity: 1 }] },
    });
    // The platform called checkout: it speaks checkout (the intersection decides extensions only).
    expect(partial.status).toBe(201);
    expect(partial.body.ucp.capabilities).toEqual({ 'dev.ucp.shopping.checkout': [expect.objectContaining({ version: '2026-04-08' })] });
    const unauthenticated = await call(`${gateway.url}/ucp/checkout-sessions`, { method: 'POST', headers: { 'ucp-agent': `profile="${profiles.url}/platform/2026-04-08"` }, json: {} });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBe('Bearer realm="ucp"');
  });
});
