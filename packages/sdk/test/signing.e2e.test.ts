/** A key created with --signing-secret, serving two merchants: every request signed, Merchant-Id chosen. */
import { describe, expect, it } from 'vitest';
import { CommerceGateway } from '../src/index.js';
import { buyableProducts } from './support/catalog.js';
import { gatewayUnderTest } from './support/gateway-under-test.js';

const { url, keys, signingSecret } = gatewayUnderTest();
const demo = new CommerceGateway({ apiKey: keys.signed, signingSecret, merchantId: 'demo', baseUrl: url });

describe('signed requests (Signature, Timestamp)', () => {
  it('reads, with the empty body signed', async () => {
    const [product] = await buyableProducts(demo, 1);
    expect((await demo.products.retrieve(product!.id)).id).toBe(product!.id);
  });

  it('writes, with the exact JSON bytes signed (non-ASCII included)', async () => {
    const [product] = await buyableProducts(demo, 1);
    const session = await demo.checkoutSessions.create({ items: [{ product_id: product!.id }], customer: { name: 'Zoë Ørsted 東京' } });
    expect(session.customer).toEqual({ name: 'Zoë Ørsted 東京' });
    const updated = await demo.checkoutSessions.update(session.id, { shipping_address: { country: 'DE', city: 'Köln' } });
    expect(updated.tax.rate).toBe(0.19);
    expect((await demo.checkoutSessions.cancel(session.id)).status).toBe('canceled');
    expect((await demo.webhooks.emit({ event_type: 'order.canceled', checkout_session_id: session.id })).payload.data.object).toMatchObject({ id: session.id });
  });
});

describe('merchantId', () => {
  it("acts for the merchant it names: shop2's catalog is empty", async () => {
    const shop2 = new CommerceGateway({ apiKey: keys.signed, signingSecret, merchantId: 'shop2', baseUrl: url });
    expect((await shop2.products.search()).total).toBe(0);
    expect((await demo.products.search()).total).toBeGreaterThan(1000);
  });
});
