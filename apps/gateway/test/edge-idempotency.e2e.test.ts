/** Idempotency-Key through real HTTP, on checkout writes (ACP rules; see DESIGN.md). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { product } from './support/fixtures.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let key: string;
let n = 0;
const freshKey = () => `idem-${Date.now()}-${++n}`;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [product({ id: 'mug', price: 12 })]);
  key = await gateway.createKey({ merchantIds: ['shop'] });
});
afterAll(() => gateway?.close());

const create = (idempotencyKey: string | undefined, body: unknown, raw?: string) =>
  call(`${gateway.url}/checkout_sessions`, {
    method: 'POST',
    headers: { 'X-ACP-API-Key': key, ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}), ...(raw ? { 'content-type': 'application/json' } : {}) },
    ...(raw ? { body: raw } : { json: body }),
  });

const sessions = () => gateway.db.prisma.checkoutSession.count({ where: { merchantId: 'shop' } });

describe('Idempotency-Key', () => {
  it('replays the very bytes of the first answer', async () => {
    const k = freshKey();
    const send = () =>
      fetch(`${gateway.url}/checkout_sessions`, {
        method: 'POST',
        headers: { 'X-ACP-API-Key': key, 'Idempotency-Key': k, 'Content-Type': 'application/json' },
        body: JSON.stringify({ items: [{ product_id: 'mug' }], customer: { name: 'Ada', email: 'ada@example.com', phone: '+1 555' } }),
      }).then((response) => response.text());
    const first = await send();
    expect(await send()).toBe(first);
  });

  it('replays the stored answer for a repeat, with Idempotent-Replayed, and creates nothing twice', async () => {
    const k = freshKey();
    const before = await sessions();
    const first = await create(k, { items: [{ product_id: 'mug', quantity: 2 }] });
    const again = await create(k, { items: [{ product_id: 'mug', quantity: 2 }] });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await sessions()).toBe(before + 1);
  });

  it('treats semantically equal bodies as the same request (key order, 1.0 and 1)', async () => {
    const k = freshKey();
    const first = await create(k, undefined, '{"items":[{"product_id":"mug","quantity":1}],"payment_method":"demo_card"}');
    const again = await create(k, undefined, '{ "payment_method" : "demo_card", "items" : [ { "quantity" : 1.0, "product_id" : "mug" } ] }');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.checkout_session.id).toBe(first.body.checkout_session.id);
  });

  it('refuses the same key with another body: 422 idempotency_conflict', async () => {
    const k = freshKey();
    await create(k, { items: [{ product_id: 'mug', quantity: 1 }] });
    const other = await create(k, { items: [{ product_id: 'mug', quantity: 3 }] });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'idempotency_conflict', detail: expect.any(String) });
  });

  it('lets 20 concurrent requests with one new key create exactly one session', async () => {
    const k = freshKey();
    const before = await sessions();
    const replies = await Promise.all(Array.from({ length: 20 }, () => create(k, { items: [{ product_id: 'mug' }] })));
    const created = replies.filter((r) => r.status === 201);
    const inFlight = replies.filter((r) => r.status === 409);
    expect(created.length + inFlight.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.checkout_session.id)).size).toBe(1);
    for (const reply of inFlight) {
      expect(reply.body.code).toBe('idempotency_in_flight');
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(await sessions()).toBe(before + 1);
  });

  it("stores the operation's 4xx answers too", async () => {
    const k = freshKey();
    const first = await create(k, { items: [{ product_id: 'no-such-product' }] });
    expect(first.status).toBe(404);
    await gateway.importProducts('shop', [product({ id: 'no-such-product' })]);
    const again = await create(k, { items: [{ product_id: 'no-such-product' }] });
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('never stores a refusal made before the operation ran (validation)', async () => {
    const k = freshKey();
    const invalid = await create(k, { items: [] });
    expect(invalid.status).toBe(400);
    const valid = await create(k, { items: [{ product_id: 'mug' }] });
    expect(valid.status).toBe(201);
    expect(valid.headers.get('idempotent-replayed')).toBeNull();
  });

  it('scopes keys to the API key: another key may reuse the same Idempotency-Key', async () => {
    const k = freshKey();
    const first = await create(k, { items: [{ product_id: 'mug' }] });
    const otherKey = await gateway.createKey({ merchantIds: ['shop'] });
    const other = await call(`${gateway.url}/checkout_sessions`, {
      method: 'POST',
      headers: { 'X-ACP-API-Key': otherKey, 'Idempotency-Key': k },
      json: { items: [{ product_id: 'mug' }] },
    });
    expect(other.status).toBe(201);
    expect(other.body.checkout_session.id).not.toBe(first.body.checkout_session.id);
  });

  it('scopes keys to the operation, not the raw path: a trailing slash is the same request', async () => {
    const k = freshKey();
    const before = await sessions();
    const first = await create(k, { items: [{ product_id: 'mug' }] });
    const slashed = await call(`${gateway.url}/checkout_sessions/`, {
      method: 'POST',
      headers: { 'X-ACP-API-Key': key, 'Idempotency-Key': k },
      json: { items: [{ product_id: 'mug' }] },
    });
    expect(slashed.status).toBe(201);
    expect(slashed.headers.get('idempotent-replayed')).toBe('true');
    expect(slashed.body.checkout_session.id).toBe(first.body.checkout_session.id);
    expect(await sessions()).toBe(before + 1);
  });

  it('scopes keys to the path parameters as decoded: an escaped id is the same session, another id another scope', async () => {
    const a = (await create(undefined, { items: [{ product_id: 'mug' }] })).body.checkout_session.id as string;
    const b = (await create(undefined, { items: [{ product_id: 'mug' }] })).body.checkout_session.id as string;
    const k = freshKey();
    const update = (path: string, quantity: number) =>
      call(`${gateway.url}${path}`, { method: 'PATCH', headers: { 'X-ACP-API-Key': key, 'Idempotency-Key': k }, json: { items: [{ product_id: 'mug', quantity }] } });
    expect((await update(`/checkout_sessions/${a}`, 2)).status).toBe(200);
    const escaped = await update(`/checkout_sessions/${a.replace('_', '%5F')}/`, 2);
    expect(escaped.headers.get('idempotent-replayed')).toBe('true');
    const other = await update(`/checkout_sessions/${b}`, 3); // same key, another session: its own scope, no conflict
    expect(other.status).toBe(200);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.checkout_session.line_items[0].quantity).toBe(3);
  });

  it('refuses a key longer than 255 characters', async () => {
    const reply = await create('k'.repeat(256), { items: [{ product_id: 'mug' }] });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request' });
  });
});
