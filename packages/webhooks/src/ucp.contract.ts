import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UcpSignatureError } from './ucp/errors.js';
import type { UcpJwk, UcpSignedHeaders, UcpSignRequest, UcpVerifyOptions, UcpVerifyRequest } from './ucp/types.js';

/** What both flavours of the UCP 2026-04-08 request signatures offer; the Web one returns promises. */
export interface UcpVerifier {
  sign(request: UcpSignRequest, key: UcpJwk): UcpSignedHeaders | Promise<UcpSignedHeaders>;
  verify(request: UcpVerifyRequest, keys: readonly UcpJwk[], options?: UcpVerifyOptions): unknown;
}

export function newKey(kid: string): { privateJwk: UcpJwk; publicJwk: UcpJwk } {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privateJwk = { ...privateKey.export({ format: 'jwk' }), kid } as UcpJwk;
  const { d: _d, ...rest } = privateJwk;
  return { privateJwk, publicJwk: { ...rest, use: 'sig', alg: 'ES256' } };
}

export const KEY = newKey('business-2026');
export const ORDER = {
  event_id: 'evt_1',
  order: { id: 'ord_123', checkout_id: 'chk_123', permalink_url: 'https://business.example/orders/ord_123', line_items: [{ id: 'li_1', title: 'Running Shoes — 跑鞋', quantity: { total: 1, fulfilled: 0 } }] },
};
export const BODY = JSON.stringify(ORDER);
export const URL_ = 'https://platform.example/webhooks/ucp/orders';
export const BASE_HEADERS = {
  'content-type': 'application/json',
  'ucp-agent': 'profile="https://business.example/.well-known/ucp"',
  'webhook-id': 'evt_1',
  'webhook-timestamp': '1770000000',
};
const NOW = Math.floor(Date.now() / 1000) * 1000;
const at = (seconds: number) => () => NOW + seconds * 1000;

type Req = UcpVerifyRequest & { headers: Record<string, string> };

async function expectCode(promise: () => unknown, code: string, message?: RegExp) {
  let error: unknown;
  try {
    await promise();
  } catch (e) {
    error = e;
  }
  expect(error, `expected ${code}`).toBeInstanceOf(UcpSignatureError);
  expect((error as UcpSignatureError).code).toBe(code);
  if (message) expect((error as Error).message).toMatch(message);
}

