/**
 * UCP as agents send it (issue 37), for each release, every answer validated against the release's
 * official schemas:
 * - platform profiles as published: 2026-01-11's without `ucp.services` (as its overview shows one),
 *   and lists of only some capabilities (the order capability alone, with its webhook_url) — the
 *   checkout operation called is served, the intersection decides the extensions; other
 *   malformations are still refused, one status per release;
 * - each release's binding: create 201; a request the business cannot serve (an unknown item, more
 *   than the stock at once, a discounts field of the wrong shape) in the release's status and shape:
 *   2026-01-11 refuses it (400, nothing created); 2026-04-08 answers business outcomes in its
 *   envelope, and creates a checkout asking more than the stock with its `out_of_stock` message;
 * - an update whose `fulfillment.methods[]` entry has no `id` (nor `line_item_ids`) updates the one
 *   method; `payment.instruments` is in every checkout;
 * - a destination with only a country reports the street address fields it lacks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stocked } from './support/checkout.js';
import { catalogFile } from './support/fixtures.js';
import type { UcpRelease } from './support/official-ucp.js';
import { json, platformProfile, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { checkoutOf, errorsOf, outcomeRefusal, ucpPlatform } from './support/ucp-platform.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const SHIPPING = { zones: [{ id: 'us', countries: ['US'], methods: [{ id: 'standard', title: 'Standard', prices: { USD: 7 } }] }] };
const STREET = { street_address: '9 Elm St', address_locality: 'Salem', address_region: 'OR', postal_code: '97301', address_country: 'US' };

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let gateway: TestGateway;
let profiles: ProfileServer;
let key: string;

/** The order capability alone, with its webhook_url — and, at 2026-01-11, no `ucp.services` (the overview's example). */
function orderOnlyProfile(release: UcpRelease): Record<string, unknown> {
  const full = shoppingPlatformProfile(release, 'https://platform.example/webhooks/orders') as { ucp: Record<string, unknown> };
  if (release === '2026-01-11') {
    const order = (full.ucp.capabilities as { name: string }[]).filter((capability) => capability.name === 'dev.ucp.shopping.order');
    return { ucp: { version: release, capabilities: order } };
  }
  const order = (full.ucp.capabilities as Record<string, unknown>)['dev.ucp.shopping.order'];
  return { ucp: { ...full.ucp, capabilities: { 'dev.ucp.shopping.order': order } } };
}

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('agents-shop', [stocked('chair', [{ sku: 'chair-oak', price: 100, quantity: 5 }])]);
  await gateway.services.shipping.import('agents-shop', SHIPPING);
  await gateway.services.discounts.importFile('agents-shop', catalogFile([{ type: 'code', code: 'TEN', kind: 'percentage', percentage: 10 }], 'discounts.ndjson'));
  key = await gateway.createKey({ merchantIds: ['agents-shop'] });
  profiles = await startProfileServer();
  for (const release of ['2026-04-08', '2026-01-11'] as const) {
    profiles.route(`/full/${release}`, json(shoppingPlatformProfile(release)));
    profiles.route(`/order-only/${release}`, json(orderOnlyProfile(release)));
    profiles.route(`/malformed/${release}`, json({ ucp: { ...(platformProfile(release).ucp as object), capabilities: 'checkout' } }));
  }
  // 2026-04-08's own schema and examples agree that a platform profile has services: still required there.
  const { services: _none, ...withoutServices } = platformProfile('2026-04-08').ucp as Record<string, unknown>;
  profiles.route('/no-services/2026-04-08', json({ ucp: withoutServices }));
}, 60_000);

afterAll(async () => {
  await profiles?.close();
  await gateway?.close();
});

