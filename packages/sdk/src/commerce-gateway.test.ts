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
});
