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

  it('writes the one encoding the gateway accepts: standard base64, padded, canonical (44 characters)', async () => {
    const sign = createRequestSigner('ss_secret');
    let sawPlus = false;
    let sawSlash = false;
    for (let n = 0; n < 200; n++) {
      const signature = await sign(`{"n":${n}}`);
      expect(signature).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(signature, 'base64').toString('base64')).toBe(signature);
      sawPlus ||= signature.includes('+');
      sawSlash ||= signature.includes('/');
    }
    expect(sawPlus && sawSlash).toBe(true); // never the url-safe alphabet
  });
});