describe.each(['2026-04-08', '2026-01-11'] as const)('UCP %s as agents send it', (release) => {
  const agent = (profile = `/full/${release}`) => ucpPlatform({ gatewayUrl: gateway.url, key, profile: `${profiles.url}${profile}` });
  const chair = (quantity = 1) => [{ item: { id: 'chair-oak' }, quantity }];
  const names = (body: Body) => (release === '2026-01-11' ? body.ucp.capabilities.map((c: Body) => c.name) : Object.keys(body.ucp.capabilities));

  it('serves checkout to a platform whose published profile lists only the order capability (and, at 2026-01-11, no services)', async () => {
    const created = checkoutOf(release, await agent(`/order-only/${release}`).create({ line_items: chair(), fulfillment: { methods: [{ type: 'shipping', destinations: [STREET] }] } }), 201);
    // Checkout (called) and fulfillment (its field sent); discount and buyer consent are not in the intersection.
    expect(names(created).sort()).toEqual(['dev.ucp.shopping.checkout', 'dev.ucp.shopping.fulfillment']);
    const full = checkoutOf(release, await agent().create({ line_items: chair() }), 201);
    expect(names(full)).toEqual(expect.arrayContaining(['dev.ucp.shopping.checkout', 'dev.ucp.shopping.discount', 'dev.ucp.shopping.buyer_consent']));
  });

  it('still refuses a malformed profile, with one status per release', async () => {
    const refused = await agent(`/malformed/${release}`).create({ line_items: chair() });
    if (release === '2026-04-08') {
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'profile_malformed' });
      const noServices = await agent('/no-services/2026-04-08').create({ line_items: chair() });
      expect(noServices.status).toBe(422);
      expect(noServices.body).toMatchObject({ code: 'profile_malformed' });
    } else {
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ status: 'requires_escalation', messages: [{ type: 'error', code: 'profile_malformed', severity: 'requires_buyer_input' }] });
    }
  });

  it('answers what it cannot serve in the release’s status and shape', async () => {
    outcomeRefusal(release, await agent().create({ line_items: [{ item: { id: 'no-such-item' }, quantity: 1 }] }), 'item_unavailable', 400);
    const over = await agent().create({ line_items: chair(6) }); // 5 in stock
    if (release === '2026-01-11') {
      // No envelope at 2026-01-11: "400 Bad Request — the request was invalid or cannot be served".
      outcomeRefusal(release, over, 'out_of_stock', 400);
      expect(over.body).toMatchObject({ messages: [{ path: '$.line_items[0]', content: expect.stringContaining('Only 5') }] });
    } else {
      // 2026-04-08's "Business Outcomes": the checkout is created and says what is short; a client can lower the quantity.
      expect(errorsOf(checkoutOf(release, over, 201))).toContainEqual(expect.objectContaining({ code: 'out_of_stock', path: '$.line_items[0]', content: expect.stringContaining('5') }));
    }
    const badDiscounts = await agent().create({ line_items: chair(), discounts: { codes: 'TEN' } });
    expect(badDiscounts.status).toBe(400);
    if (release === '2026-01-11') expect(badDiscounts.body).toMatchObject({ status: 'requires_escalation', messages: [{ code: 'invalid_request', path: '$.discounts.codes' }] });
    else expect(badDiscounts.body).toMatchObject({ code: 'invalid_request' });
  });

  it('updates the one method when a client resends it without id, and always shows payment.instruments', async () => {
    const created = checkoutOf(release, await agent().create({ line_items: chair(), buyer: { email: 'jo@example.com' } }), 201);
    expect(created.payment.instruments).toEqual([]);
    const routed = checkoutOf(release, await agent().update(created.id, { line_items: chair(), fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest_home', ...STREET }], selected_destination_id: 'dest_home' }] } }));
    expect(routed.fulfillment.methods[0]).toMatchObject({ id: 'shipping_1', selected_destination_id: 'dest_home' });
    expect(routed.payment.instruments).toEqual([]);
    const chosen = checkoutOf(release, await agent().update(created.id, { line_items: chair(), fulfillment: { methods: [{ selected_destination_id: 'dest_home', groups: [{ id: 'group_1', selected_option_id: 'standard' }] }] } }));
    expect(chosen.status).toBe('ready_for_complete');
  });

  it('names the street address fields a destination with only a country lacks', async () => {
    const created = checkoutOf(release, await agent().create({ line_items: chair(), buyer: { email: 'jo@example.com' }, fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest_1', address_country: 'US' }], selected_destination_id: 'dest_1' }] } }), 201);
    expect(created.fulfillment.methods[0].selected_destination_id).toBe('dest_1');
    const paths = errorsOf(created).map((message: Body) => message.path);
    expect(paths).toEqual(expect.arrayContaining(['$.fulfillment.methods[0].destinations[0].street_address', '$.fulfillment.methods[0].destinations[0].address_locality']));
    expect(paths).not.toContain('$.fulfillment.methods[0].selected_destination_id');
    const completed = checkoutOf(release, await agent().update(created.id, { line_items: chair(), fulfillment: { methods: [{ destinations: [{ id: 'dest_1', ...STREET }], selected_destination_id: 'dest_1' }] } }));
    expect(errorsOf(completed).map((message: Body) => message.path)).not.toContain('$.fulfillment.methods[0].destinations[0].street_address');
  });
});
