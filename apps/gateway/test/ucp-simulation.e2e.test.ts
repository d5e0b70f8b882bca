/**
 * `POST /testing/simulate-shipping/{order_id}` (src/ucp/simulation/): guarded by Simulation-Secret,
 * absent in production, and the shipment it makes reaches the platform as a signed order webhook.
 */
import { verifyUcpRequest, type UcpJwk } from '@commerce-gateway/webhooks';
import express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UcpOrderService } from '../src/ucp/order/ucp-order-service.js';
import { simulationAllowed, ucpSimulation } from '../src/ucp/simulation/simulate-shipping.js';
import { describeProblem, ucpOrderValidator } from '../src/ucp/ucp-schemas.js';
import type { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { listenOn } from '../src/server.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';
import { placedOrder, ucpShop, ucpWorker } from './support/ucp-orders.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

const SECRET = 'sim_secret_0123456789abcdef';
let gateway: TestGateway;
let receiver: Receiver;
const workers: DeliveryWorker[] = [];

beforeAll(async () => {
  gateway = await startTestGateway({ UCP_SIMULATION_SECRET: SECRET });
  await gateway.services.ucpSigningKeys.load();
  receiver = await startReceiver();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  receiver.requests.length = 0;
});
afterAll(async () => {
  await receiver?.close();
  await gateway?.close();
});

const simulate = (orderId: string, secret?: string, base = gateway.url) =>
  fetch(`${base}/testing/simulate-shipping/${encodeURIComponent(orderId)}`, { method: 'POST', headers: secret === undefined ? {} : { 'Simulation-Secret': secret } });

describe('POST /testing/simulate-shipping/{order_id}', () => {
  it('ships every unit left with a tracking number, and the platform receives the shipped order, signed', async () => {
    const { calls } = await ucpShop(gateway);
    const path = '/platform/simulated';
    const orderId = await placedOrder(gateway, calls, { version: '2026-04-08', webhookUrl: `${receiver.url}${path}` });
    const reply = await simulate(orderId, SECRET);
    expect(reply.status).toBe(200);
    const shipped = (await reply.json()) as { id: string; line_items: { status: string }[]; fulfillment: { events: { type: string; tracking_number?: string }[] } };
    const validate = ucpOrderValidator('2026-04-08');
    expect(validate(shipped), describeProblem(validate)).toBe(true);
    expect(shipped.id).toBe(orderId);
    expect(shipped.line_items.map((l) => l.status)).toEqual(['fulfilled']);
    expect(shipped.fulfillment.events).toEqual([expect.objectContaining({ type: 'shipped', tracking_number: expect.stringMatching(/^SIM/) })]);

    workers.push(ucpWorker(gateway));
    const [placedHook, shippedHook] = await receiver.waitFor(2);
    const keys = ((await (await fetch(`${gateway.url}/.well-known/ucp`)).json()) as { signing_keys: UcpJwk[] }).signing_keys;
    const received = verifyUcpRequest<typeof shipped>({ method: 'POST', url: `${receiver.url}${path}`, headers: shippedHook!.headers as Record<string, string>, body: shippedHook!.raw }, keys);
    expect(received.fulfillment.events[0]!.tracking_number).toBe(shipped.fulfillment.events[0]!.tracking_number);
    expect(placedHook!.path).toBe(path);
  });

  it('is refused 403 without the Simulation-Secret header, or with another value', async () => {
    const { calls } = await ucpShop(gateway);
    const orderId = await placedOrder(gateway, calls, { version: '2026-01-11' });
    expect((await simulate(orderId)).status).toBe(403);
    expect((await simulate(orderId, `${SECRET}x`)).status).toBe(403);
    const order = await gateway.services.orders.get((await gateway.db.prisma.order.findUniqueOrThrow({ where: { id: orderId } })).merchantId, orderId);
    expect(order.fulfillments).toEqual([]);
  });

  it('answers 404 for an unknown order and for one not placed through UCP, 409 when nothing is left to ship', async () => {
    const { calls } = await ucpShop(gateway);
    expect((await simulate('ord_unknown', SECRET)).status).toBe(404);
    expect((await simulate(await placedOrder(gateway, calls), SECRET)).status).toBe(404);
    const orderId = await placedOrder(gateway, calls, { version: '2026-01-11' });
    expect((await simulate(orderId, SECRET)).status).toBe(200);
    const again = await simulate(orderId, SECRET);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'nothing_to_ship' });
  });
});

describe('ucpSimulation()', () => {
  const orders = { simulateShipping: async () => ({ id: 'ord_x' }) } as unknown as UcpOrderService;

  async function answer(options: Parameters<typeof ucpSimulation>[0], secret?: string): Promise<number> {
    const app = express();
    app.use(ucpSimulation(options));
    app.use((_req, res) => void res.status(404).json({ code: 'not_found' }));
    const listening = await listenOn(app, '127.0.0.1', 0);
    try {
      return (await simulate('ord_x', secret, listening.url)).status;
    } finally {
      await listening.close();
    }
  }

  it('does not exist in production (404), whatever the secret', async () => {
    expect(await answer({ env: 'production', secret: SECRET, orders }, SECRET)).toBe(404);
  });

  it('refuses every call (403) when UCP_SIMULATION_SECRET is not set', async () => {
    expect(await answer({ env: 'sandbox', secret: undefined, orders }, '')).toBe(403);
    expect(await answer({ env: 'development', secret: undefined, orders }, 'anything-at-all-here')).toBe(403);
    expect(await answer({ env: 'sandbox', secret: SECRET, orders }, SECRET)).toBe(200);
  });

  it.each([
    [SECRET, SECRET, true],
    [SECRET, SECRET.slice(1), false],
    [SECRET, '', false],
    [SECRET, undefined, false],
    [undefined, '', false],
  ])('simulationAllowed(%j, %j) is %s', (expected, given, allowed) => {
    expect(simulationAllowed(expected, given)).toBe(allowed);
  });
});
