/**
 * Orders where UCP clients look for them (issue 37), for each release: under the REST endpoint
 * discovery advertises (`/ucp`), `GET /orders/{id}` answers the order at the release of the checkout
 * that placed it (2026-01-11 too), and `PUT /orders/{id}` — the whole order with shipments appended
 * to `fulfillment.events`, as clients send it — records each appended `shipped` event as a
 * fulfillment. Both to the merchant and platform that placed the order only; an appended adjustment
 * or event of another type is refused, nothing recorded. Every order is validated against the
 * release's official order.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stocked } from './support/checkout.js';
import type { UcpRelease } from './support/official-ucp.js';
import { json, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { checkoutOf, outcomeRefusal, payWith, token, ucpPlatform } from './support/ucp-platform.js';
import { schemaProblems } from './support/official-ucp.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const ORDER = ['https://ucp.dev/schemas/shopping/order.json'];
const SHIPPING = { zones: [{ id: 'us', countries: ['US'], methods: [{ id: 'standard', title: 'Standard', prices: { USD: 7 } }] }] };
const DESTINATION = { street_address: '9 Elm St', address_locality: 'Salem', address_region: 'OR', postal_code: '97301', address_country: 'US' };

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let gateway: TestGateway;
let profiles: ProfileServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('order-updates', [stocked('chair', [{ sku: 'chair-oak', price: 100, quantity: 50 }])]);
  await gateway.services.shipping.import('order-updates', SHIPPING);
  await gateway.importProducts('order-updates-other', [stocked('stool', [{ sku: 'stool-1', price: 10, quantity: 5 }])]);
  key = await gateway.createKey({ merchantIds: ['order-updates'] });
  otherKey = await gateway.createKey({ merchantIds: ['order-updates-other'] });
  profiles = await startProfileServer();
  for (const release of ['2026-04-08', '2026-01-11'] as const) {
    profiles.route(`/platform/${release}`, json(shoppingPlatformProfile(release)));
    profiles.route(`/other/${release}`, json(shoppingPlatformProfile(release)));
  }
}, 60_000);

afterAll(async () => {
  await profiles?.close();
  await gateway?.close();
});

describe.each(['2026-04-08', '2026-01-11'] as const)('UCP %s orders under /ucp', (release: UcpRelease) => {
  const agent = (apiKey = key, profile = `/platform/${release}`) => ucpPlatform({ gatewayUrl: gateway.url, key: apiKey, profile: `${profiles.url}${profile}` });
  const order = (reply: { status: number; body: Body }): Body => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(schemaProblems(release, ORDER, reply.body)).toEqual([]);
    expect(reply.body.ucp.version).toBe(release);
    return reply.body;
  };

  /** Three chairs shipped to DESTINATION, checked out and paid at this release; the order id. */
  async function placed(): Promise<string> {
    const lines = [{ item: { id: 'chair-oak' }, quantity: 3 }];
    const created = checkoutOf(release, await agent().create({ line_items: lines, buyer: { email: 'grace@example.com' }, fulfillment: { methods: [{ type: 'shipping', destinations: [DESTINATION] }] } }), 201);
    checkoutOf(release, await agent().update(created.id, { line_items: lines, fulfillment: { methods: [{ id: 'shipping_1', selected_destination_id: 'dest_1', groups: [{ id: 'group_1', selected_option_id: 'standard' }] }] } }));
    return checkoutOf(release, await agent().complete(created.id, payWith(release, token('success_token')))).order.id;
  }

  it('reads the order at the release of the checkout that placed it', async () => {
    const id = await placed();
    const read = order(await agent().order(id));
    expect(read).toMatchObject({ id, line_items: [{ id: 'li_1', quantity: { total: 3, fulfilled: 0 } }] });
  });

  it('records the shipments a PUT appends, as clients send the whole order back', async () => {
    const id = await placed();
    const current = order(await agent().order(id));
    const event = { id: 'evt_client_1', occurred_at: new Date().toISOString(), type: 'shipped', line_items: [{ id: 'li_1', quantity: 2 }], tracking_number: 'TRACK123', tracking_url: 'http://track.me/123', description: 'Shipped via FedEx' };
    const updated = order(await agent().updateOrder(id, { ...current, fulfillment: { ...current.fulfillment, events: [...current.fulfillment.events, event] } }));
    expect(updated.fulfillment.events).toEqual([expect.objectContaining({ type: 'shipped', tracking_number: 'TRACK123', line_items: [{ id: 'li_1', quantity: 2 }] })]);
    expect(updated.line_items[0].quantity).toMatchObject({ total: 3, fulfilled: 2 });
    // Sent back again as read, nothing new is appended; a second shipment takes the rest.
    const same = order(await agent().updateOrder(id, updated));
    expect(same.fulfillment.events).toHaveLength(1);
    const rest = order(await agent().updateOrder(id, { ...same, fulfillment: { ...same.fulfillment, events: [...same.fulfillment.events, { ...event, id: 'evt_client_2', line_items: [], tracking_number: 'TRACK456' }] } }));
    expect(rest.line_items[0].quantity).toMatchObject({ total: 3, fulfilled: 3 });
    expect(order(await agent().order(id)).fulfillment.events.map((e: Body) => e.tracking_number)).toEqual(['TRACK123', 'TRACK456']);
  });

  it('refuses an appended adjustment or event of another type, recording nothing', async () => {
    const id = await placed();
    const current = order(await agent().order(id));
    const adjustment = { id: 'adj_1', type: 'refund', occurred_at: new Date().toISOString(), status: 'pending', amount: 500 };
    const refund = await agent().updateOrder(id, { ...current, adjustments: [adjustment] });
    expect(refund.status).toBe(400);
    expect(JSON.stringify(refund.body)).toContain('$.adjustments[0]');
    const delivered = await agent().updateOrder(id, { ...current, fulfillment: { ...current.fulfillment, events: [{ id: 'evt_x', type: 'delivered', occurred_at: new Date().toISOString(), line_items: [] }] } });
    expect(delivered.status).toBe(400);
    expect(JSON.stringify(delivered.body)).toContain('$.fulfillment.events[0].type');
    expect(order(await agent().order(id)).fulfillment.events).toEqual([]);
  });

  it('is not found for another merchant or another platform, for reads and updates alike', async () => {
    const id = await placed();
    const current = order(await agent().order(id));
    for (const stranger of [agent(otherKey), agent(key, `/other/${release}`)]) {
      outcomeRefusal(release, await stranger.order(id), 'not_found', 404);
      outcomeRefusal(release, await stranger.updateOrder(id, current), 'not_found', 404);
    }
  });
});
