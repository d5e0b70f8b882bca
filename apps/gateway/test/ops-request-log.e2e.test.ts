/**
 * The request log of a real gateway (test/support/ops-gateway.ts): one JSON line per request with
 * its id, operation, method, path, status, duration and merchant; never a key, secret or
 * signature, whatever the request carried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { openOpsShop, type OpsGateway, type OpsShop } from './support/ops-gateway.js';

let gateway: OpsGateway;
let shop: OpsShop | undefined;

beforeAll(async () => {
  shop = await openOpsShop();
  ({ gateway } = shop);
});
afterAll(() => shop?.close());

describe('the request log', () => {
  it('writes one JSON line per request with its id, operation, method, path, status, duration and merchant', async () => {
    const { key } = await gateway.key();
    const reply = await call(`${gateway.url}/acp/products/chair?fields=x`, { headers: { 'X-ACP-API-Key': key, 'Request-Id': 'req-log-1' } });
    expect(reply.status).toBe(400); // unknown query parameter: still one line
    await call(`${gateway.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': key, 'Request-Id': 'req-log-2', 'Accept-Language': 'de-CH, de;q=0.9' } });
    await new Promise((resolve) => setImmediate(resolve));
    const lines = gateway.logLines.filter((l) => l.msg === 'request' && String(l.requestId).startsWith('req-log-'));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({
      level: 30,
      time: expect.any(Number),
      msg: 'request',
      requestId: 'req-log-2',
      operation: 'getProduct',
      method: 'GET',
      path: '/acp/products/chair',
      status: 200,
      durationMs: expect.any(Number),
      merchant: 'ops-shop',
      locale: 'de-CH',
    });
    expect(lines[0]).not.toHaveProperty('locale');
    expect(lines[0]).toMatchObject({ requestId: 'req-log-1', status: 400, path: '/acp/products/chair' });
  });

  it('never logs a key, secret or signature, whatever the request carried', async () => {
    const { key, signingSecret } = await gateway.key({ signingSecret: true });
    const { key: plain } = await gateway.key();
    const basic = Buffer.from(`${plain}:`).toString('base64');
    const emitSecret = 'whsec_never_in_a_log_line';
    await call(`${gateway.url}/acp/products/chair`, { headers: { Authorization: `Bearer ${plain}` } });
    await call(`${gateway.url}/acp/products/chair`, { headers: { Authorization: `Basic ${basic}` } });
    await call(`${gateway.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': key, Signature: 'c2lnbmF0dXJlLXZhbHVl', Timestamp: String(Math.floor(Date.now() / 1000)) } });
    const emitted = await call(`${gateway.url}/webhooks/emit`, { method: 'POST', headers: { 'X-ACP-API-Key': plain }, json: { event_type: 'order.created', signature_secret: emitSecret } });
    expect(emitted.status).toBe(200);
    await call(`${gateway.url}/acp/products/chair`, { headers: { 'X-ACP-API-Key': `${plain}-wrong` } });
    await new Promise((resolve) => setImmediate(resolve));
    const text = gateway.logText();
    for (const secret of [key, plain, basic, signingSecret, emitSecret, 'c2lnbmF0dXJlLXZhbHVl', emitted.body.signature, `${plain}-wrong`]) {
      if (secret) expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/sk_(dev|sandbox|live)_/);
  });
});
