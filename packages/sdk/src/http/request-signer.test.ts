import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRequestSigner } from './request-signer.js';

describe('createRequestSigner', () => {
  it.each([
    ['{"items":[{"product_id":"chair-1"}]}'],
    ['{"customer":{"name":"Zoë Ørsted — 東京"}}'],
    [''],
  ])('signs %j like the gateway: base64 HMAC-SHA256 of the UTF-8 bytes', async (body) => {
    const expected = createHmac('sha256', 'ss_secret').update(Buffer.from(body, 'utf8')).digest('base64');
    expect(await createRequestSigner('ss_secret')(body)).toBe(expected);
  });
});
