/**
 * An independent UCP 2026-01-11 client, driven the way it drives a business (issue 37): it reads
 * `/.well-known/ucp` for the shopping service's REST endpoint and calls everything relative to it,
 * with the headers it always sends — `UCP-Agent` with its profile URL, `request-signature`,
 * `idempotency-key`, `request-id`. Its platform profile is the one 2026-01-11's overview shows: no
 * `ucp.services`, and only `dev.ucp.shopping.order` with its `webhook_url`. It creates with a
 * destination of only a country and the option it expects, resends the method without `id` with
 * the full address, completes with a card instrument in `payment_data` (a billing address, risk
 * signals), has the order shipped by the simulation, receives both order webhooks, and reads
 * `GET {endpoint}/orders/{id}`. Every answer is validated against the official 2026-01-11 schemas.
 */
import { verifyUcpDetachedJws, type UcpJwk } from '@commerce-gateway/webhooks';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { stocked } from './support/checkout.js';
import { call } from './support/http.js';
import { checkoutSchemas, schemaProblems } from './support/official-ucp.js';
import { ucpWorker } from './support/ucp-orders.js';
import { json, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const RELEASE = '2026-01-11';
const SECRET = 'simulation-secret-for-tests-0037';
const SHIPPING = { zones: [{ id: 'us', countries: ['US'], methods: [{ id: 'std-ship', title: 'Standard Shipping', prices: { USD: 5 } }] }] };
const ORDER = ['https://ucp.dev/schemas/shopping/order.json'];

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let gateway: TestGateway;
let profiles: ProfileServer;
let receiver: Receiver;
let worker: DeliveryWorker | undefined;
let key: string;

beforeAll(async () => {
  // A 2026-01-11 business: its /.well-known/ucp is the profile this client parses.
  gateway = await startTestGateway({ UCP_VERSION: RELEASE, UCP_SIMULATION_SECRET: SECRET });
  await gateway.services.ucpSigningKeys.load();
  await gateway.importProducts('flower-shop', [stocked('roses', [{ sku: 'bouquet_roses', price: 35, quantity: 100 }], { title: 'Bouquet of Red Roses' })]);
  await gateway.services.shipping.import('flower-shop', SHIPPING);
  key = await gateway.createKey({ merchantIds: ['flower-shop'] });
  receiver = await startReceiver();
  profiles = await startProfileServer();
  profiles.route('/profiles/shopping-agent.json', json({
    ucp: {
      version: RELEASE,
      capabilities: [{ name: 'dev.ucp.shopping.order', version: RELEASE, spec: 'https://ucp.dev/specification/order', schema: 'https://ucp.dev/schemas/shopping/order.json', config: { webhook_url: `${receiver.url}/webhooks/partners/test_partner/events/order` } }],
    },
  }));
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await profiles?.close();
  await gateway?.close();
});

describe('an independent UCP 2026-01-11 client', () => {
  const headers = () => ({
    authorization: `Bearer ${key}`,
    'UCP-Agent': `profile="${profiles.url}/profiles/shopping-agent.json"`,
    'request-signature': 'test',
    'idempotency-key': randomUUID(),
    'request-id': randomUUID(),
  });
  const checkout = (reply: { status: number; body: Body }, status = 200): Body => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(status);
    expect(schemaProblems(RELEASE, checkoutSchemas(RELEASE), reply.body)).toEqual([]);
    return reply.body;
  };

  it('checks out, completes, sees the order shipped, and reads it relative to the advertised endpoint', async () => {
    const discovery = await call(`${gateway.url}/.well-known/ucp`);
    const endpoint = discovery.body.ucp.services['dev.ucp.shopping'].rest.endpoint.replace(/\/$/, '');
    const at = (path: string) => `${endpoint}${path}`;

    const created = checkout(await call(at('/checkout-sessions'), {
      method: 'POST',
      headers: headers(),
      json: {
        id: randomUUID(),
        currency: 'USD',
        line_items: [{ quantity: 1, item: { id: 'bouquet_roses', title: 'Bouquet of Red Roses' } }],
        buyer: { full_name: 'John Doe', email: 'john.doe@example.com' }, // the business sends a confirmation email (checkout.md "Business")
        payment: { instruments: [], selected_instrument_id: 'instr_1', handlers: [{ id: 'google_pay', name: 'google.pay', version: RELEASE, spec: 'https://example.com/spec', config_schema: 'https://example.com/schema', instrument_schemas: ['https://example.com/instrument_schema'], config: {} }] },
        fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'dest_1', address_country: 'US' }], selected_destination_id: 'dest_1', groups: [{ selected_option_id: 'std-ship' }] }] },
      },
    }), 201);
    expect(created.payment.instruments).toEqual([]);
    expect(created.messages.map((message: Body) => message.path)).toContain('$.fulfillment.methods[0].destinations[0].street_address');

    // The client resends its one method, without id, with the full address.
    const address = { id: 'dest_default', street_address: '123 Default St', address_locality: 'Springfield', address_region: 'IL', postal_code: '62701', address_country: 'US' };
    const lines = created.line_items.map((line: Body) => ({ id: line.id, item: { id: line.item.id, title: line.item.title }, quantity: line.quantity }));
    const payment = { selected_instrument_id: created.payment.selected_instrument_id, instruments: created.payment.instruments, handlers: created.payment.handlers };
    const addressed = checkout(await call(at(`/checkout-sessions/${created.id}`), {
      method: 'PUT',
      headers: headers(),
      json: { id: created.id, currency: 'USD', line_items: lines, payment, fulfillment: { methods: [{ type: 'shipping', destinations: [address], selected_destination_id: 'dest_default' }] } },
    }));
    const method = addressed.fulfillment.methods[0];
    expect(method.groups[0].options.map((option: Body) => option.id)).toEqual(['std-ship']);
    const ready = checkout(await call(at(`/checkout-sessions/${created.id}`), {
      method: 'PUT',
      headers: headers(),
      json: { id: created.id, currency: 'USD', line_items: lines, payment, fulfillment: { methods: [{ ...method, groups: [{ ...method.groups[0], selected_option_id: 'std-ship' }] }] } },
    }));
    expect(ready.status).toBe('ready_for_complete');

    const billing = { street_address: '123 Main St', address_locality: 'Anytown', address_region: 'CA', address_country: 'US', postal_code: '12345' };
    const completed = checkout(await call(at(`/checkout-sessions/${created.id}/complete`), {
      method: 'POST',
      headers: headers(),
      json: { payment_data: { id: 'instr_1', handler_id: 'mock_payment_handler', handler_name: 'mock_payment_handler', type: 'card', brand: 'Visa', last_digits: '1234', credential: { type: 'token', token: 'success_token' }, billing_address: billing }, risk_signals: {} },
    }));
    expect(completed).toMatchObject({ status: 'completed', order: { id: expect.stringMatching(/^ord_/) } });
    const orderId = completed.order.id;

    const shipped = await call(`${gateway.url}/testing/simulate-shipping/${orderId}`, { method: 'POST', headers: { 'Simulation-Secret': SECRET } });
    expect(shipped.status).toBe(200);

    const read = await call(at(`/orders/${orderId}`), { headers: headers() });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(schemaProblems(RELEASE, ORDER, read.body)).toEqual([]);
    expect(read.body).toMatchObject({ id: orderId, checkout_id: created.id, ucp: { version: RELEASE } });
    expect(read.body.fulfillment.expectations[0].description).toBeDefined();
    expect(read.body.fulfillment.events).toEqual([expect.objectContaining({ type: 'shipped', tracking_number: expect.stringMatching(/^SIM/) })]);

    // Its webhook_url hears the placed and the shipped order, signed with a key discovery publishes.
    worker = ucpWorker(gateway);
    const requests = await receiver.waitFor(2);
    const keys = discovery.body.signing_keys as UcpJwk[];
    const [placed, delivered] = requests.map((request) => verifyUcpDetachedJws(request.raw, request.headers['request-signature'] as string, keys) as Body);
    for (const order of [placed, delivered]) expect(schemaProblems(RELEASE, ORDER, order)).toEqual([]);
    expect(delivered.fulfillment.events[0]).toMatchObject({ type: 'shipped' });
  });
});
