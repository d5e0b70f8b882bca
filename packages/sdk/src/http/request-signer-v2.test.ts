import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRequestSignerV2, signFetchRequest, signRequestV2 } from './request-signer-v2.js';

/** The documented formula, with node:crypto. */
function expected(secret: string, t: number, method: string, target: string, merchantId: string, body: string): string {
  const bodyDigest = createHash('sha256').update(Buffer.from(body, 'utf8')).digest('hex');
  return `t=${t},v2=${createHmac('sha256', secret).update(`v2\n${t}\n${method}\n${target}\n${merchantId}\n${bodyDigest}`).digest('hex')}`;
}

describe('signRequestV2', () => {
  it.each([
    ['POST', '/checkout_sessions/cs_1/cancel', '', ''],
    ['GET', '/acp/products?q=red%20shoe&page_size=3', 'shop-a', ''],
    ['PATCH', '/checkout_sessions/cs_1', '', '{"customer":{"name":"Zoë Ørsted — 東京"}}'],
  ])('signs %s %s like the gateway', async (method, target, merchantId, body) => {
    const t = 1_795_000_000;
    expect(await signRequestV2('ss_secret', { method: method.toLowerCase(), target, merchantId: merchantId || undefined, body }, t)).toBe(
      expected('ss_secret', t, method, target, merchantId, body),
    );
  });

  it('signs a Request as it will be sent: its URL serialised, its Merchant-Id and body', async () => {
    const sign = createRequestSignerV2('ss_secret');
    const request = new Request('http://127.0.0.1:8080/acp/products?q=red shoe', { headers: { 'Merchant-Id': 'shop-b' } });
    const header = (await signFetchRequest(sign, request)).headers.get('x-request-signature')!;
    const t = Number(/^t=(\d+),/.exec(header)![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(5);
    expect(header).toBe(expected('ss_secret', t, 'GET', '/acp/products?q=red%20shoe', 'shop-b', ''));
    const post = new Request('http://127.0.0.1:8080/checkout_sessions', { method: 'POST', body: '{"items":[]}' });
    const signed = await signFetchRequest(sign, post);
    expect(await signed.text()).toBe('{"items":[]}'); // the body is still there to send
  });
});
