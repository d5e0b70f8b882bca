import { describe, expect, it } from 'vitest';
import { CommerceGateway } from './commerce-gateway.js';
import { ConfigurationError } from './errors/errors.js';
import { fakeFetch } from './testing/fake-fetch.js';
import { json, order, product } from './testing/fixtures.js';

describe('new CommerceGateway', () => {
  it('groups the operations by resource', () => {
    const gw = new CommerceGateway({ apiKey: 'sk_dev_abc' });
    expect(Object.keys(gw)).toEqual(expect.arrayContaining(['checkoutSessions', 'orders', 'products', 'webhooks']));
    expect(typeof gw.checkoutSessions.create).toBe('function');
    expect(typeof gw.products.iterate).toBe('function');
    expect(gw).toMatchObject({ environment: 'development', baseUrl: 'http://127.0.0.1:8080', apiVersion: '2026-11-01' });
  });

  it('fails fast on a key of another environment', () => {
    expect(() => new CommerceGateway({ apiKey: 'sk_live_abc', environment: 'sandbox', baseUrl: 'https://gw.example.com' })).toThrow(ConfigurationError);
  });

  it('fails fast on an unknown environment', () => {
    expect(() => new CommerceGateway({ apiKey: 'sk_dev_abc', environment: 'staging' as never })).toThrow(/Unknown environment "staging"/);
  });

  it('does not show the API key when logged', async () => {
    const gw = new CommerceGateway({ apiKey: 'sk_dev_SECRET', signingSecret: 'ss_SECRET' });
    const { inspect } = await import('node:util');
    expect(inspect(gw, { depth: 10 })).not.toMatch(/SECRET/);
    expect(JSON.stringify(gw)).not.toMatch(/SECRET/);
  });

  it('uses the fetch it is given', async () => {
    const { fetch, sent } = fakeFetch([json(product())]);
    const gw = new CommerceGateway({ apiKey: 'sk_sandbox_abc', baseUrl: 'https://sandbox.example.com', fetch });
    await gw.products.retrieve('chair-1');
    expect(sent[0]!.url).toBe('https://sandbox.example.com/acp/products/chair-1');
  });

  it('reads orders: one by id, and a page with its filters in the query', async () => {
    const { fetch, sent } = fakeFetch([json(order({ id: 'ord_9' })), json({ items: [order()], has_more: true, next_cursor: 'abc' })]);
    const gw = new CommerceGateway({ apiKey: 'sk_sandbox_abc', baseUrl: 'https://sandbox.example.com', fetch });
    expect((await gw.orders.retrieve('ord_9')).id).toBe('ord_9');
    expect(await gw.orders.list({ status: 'fulfilled', email: 'a+b@example.com', limit: 5 })).toMatchObject({ has_more: true, next_cursor: 'abc' });
    expect(sent[0]!.url).toBe('https://sandbox.example.com/orders/ord_9');
    const url = new URL(sent[1]!.url);
    expect(url.pathname).toBe('/orders');
    expect(Object.fromEntries(url.searchParams)).toEqual({ status: 'fulfilled', email: 'a+b@example.com', limit: '5' });
  });

  it('changes orders: fulfil, deliver, cancel and refund, each a POST with an Idempotency-Key and its body', async () => {
    const shipped = order({ status: 'fulfilled', fulfillments: [{ id: 'ful_1', status: 'shipped', carrier: 'UPS', tracking_number: '1Z', tracking_url: null, lines: [{ line: 1, quantity: 1 }], created_at: '2026-11-22T11:00:00.000Z', delivered_at: null }] });
    const { fetch, sent } = fakeFetch([json(shipped), json(order({ status: 'delivered' })), json(order({ refunded_amount: 5 })), json(order({ status: 'canceled' }))]);
    const gw = new CommerceGateway({ apiKey: 'sk_sandbox_abc', baseUrl: 'https://sandbox.example.com', fetch });
    expect((await gw.orders.fulfil('ord_9', { carrier: 'UPS', tracking_number: '1Z', lines: [{ line: 1, quantity: 1 }] })).fulfillments[0]!.id).toBe('ful_1');
    expect((await gw.orders.deliver('ord_9', 'ful_1')).status).toBe('delivered');
    expect((await gw.orders.refund('ord_9', { amount: 5, reason: 'damaged' }, { idempotencyKey: 'refund-1' })).refunded_amount).toBe(5);
    expect((await gw.orders.cancel('ord_9')).status).toBe('canceled');
    expect(sent.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /orders/ord_9/fulfillments',
      'POST /orders/ord_9/fulfillments/ful_1/deliver',
      'POST /orders/ord_9/refunds',
      'POST /orders/ord_9/cancel',
    ]);
    expect(JSON.parse(sent[0]!.body)).toEqual({ carrier: 'UPS', tracking_number: '1Z', lines: [{ line: 1, quantity: 1 }] });
    expect(JSON.parse(sent[2]!.body)).toEqual({ amount: 5, reason: 'damaged' });
    expect(sent[2]!.headers.get('idempotency-key')).toBe('refund-1');
    for (const request of sent) expect(request.headers.get('idempotency-key')).toBeTruthy();
  });

  it('refuses an empty order or fulfillment id before sending anything', async () => {
    const { fetch, sent } = fakeFetch([]);
    const gw = new CommerceGateway({ apiKey: 'sk_sandbox_abc', baseUrl: 'https://sandbox.example.com', fetch });
    await expect(gw.orders.deliver('ord_9', '')).rejects.toThrow(/fulfillmentId/);
    await expect(gw.orders.refund('', { reason: 'other' })).rejects.toThrow(/orderId/);
    expect(sent).toHaveLength(0);
  });
});
