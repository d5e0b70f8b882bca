/** POST /webhooks/emit against a real gateway, with and without a delivery target. */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommerceGateway } from '../src/index.js';
import { buyableProducts } from './support/catalog.js';
import { gatewayUnderTest } from './support/gateway-under-test.js';

const { url, keys } = gatewayUnderTest();
const gw = new CommerceGateway({ apiKey: keys.main, baseUrl: url });

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(202).end();
  });
});
let receiverUrl: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const v1 = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('hex');

describe('webhooks.emit', () => {
  it('builds and signs an event without delivering it', async () => {
    const result = await gw.webhooks.emit({ event_type: 'order.updated', payload: { note: 'hello' }, signature_secret: 'whsec_test' });
    expect(result.delivered).toBeNull();
    expect(result.payload).toMatchObject({ type: 'order.updated', data: { object: { note: 'hello' } } });
    expect(result.payload.id).toMatch(/^evt_/);
    const [, v1Value] = /v1=([0-9a-f]{64})/.exec(result.signature)!;
    expect(v1Value).toBe(v1(JSON.stringify(result.payload), 'whsec_test'));
  });

  it("delivers to target_url and reports the target's status", async () => {
    const [product] = await buyableProducts(gw, 1);
    const session = await gw.checkoutSessions.create({ items: [{ product_id: product!.id }] });
    const result = await gw.webhooks.emit({ event_type: 'order.created', checkout_session_id: session.id, target_url: receiverUrl, signature_secret: 'whsec_test' });
    expect(result.delivered).toBe(202);
    expect(result.payload.data.object).toMatchObject({ id: session.id, status: 'open' });
    const delivery = received.at(-1)!;
    expect(delivery.headers['x-webhook-signature']).toBe(result.signature);
    expect(result.signature).toContain(`v1=${v1(delivery.body, 'whsec_test')}`);
  });
});
