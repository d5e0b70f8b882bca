import { execFileSync } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toBase64Url } from './ucp/bytes.js';
import { UcpSignatureError } from './ucp/errors.js';
import type { UcpJwk } from './ucp/types.js';
import { BODY, derFromRaw, KEY, newKey, ORDER, rawFromDer } from './ucp.contract.js';
import { signUcpDetachedJws, verifyUcpDetachedJws } from './ucp-node.js';
import { signUcpDetachedJwsAsync, verifyUcpDetachedJwsAsync } from './ucp-web.js';

type Sign = (body: string | Uint8Array, key: UcpJwk, options?: { keyid?: string; b64?: boolean }) => string | Promise<string>;
type Verify = (body: string | Uint8Array, header: string | undefined, keys: readonly UcpJwk[]) => unknown;

async function code(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
  } catch (e) {
    expect(e).toBeInstanceOf(UcpSignatureError);
    return (e as UcpSignatureError).code;
  }
  return undefined;
}
const decodeHeader = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
const forgeHeader = (jws: string, header: object) => `${toBase64Url(Buffer.from(JSON.stringify(header)))}.${jws.split('.').slice(1).join('.')}`;

for (const [name, sign, verify] of [
  ['node:crypto', signUcpDetachedJws, verifyUcpDetachedJws],
  ['Web Crypto', signUcpDetachedJwsAsync, verifyUcpDetachedJwsAsync],
] as Array<[string, Sign, Verify]>) {
  describe(`UCP 2026-01-11 Request-Signature, detached JWS (${name})`, () => {
    const keys = [KEY.publicJwk];

    it('round-trips as RFC 7797 (b64: false, crit: ["b64"]) and as plain RFC 7515 Appendix F', async () => {
      const jws = await sign(BODY, KEY.privateJwk);
      expect(jws).toMatch(/^[\w-]+\.\.[\w-]{86}$/);
      expect(decodeHeader(jws)).toEqual({ alg: 'ES256', kid: 'business-2026', b64: false, crit: ['b64'] });
      expect(await verify(BODY, jws, keys)).toEqual(ORDER);
      const appendixF = await sign(new TextEncoder().encode(BODY), KEY.privateJwk, { b64: true });
      expect(decodeHeader(appendixF)).toEqual({ alg: 'ES256', kid: 'business-2026' });
      expect(await verify(BODY, appendixF, keys)).toEqual(ORDER);
    });

    it('refuses a changed body byte, another key under the kid, an unknown kid, a flipped signature bit', async () => {
      const jws = await sign(BODY, KEY.privateJwk);
      expect(await code(() => verify(BODY.replace('ord_123', 'ord_124'), jws, keys))).toBe('signature_invalid');
      expect(await code(() => verify(` ${BODY}`, jws, keys))).toBe('signature_invalid');
      expect(await code(() => verify(BODY, jws, [{ ...newKey('business-2026').publicJwk }]))).toBe('signature_invalid');
      expect(await code(() => verify(BODY, jws, [newKey('other').publicJwk]))).toBe('key_not_found');
      const sig = Buffer.from(jws.split('..')[1]!, 'base64url');
      sig[5]! ^= 1;
      expect(await code(() => verify(BODY, `${jws.split('..')[0]}..${sig.toString('base64url')}`, keys))).toBe('signature_invalid');
    });

    it('refuses a header switched between b64 forms, a wrong alg, unknown crit, b64 without crit, no kid', async () => {
      const jws = await sign(BODY, KEY.privateJwk);
      expect(await code(() => verify(BODY, forgeHeader(jws, { alg: 'ES256', kid: 'business-2026' }), keys))).toBe('signature_invalid');
      expect(await code(() => verify(BODY, forgeHeader(jws, { alg: 'none', kid: 'business-2026' }), keys))).toBe('algorithm_unsupported');
      expect(await code(() => verify(BODY, forgeHeader(jws, { alg: 'HS256', kid: 'business-2026' }), keys))).toBe('algorithm_unsupported');
      expect(await code(() => verify(BODY, forgeHeader(jws, { alg: 'ES256', kid: 'business-2026', b64: false, crit: ['b64', 'exp'] }), keys))).toBe('signature_malformed');
      expect(await code(() => verify(BODY, forgeHeader(jws, { alg: 'ES256', kid: 'business-2026', b64: false }), keys))).toBe('signature_malformed');
      expect(await code(() => verify(BODY, forgeHeader(jws, { alg: 'ES256', b64: false, crit: ['b64'] }), keys))).toBe('key_not_found');
      expect(await code(() => verify(BODY, jws, [{ ...KEY.publicJwk, crv: 'P-384' }]))).toBe('algorithm_unsupported');
    });

    it('refuses a DER signature, an attached payload, a missing or malformed header, parsed JSON', async () => {
      const jws = await sign(BODY, KEY.privateJwk);
      const [h, , s] = jws.split('.');
      expect(await code(() => verify(BODY, `${h}..${derFromRaw(Buffer.from(s!, 'base64url')).toString('base64url')}`, keys))).toBe('signature_invalid');
      expect(await code(() => verify(BODY, `${h}.${Buffer.from(BODY).toString('base64url')}.${s}`, keys))).toBe('signature_malformed');
      expect(await code(() => verify(BODY, undefined, keys))).toBe('signature_missing');
      expect(await code(() => verify(BODY, 'not-a-jws', keys))).toBe('signature_malformed');
      expect(await code(() => verify(BODY, `!!..${s}`, keys))).toBe('signature_malformed');
      expect(await code(() => verify(ORDER as never, jws, keys))).toBe('invalid_body');
    });
  });
}

describe('UCP detached JWS: flavours interoperate', () => {
  it('Node → Web and Web → Node', async () => {
    expect(await verifyUcpDetachedJwsAsync(BODY, signUcpDetachedJws(BODY, KEY.privateJwk), [KEY.publicJwk])).toEqual(ORDER);
    expect(verifyUcpDetachedJws(BODY, await signUcpDetachedJwsAsync(BODY, KEY.privateJwk), [KEY.publicJwk])).toEqual(ORDER);
  });
});

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const dir = mkdtempSync(join(tmpdir(), 'webhooks-ucp-jws-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!hasOpenssl)('UCP detached JWS against openssl', () => {
  it('verifies an RFC 7797 JWS built by hand and signed by openssl with an openssl-generated key (as JWK)', async () => {
    const pem = join(dir, 'key.pem');
    execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', pem]);
    const jwk = { ...createPublicKey(readFileSync(pem, 'utf8')).export({ format: 'jwk' }), kid: 'ossl' } as UcpJwk;
    const header = Buffer.from('{"alg":"ES256","b64":false,"crit":["b64"],"kid":"ossl"}').toString('base64url');
    writeFileSync(join(dir, 'input'), Buffer.concat([Buffer.from(`${header}.`), Buffer.from(BODY)]));
    const der = execFileSync('openssl', ['dgst', '-sha256', '-sign', pem, join(dir, 'input')]);
    const jws = `${header}..${rawFromDer(der).toString('base64url')}`;
    expect(verifyUcpDetachedJws(BODY, jws, [jwk])).toEqual(ORDER);
    expect(await verifyUcpDetachedJwsAsync(BODY, jws, [jwk])).toEqual(ORDER);
    expect(() => verifyUcpDetachedJws(BODY, `${header}..${der.toString('base64url')}`, [jwk])).toThrow(/DER/);
  });
});
