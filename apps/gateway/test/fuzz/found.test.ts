/**
 * The hostile inputs the contract fuzzer found answering 500, kept as fixed
 * cases: each is now a 4xx in the contract's Error shape, and the gateway keeps
 * answering ordinary requests afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stocked } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/test-gateway.js';

let gateway: TestGateway;
let key: string;
let sessionId: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('found-shop', [stocked('p-0')]);
  key = await gateway.createKey({ merchantIds: ['found-shop'] });
  const created = await fetch(`${gateway.url}/checkout_sessions`, {
    method: 'POST',
    headers: { 'X-ACP-API-Key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ items: [{ product_id: 'p-0' }] }),
  });
  sessionId = ((await created.json()) as { checkout_session: { id: string } }).checkout_session.id;
});
afterAll(() => gateway?.close());

const deep = (levels: number) => `{"event_type": "order.created", "payload": {"deep": ${'['.repeat(levels)}${']'.repeat(levels)}}}`;

describe('inputs that once answered 500', () => {
  it.each([
    ['malformed percent-encoding in the path', 'GET', '/acp/products/%zz', {}, undefined, 400, /percent-encoded/],
    ['the same on a session path', 'POST', '/checkout_sessions/%E0%A4%A/cancel', {}, undefined, 400, /percent-encoded/],
    ['a NUL character in a query filter', 'GET', '/acp/products/search?category=%00', {}, undefined, 400, /NUL/],
    ['a NUL character in a stored body field', 'PATCH', '/checkout_sessions/{session}', {}, JSON.stringify({ payment_method: '\u0000' }), 400, /NUL/],
    ['a NUL character inside a JSON object field', 'PATCH', '/checkout_sessions/{session}', {}, JSON.stringify({ customer: { name: 'a\u0000' } }), 400, /NUL/],
    ['JSON nested 5,000 levels deep', 'POST', '/webhooks/emit', {}, deep(5_000), 400, /nested deeper than 100/],
    ['a malformed Content-Type on a GET', 'GET', '/acp/products/p-0', { 'Content-Type': '%' }, undefined, 200, undefined],
    ['a Content-Type with a stray parameter on a GET', 'GET', '/acp/products/p-0', { 'Content-Type': 'a/b; x=%' }, undefined, 200, undefined],
    ['page=1e999 (Infinity after coercion)', 'GET', '/acp/products?page=1e999', {}, undefined, 400, /page must be a number written in decimal digits/],
    ['page_size of 400 digits', 'GET', `/acp/products?page_size=${'9'.repeat(400)}`, {}, undefined, 400, /page_size is too large/],
  ])('%s', async (_name, method, path, headers, body, status, detail) => {
    const response = await fetch(`${gateway.url}${path.replace('{session}', sessionId)}`, {
      method,
      headers: { 'X-ACP-API-Key': key, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body,
    });
    const json = (await response.json()) as { detail?: string; code?: string };
    expect(response.status).toBe(status);
    if (detail) expect(json).toMatchObject({ code: 'invalid_request', detail: expect.stringMatching(detail) });
    // …and ordinary requests on the same route still work afterwards.
    expect((await fetch(`${gateway.url}/acp/products/p-0`, { headers: { 'X-ACP-API-Key': key } })).status).toBe(200);
  });

  it('JSON nested 100 levels deep is still accepted', async () => {
    const response = await fetch(`${gateway.url}/webhooks/emit`, { method: 'POST', headers: { 'X-ACP-API-Key': key, 'content-type': 'application/json' }, body: deep(98) });
    expect(response.status).toBe(200);
  });
});