export function describeUcpVerifier(name: string, impl: UcpVerifier) {
  async function signed(over: Partial<UcpSignRequest> = {}): Promise<Req> {
    const request = { method: 'POST', url: URL_, headers: BASE_HEADERS, body: BODY, created: NOW / 1000, ...over };
    const headers = await impl.sign(request, KEY.privateJwk);
    return { method: request.method, url: request.url, body: request.body ?? '', headers: { ...(request.headers as Record<string, string>), ...headers } as Record<string, string> };
  }
  const verify = (req: UcpVerifyRequest, options?: UcpVerifyOptions, keys = [KEY.publicJwk]) => impl.verify(req, keys, options);

  describe(`UCP RFC 9421 request signatures (${name})`, () => {
    it('round-trips and returns the parsed body', async () => {
      const req = await signed();
      expect(await verify(req)).toEqual(ORDER);
      expect(req.headers['Signature-Input']).toMatch(/^sig1=\("@method" "@authority" "@path" "ucp-agent" "content-digest" "content-type"\);created=\d+;keyid="business-2026"$/);
      expect(req.headers['Signature']).toMatch(/^sig1=:[A-Za-z0-9+/]{86}==:$/); // 64 bytes: raw r||s
    });

    it('covers @query and idempotency-key when present, and verifies a bodiless GET', async () => {
      const post = await signed({ url: `${URL_}?shop=a&x=1`, headers: { ...BASE_HEADERS, 'idempotency-key': '550e8400-e29b-41d4-a716-446655440000' } });
      expect(post.headers['Signature-Input']).toContain('"@method" "@authority" "@path" "@query" "ucp-agent" "idempotency-key" "content-digest" "content-type"');
      expect(await verify(post)).toEqual(ORDER);
      const get = await signed({ method: 'GET', body: undefined, headers: {} });
      expect(get.headers['Content-Digest']).toBeUndefined();
      expect(get.headers['Signature-Input']).toMatch(/^sig1=\("@method" "@authority" "@path"\);created=\d+;keyid="business-2026"$/);
      expect(await verify(get)).toBeUndefined();
    });

    it('accepts a Headers object, Buffer/ArrayBuffer bodies, a { keys } set and other keys alongside', async () => {
      const req = await signed();
      const other = newKey('old-2025').publicJwk;
      expect(await impl.verify({ ...req, headers: new Headers(req.headers), body: new TextEncoder().encode(BODY).buffer }, { keys: [other, KEY.publicJwk] } as never)).toEqual(ORDER);
    });

    it('refuses a changed body byte (digest_mismatch)', async () => {
      const req = await signed();
      await expectCode(() => verify({ ...req, body: BODY.replace('ord_123', 'ord_124') }), 'digest_mismatch');
    });

    it('refuses a body re-serialized by a proxy', async () => {
      const req = await signed();
      await expectCode(() => verify({ ...req, body: JSON.stringify(ORDER, null, 2) }), 'digest_mismatch');
    });

    it('refuses a Content-Digest rewritten to match a new body (signature_invalid)', async () => {
      const req = await signed();
      const forged = await signed({ body: BODY.replace('ord_123', 'ord_124') });
      await expectCode(() => verify({ ...req, body: forged.body, headers: { ...req.headers, 'Content-Digest': forged.headers['Content-Digest']! } }), 'signature_invalid');
    });

    it('refuses a missing Content-Digest', async () => {
      const req = await signed();
      const { 'Content-Digest': _, ...headers } = req.headers;
      await expectCode(() => verify({ ...req, headers }), 'digest_missing');
    });

    it('refuses a Content-Digest without sha-256', async () => {
      const req = await signed();
      await expectCode(() => verify({ ...req, headers: { ...req.headers, 'Content-Digest': 'sha-512=:AAAA:' } }), 'digest_mismatch');
    });

    it('refuses a changed covered header, method, path, query or host', async () => {
      const req = await signed({ url: `${URL_}?shop=a` });
      await expectCode(() => verify({ ...req, headers: { ...req.headers, 'ucp-agent': 'profile="https://evil.example/.well-known/ucp"' } }), 'signature_invalid');
      await expectCode(() => verify({ ...req, headers: { ...req.headers, 'content-type': 'text/plain' } }), 'signature_invalid');
      await expectCode(() => verify({ ...req, method: 'PUT' }), 'signature_invalid');
      await expectCode(() => verify({ ...req, url: 'https://platform.example/webhooks/ucp/other?shop=a' }), 'signature_invalid');
      await expectCode(() => verify({ ...req, url: `${URL_}?shop=b` }), 'signature_invalid');
      await expectCode(() => verify({ ...req, url: 'https://platform.example:8443/webhooks/ucp/orders?shop=a' }), 'signature_invalid');
    });

    it('refuses a signature that leaves out a component UCP requires', async () => {
      const req = await signed();
      // A UCP-Agent header added after signing (the signer did not cover it).
      const noAgent = await signed({ headers: { 'content-type': 'application/json' } });
      await expectCode(() => verify({ ...noAgent, headers: { ...noAgent.headers, 'ucp-agent': BASE_HEADERS['ucp-agent'] } }), 'signature_invalid', /does not cover "ucp-agent"/);
      await expectCode(() => verify({ ...req, url: `${URL_}?added=1` }), 'signature_invalid', /does not cover "@query"/);
      await expectCode(() => verify({ ...req, headers: { ...req.headers, 'Signature-Input': req.headers['Signature-Input']!.replace(' "content-type"', '') } }), 'signature_invalid', /does not cover "content-type"/);
    });

    it('refuses an unknown keyid and a missing keyid (key_not_found)', async () => {
      const req = await signed();
      await expectCode(() => verify(req, undefined, [newKey('other').publicJwk]), 'key_not_found');
      await expectCode(() => verify({ ...req, headers: { ...req.headers, 'Signature-Input': req.headers['Signature-Input']!.replace(/;keyid="[^"]*"/, '') } }), 'key_not_found');
    });

    it('refuses a signature by another key published under the same kid', async () => {
      const req = await signed();
      await expectCode(() => verify(req, undefined, [{ ...newKey('business-2026').publicJwk }]), 'signature_invalid');
    });

    it('checks created against the tolerance (default 5 minutes, configurable)', async () => {
      const req = await signed();
      expect(await verify(req, { now: at(299) })).toEqual(ORDER);
      await expectCode(() => verify(req, { now: at(301) }), 'signature_expired', /ago/);
      await expectCode(() => verify(req, { now: at(-301) }), 'signature_expired', /future/);
      expect(await verify(req, { now: at(3000), tolerance: 3600 })).toEqual(ORDER);
      const old = await signed({ created: Math.floor(NOW / 1000) - 3600 });
      await expectCode(() => verify(old), 'signature_expired');
    });

    it('accepts a signature without created (OPTIONAL in UCP) unless requireCreated', async () => {
      const req = await signed({ created: false });
      expect(req.headers['Signature-Input']).not.toContain('created=');
      expect(await verify(req)).toEqual(ORDER);
      await expectCode(() => verify(req, { requireCreated: true }), 'signature_expired');
    });

    it('refuses an expired signature', async () => {
      const req = await signed({ expires: Math.floor(NOW / 1000) + 60 });
      expect(await verify(req)).toEqual(ORDER);
      await expectCode(() => verify(req, { now: at(120) }), 'signature_expired', /expired/);
    });

    it('refuses a wrong alg: parameter or a non-ES256 key', async () => {
      const req = await signed();
      await expectCode(() => verify({ ...req, headers: { ...req.headers, 'Signature-Input': `${req.headers['Signature-Input']};alg="rsa-pss-sha512"` } }), 'algorithm_unsupported');
      await expectCode(() => verify(req, undefined, [{ ...KEY.publicJwk, alg: 'ES384' }]), 'algorithm_unsupported');
      await expectCode(() => verify(req, undefined, [{ ...KEY.publicJwk, crv: 'P-384' }]), 'algorithm_unsupported');
      await expectCode(() => verify(req, undefined, [{ kid: 'business-2026', kty: 'RSA', n: 'x', e: 'AQAB' }]), 'algorithm_unsupported');
    });

    it('refuses a DER-encoded signature with a message saying so', async () => {
      const req = await signed();
      const raw = Buffer.from(/:(.*):/.exec(req.headers['Signature']!)![1]!, 'base64');
      const der = derFromRaw(raw);
      await expectCode(() => verify({ ...req, headers: { ...req.headers, Signature: `sig1=:${der.toString('base64')}:` } }), 'signature_invalid', /DER/);
    });

    it('refuses a flipped signature bit, missing headers and mismatched labels', async () => {
      const req = await signed();
      const raw = Buffer.from(/:(.*):/.exec(req.headers['Signature']!)![1]!, 'base64');
      raw[10]! ^= 1;
      await expectCode(() => verify({ ...req, headers: { ...req.headers, Signature: `sig1=:${raw.toString('base64')}:` } }), 'signature_invalid');
      const { Signature: _s, ...noSig } = req.headers;
      await expectCode(() => verify({ ...req, headers: noSig }), 'signature_missing');
      const { 'Signature-Input': _i, ...noInput } = req.headers;
      await expectCode(() => verify({ ...req, headers: noInput }), 'signature_missing');
      await expectCode(() => verify({ ...req, headers: { ...req.headers, Signature: req.headers['Signature']!.replace('sig1', 'sig2') } }), 'signature_missing');
      await expectCode(() => verify({ ...req, headers: { ...req.headers, Signature: 'sig1=abc' } }), 'signature_malformed');
    });

    it('reads the signature headers as RFC 8941 dictionaries: a syntax error anywhere in one is malformed, the signed member kept as sent', async () => {
      const req = await signed();
      const input = req.headers['Signature-Input']!;
      await expectCode(() => verify({ ...req, headers: { ...req.headers, 'Signature-Input': `${input}, Bad=1` } }), 'signature_malformed');
      await expectCode(() => verify({ ...req, headers: { ...req.headers, 'Signature-Input': input.replace(')', '') } }), 'signature_malformed');
      await expectCode(() => verify({ ...req, headers: { ...req.headers, 'Signature-Input': input.replace('"@method"', '"@method";sf') } }), 'signature_malformed');
      await expectCode(() => verify({ ...req, headers: { ...req.headers, 'Content-Digest': `${req.headers['Content-Digest']!},` } }), 'digest_mismatch');
      // Another well-formed member beside the signed one changes nothing.
      await verify({ ...req, headers: { ...req.headers, 'Signature-Input': `${input}, other=("@method");keyid="x"`, Signature: `${req.headers['Signature']!}, other=:AAAA:` } });
    });

    it('refuses parsed JSON as the body', async () => {
      const req = await signed();
      await expectCode(() => verify({ ...req, body: ORDER as never }), 'invalid_body');
    });
  });
}

/** ASN.1 DER `SEQUENCE { INTEGER r, INTEGER s }` from raw r||s — what OpenSSL, Java and .NET emit by default. */
export function derFromRaw(raw: Uint8Array): Buffer {
  const int = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    let v = Buffer.from(bytes.subarray(i));
    if (v[0]! & 0x80) v = Buffer.concat([Buffer.from([0]), v]);
    return Buffer.concat([Buffer.from([0x02, v.length]), v]);
  };
  const body = Buffer.concat([int(raw.subarray(0, 32)), int(raw.subarray(32))]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}

/** Raw r||s from DER, for openssl's output. */
export function rawFromDer(der: Uint8Array): Buffer {
  const out = Buffer.alloc(64);
  let o = 2;
  for (let n = 0; n < 2; n++) {
    const len = der[o + 1]!;
    const v = der.subarray(o + 2, o + 2 + len);
    const trimmed = v.length > 32 ? v.subarray(v.length - 32) : v;
    out.set(trimmed, n * 32 + (32 - trimmed.length));
    o += 2 + len;
  }
  return out;
}
