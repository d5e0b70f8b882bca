/**
 * A finished checkout stays finished, and the test handler takes both credential forms of the
 * release (issue 37), for each release, every answer validated against its official schemas:
 * - completing a canceled checkout answers 200 with the canceled session and no message; completing
 *   a completed one with a new Idempotency-Key answers it with its order, no message;
 * - update and cancel of a canceled or completed checkout answer the release's "not modifiable"
 *   error (checkout_not_modifiable: 2026-04-08 200 with its envelope, 2026-01-11 409) — see
 *   src/ucp/checkout/finished-checkout.ts for how the spec's two statements are reconciled;
 * - token credentials (`success_token`, `fail_token`) and card credentials (`type: card`: the
 *   release's test numbers 4242424242424242 and 4111111111111111 approve, 4000000000000002 and
 *   any other number are declined), the card never shown back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stocked } from './support/checkout.js';
import { json, shoppingPlatformProfile, startProfileServer, type ProfileServer } from './support/ucp-profiles.js';
import { card, checkoutOf, errorsOf, outcomeRefusal, payWith, token, ucpPlatform } from './support/ucp-platform.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let profiles: ProfileServer;
let key: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('finished-shop', [stocked('ebook', [{ sku: 'ebook-1', price: 12, quantity: 500, requires_shipping: false, taxable: false }])]);
  key = await gateway.createKey({ merchantIds: ['finished-shop'] });
  profiles = await startProfileServer();
  for (const release of ['2026-04-08', '2026-01-11'] as const) profiles.route(`/platform/${release}`, json(shoppingPlatformProfile(release)));
}, 60_000);

afterAll(async () => {
  await profiles?.close();
  await gateway?.close();
});

describe.each(['2026-04-08', '2026-01-11'] as const)('UCP %s', (release) => {
  const agent = () => ucpPlatform({ gatewayUrl: gateway.url, key, profile: `${profiles.url}/platform/${release}` });
  const ebook = [{ item: { id: 'ebook-1' }, quantity: 1 }];
  const ready = async () => checkoutOf(release, await agent().create({ line_items: ebook, buyer: { email: 'jo@example.com' } }), 201);

  it('a canceled checkout stays canceled: completion shows it, update and cancel are not modifiable', async () => {
    const created = await ready();
    const canceled = checkoutOf(release, await agent().cancel(created.id));
    expect(canceled.status).toBe('canceled');
    expect(canceled.messages).toBeUndefined();
    const completed = checkoutOf(release, await agent().complete(created.id, payWith(release, token('success_token'))));
    expect(completed).toMatchObject({ id: created.id, status: 'canceled' });
    expect(completed.messages).toBeUndefined();
    expect(completed.order).toBeUndefined();
    outcomeRefusal(release, await agent().update(created.id, { line_items: ebook }), 'checkout_not_modifiable', 409);
    outcomeRefusal(release, await agent().cancel(created.id), 'checkout_not_modifiable', 409);
  });

  it('a completed checkout stays completed: a completion with a new key shows its order, update and cancel are not modifiable', async () => {
    const created = await ready();
    const first = checkoutOf(release, await agent().complete(created.id, payWith(release, token('success_token'))));
    expect(first.status).toBe('completed');
    const again = checkoutOf(release, await agent().complete(created.id, payWith(release, token('fail_token')))); // a new key, another body
    expect(again).toMatchObject({ status: 'completed', order: { id: first.order.id } });
    expect(again.messages).toBeUndefined();
    outcomeRefusal(release, await agent().update(created.id, { line_items: ebook }), 'checkout_not_modifiable', 409);
    outcomeRefusal(release, await agent().cancel(created.id), 'checkout_not_modifiable', 409);
  });

  it('takes token credentials: success_token approves, fail_token is declined', async () => {
    const declined = await ready();
    const failed = checkoutOf(release, await agent().complete(declined.id, payWith(release, token('fail_token'))));
    expect(failed.order).toBeUndefined();
    expect(errorsOf(failed)).toEqual([expect.objectContaining({ code: 'payment_failed', path: '$.payment' })]);
    const paid = checkoutOf(release, await agent().complete(declined.id, payWith(release, token('success_token'))));
    expect(paid.status).toBe('completed');
  });

  it.each([['4242424242424242'], ['4111111111111111']])('takes a card credential with the test number %s: approved, the card never shown back', async (number) => {
    const created = await ready();
    const paid = checkoutOf(release, await agent().complete(created.id, payWith(release, card(number))));
    expect(paid).toMatchObject({ status: 'completed', order: { id: expect.stringMatching(/^ord_/) } });
    expect(JSON.stringify(paid)).not.toContain(number);
    expect(JSON.stringify(checkoutOf(release, await agent().get(created.id)))).not.toContain(number);
  });

  it.each([['4000000000000002'], ['5555555555554444']])('declines a card credential with %s: payment_failed, nothing ordered', async (number) => {
    const created = await ready();
    const declined = checkoutOf(release, await agent().complete(created.id, payWith(release, card(number))));
    expect(declined.status).toBe('ready_for_complete');
    expect(declined.order).toBeUndefined();
    expect(errorsOf(declined)).toEqual([expect.objectContaining({ code: 'payment_failed' })]);
  });

  it('refuses a card credential without a number, naming the path', async () => {
    const created = await ready();
    const { number: _none, ...numberless } = card('4242424242424242');
    const refused = await agent().complete(created.id, payWith(release, numberless));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/number/);
  });
});
