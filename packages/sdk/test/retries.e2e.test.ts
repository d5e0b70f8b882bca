/**
 * Retries against the real gateway through a proxy that loses the first answer: the server did
 * the work, the client never heard of it. The retry carries the same Idempotency-Key, so the
 * gateway replays its stored answer instead of doing the work twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommerceGateway, type CheckoutSessionResponse, type Product, type ResponseEvent } from '../src/index.js';
import { buyableProducts } from './support/catalog.js';
import { bodyOf, startFaultyProxy, statusOf, type FaultyProxy } from './support/faulty-proxy.js';
import { gatewayUnderTest } from './support/gateway-under-test.js';

const { url, keys } = gatewayUnderTest();
let proxy: FaultyProxy;
let product: Product;
const events: ResponseEvent[] = [];

beforeAll(async () => {
  proxy = await startFaultyProxy(url);
  [product] = (await buyableProducts(new CommerceGateway({ apiKey: keys.main, baseUrl: url }), 1)) as [Product];
});
afterAll(() => proxy.close());

const throughProxy = (options: { timeout?: number } = {}) =>
  new CommerceGateway({ apiKey: keys.main, baseUrl: proxy.url, onResponse: (event) => events.push(event), ...options });

describe('a connection dropped after the gateway answered', () => {
  it('a retried create does not create a second session', async () => {
    events.length = 0;
    proxy.heldBack.length = 0;
    proxy.dropNextResponse();
    const session = await throughProxy().checkoutSessions.create({ items: [{ product_id: product.id }] });

    // The first attempt was processed: the gateway created a session and answered 201 …
    expect(proxy.heldBack).toHaveLength(1);
    const lost = proxy.heldBack[0]!;
    expect(statusOf(lost)).toBe(201);
    const created = (bodyOf(lost) as CheckoutSessionResponse).checkout_session;
    // … the client saw only a connection reset, retried with the same key, and got that session back, replayed.
    expect(events.map((e) => [e.status, e.attempt, e.replayed])).toEqual([[201, 1, true]]);
    expect(session).toEqual(created);
    expect(await throughProxy().checkoutSessions.retrieve(session.id)).toEqual(created);
  });

  it('a retried complete does not place a second order', async () => {
    const gw = throughProxy();
    const open = await gw.checkoutSessions.create({ items: [{ product_id: product.id }], shipping_address: { country: 'US', state: 'NY', line1: '1 Broadway', city: 'New York', postal_code: '10004' } });
    events.length = 0;
    proxy.heldBack.length = 0;
    proxy.dropNextResponse();
    const completed = await gw.checkoutSessions.complete(open.id);
    const lost = (bodyOf(proxy.heldBack[0]!) as CheckoutSessionResponse).checkout_session;
    expect(completed.order).toEqual(lost.order);
    expect(events.map((e) => [e.status, e.replayed])).toEqual([[200, true]]);
  });

  it('a read is simply asked again', async () => {
    events.length = 0;
    proxy.dropNextResponse();
    expect((await throughProxy().products.retrieve(product.id)).id).toBe(product.id);
    expect(events.map((e) => [e.status, e.attempt])).toEqual([[200, 1]]);
  });
});

describe('an answer that comes too late', () => {
  it('times the attempt out, retries with the same key, and gets the stored answer', async () => {
    events.length = 0;
    proxy.heldBack.length = 0;
    proxy.stallNextResponse();
    const session = await throughProxy({ timeout: 2_000 }).checkoutSessions.create({ items: [{ product_id: product.id }] });
    expect((bodyOf(proxy.heldBack[0]!) as CheckoutSessionResponse).checkout_session.id).toBe(session.id);
    expect(events.map((e) => [e.status, e.attempt, e.replayed])).toEqual([[201, 1, true]]);
  });
});
