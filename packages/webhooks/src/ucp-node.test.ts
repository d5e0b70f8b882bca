import { describe, expect, it } from 'vitest';
import { UcpSignatureError } from './ucp/errors.js';
import { BASE_HEADERS, BODY, describeUcpVerifier, KEY, ORDER, URL_ } from './ucp.contract.js';
import { signUcpRequest, verifyUcpRequest } from './ucp-node.js';
import { createPrivateKey } from 'node:crypto';

describeUcpVerifier('node:crypto flavour', {
  sign: (request, key) => signUcpRequest(request, key),
  verify: (request, keys, options) => verifyUcpRequest(request, keys, options),
});

describe('UCP node:crypto specifics', () => {
  it('signs with a KeyObject and an explicit keyid', () => {
    const keyObject = createPrivateKey({ key: KEY.privateJwk as never, format: 'jwk' });
    const headers = signUcpRequest({ method: 'POST', url: URL_, headers: BASE_HEADERS, body: Buffer.from(BODY), keyid: 'business-2026' }, keyObject);
    expect(verifyUcpRequest({ method: 'POST', url: URL_, headers: { ...BASE_HEADERS, ...headers }, body: BODY }, [KEY.publicJwk])).toEqual(ORDER);
  });

  it('refuses to sign without a keyid or with a public key only', () => {
    const keyObject = createPrivateKey({ key: KEY.privateJwk as never, format: 'jwk' });
    expect(() => signUcpRequest({ method: 'POST', url: URL_, body: BODY }, keyObject)).toThrow(UcpSignatureError);
    expect(() => signUcpRequest({ method: 'POST', url: URL_, body: BODY }, KEY.publicJwk)).toThrow(/no "d"/);
  });

  it('computes Content-Digest as RFC 9530 does (the value in signatures.md is RFC 9530\'s {"hello": "world"})', () => {
    const headers = signUcpRequest({ method: 'POST', url: URL_, body: '{"hello": "world"}' }, KEY.privateJwk);
    expect(headers['Content-Digest']).toBe('sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:');
  });
});
