/**
 * Input as real clients send it, through real HTTP: query strings as URLSearchParams, HTML forms
 * and Python's requests write them (`+` a space, `%2B` a plus, reserved characters left as they
 * are), and JSON bodies read strictly, never coerced from another type.
 */
import { CommerceGateway } from '@commerce-gateway/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stocked } from './support/checkout.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
let key: string;
const auth = () => ({ 'X-ACP-API-Key': key });

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [
    stocked('bar-stool', [{ price: 40 }], { title: 'Tall stool', category: 'Bar furniture', tags: ['High+Low'] }),
    stocked('stool', [{ price: 20 }], { title: 'Short stool', category: 'Chairs/Stools', tags: ['a:b,c', "kid's (small)"] }),
    stocked('star', [{ price: 30 }], { title: 'Star lamp', category: 'Lamps*Stars', tags: ['C++'] }),
  ]);
  key = await gateway.createKey({ merchantIds: ['shop'] });
});
afterAll(() => gateway?.close());

async function search(query: string) {
  const reply = await call(`${gateway.url}/acp/products?${query}`, { headers: auth() });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body.items as { id: string }[]).map((item) => item.id).sort();
}

describe('query strings as clients send them', () => {
  it.each([
    ['`+` as a space (forms, URLSearchParams, Python requests)', 'category=Bar+furniture', ['bar-stool']],
    ['%20 as a space', 'category=Bar%20furniture', ['bar-stool']],
    ['an unencoded slash', 'category=Chairs/Stools', ['stool']],
    ['an encoded slash', 'category=Chairs%2FStools', ['stool']],
    ['an unencoded asterisk', 'category=Lamps*Stars', ['star']],
    ['`%2B` as a plus, in a tag', 'tag=High%2BLow', ['bar-stool']],
    ['`+` in a tag is a space, so no plus tag matches', 'tag=High+Low', []],
    ['`%2B%2B` in a tag', 'tag=C%2B%2B', ['star']],
    ['colon and comma unencoded', 'tag=a:b,c', ['stool']],
    ["quote and parentheses unencoded", "tag=kid's+(small)", ['stool']],
    ['reserved characters in q too', 'q=(stool)+*', ['bar-stool', 'stool']],
    ['URLSearchParams itself', new URLSearchParams({ category: 'Bar furniture', tag: 'High+Low' }).toString(), ['bar-stool']],
  ])('reads %s', async (_name, query, ids) => {
    expect(await search(query)).toEqual(ids);
  });

  it('agrees with the SDK, which percent-encodes every value', async () => {
    const gw = new CommerceGateway({ apiKey: key, baseUrl: gateway.url, maxRetries: 0 });
    expect((await gw.products.search({ tag: 'High+Low' })).items.map((item) => item.id)).toEqual(['bar-stool']);
    expect((await gw.products.search({ category: 'chairs/stools' })).items.map((item) => item.id)).toEqual(['stool']);
  });

  it('says so in the published contract: every query parameter allowReserved, `+` a space', async () => {
    const contract = (await call(`${gateway.url}/openapi.json`)).body;
    const query = Object.values(contract.components.parameters as Record<string, { in: string; allowReserved?: boolean }>).filter((p) => p.in === 'query');
    expect(query.length).toBeGreaterThan(0);
    for (const parameter of query) expect(parameter, JSON.stringify(parameter)).toMatchObject({ allowReserved: true });
    expect(contract.info.description).toContain('`+` is a space and `%2B` a plus');
  });

  it('still coerces numbers and fills defaults in the query', async () => {
    const reply = await call(`${gateway.url}/acp/products?min_price=25&max_price=+35&page_size=1`, { headers: auth() });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ total: 1, page: 1, page_size: 1, items: [{ id: 'star' }] });
  });

  it('still refuses a number that is not one, naming it', async () => {
    const reply = await call(`${gateway.url}/acp/products?page=two`, { headers: auth() });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', param: 'page' });
  });
});

describe('JSON bodies are never coerced', () => {
  const post = (json: unknown) => call(`${gateway.url}/checkout_sessions`, { method: 'POST', headers: auth(), json });

  it.each([
    ['a boolean quantity', { items: [{ product_id: 'stool', quantity: true }] }, 'items[0].quantity'],
    ['a string quantity', { items: [{ product_id: 'stool', quantity: '5' }] }, 'items[0].quantity'],
    ['a number product_id', { items: [{ product_id: 12345 }] }, 'items[0].product_id'],
    ['a number payment_method', { items: [{ product_id: 'stool' }], payment_method: 12345 }, 'payment_method'],
    ['a boolean customer name', { items: [{ product_id: 'stool' }], customer: { name: false } }, 'customer.name'],
    ['a null customer name', { items: [{ product_id: 'stool' }], customer: { name: null } }, 'customer.name'],
    ['a string where the items array goes', { items: 'stool' }, 'items'],
    ['a number in the address', { items: [{ product_id: 'stool' }], shipping_address: { name: 'A', line1: 1, city: 'X', postal_code: '1', country: 'US' } }, 'shipping_address.line1'],
  ])('refuses %s on create with 400 naming the field', async (_name, body, param) => {
    const reply = await post(body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', param });
  });

  it('refuses a wrong type on PATCH too, and leaves the session as it was', async () => {
    const created = await post({ items: [{ product_id: 'stool', quantity: 2 }], payment_method: 'tok_1' });
    expect(created.status).toBe(201);
    const id = created.body.checkout_session.id as string;
    const patch = (json: unknown) => call(`${gateway.url}/checkout_sessions/${id}`, { method: 'PATCH', headers: auth(), json });
    for (const [body, param] of [
      [{ items: [{ product_id: 'stool', quantity: '5' }] }, 'items[0].quantity'],
      [{ payment_method: 12345 }, 'payment_method'],
      [{ customer: { name: false } }, 'customer.name'],
    ] as const) {
      const reply = await patch(body);
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(reply.body).toMatchObject({ code: 'invalid_request', param });
    }
    const read = await call(`${gateway.url}/checkout_sessions/${id}`, { headers: auth() });
    expect(read.body.checkout_session).toMatchObject({ payment_method: 'tok_1', customer: null, line_items: [{ quantity: 2 }] });
  });

  it('refuses a wrong type in the emit body', async () => {
    const reply = await call(`${gateway.url}/webhooks/emit`, { method: 'POST', headers: auth(), json: { event_type: 'order.created', signature_secret: 12345 } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', param: 'signature_secret' });
  });

  it('still fills body defaults', async () => {
    const reply = await post({ items: [{ product_id: 'stool' }] });
    expect(reply.status).toBe(201);
    expect(reply.body.checkout_session).toMatchObject({ payment_method: 'demo_card', line_items: [{ quantity: 1 }] });
  });
});
