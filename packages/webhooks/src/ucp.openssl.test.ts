import { execFileSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UcpJwk } from './ucp/types.js';
import { derFromRaw, rawFromDer } from './ucp.contract.js';
import { signUcpRequest, verifyUcpRequest } from './ucp-node.js';
import { verifyUcpRequestAsync } from './ucp-web.js';

// An independent implementation: an openssl-generated P-256 key, openssl ECDSA over a signature
// base written out by hand from RFC 9421 §2.5 — not produced by the code under test.
const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const dir = mkdtempSync(join(tmpdir(), 'webhooks-ucp-openssl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BODY = '{"event_id":"evt_9","order":{"id":"ord_9"}}';
const CREATED = 1_770_000_000;
const HEADERS = {
  'Content-Type': 'application/json',
  'UCP-Agent': 'profile="https://business.example/.well-known/ucp"',
  'Idempotency-Key': '550e8400-e29b-41d4-a716-446655440000',
};
const PARAMS = '("@method" "@authority" "@path" "@query" "ucp-agent" "idempotency-key" "content-digest" "content-type");created=1770000000;keyid="ossl-1"';

describe.skipIf(!hasOpenssl)('UCP RFC 9421 signatures against openssl', () => {
  const pem = join(dir, 'key.pem');
  if (hasOpenssl) execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', pem]);
  const privatePem = hasOpenssl ? readFileSync(pem, 'utf8') : '';
  const jwk = () => ({ ...createPublicKey(privatePem).export({ format: 'jwk' }), kid: 'ossl-1' }) as UcpJwk;
  const digest = () => `sha-256=:${execFileSync('openssl', ['dgst', '-sha256', '-binary'], { input: BODY }).toString('base64')}:`;
  const base = () => [
    '"@method": POST',
    '"@authority": platform.example',
    '"@path": /hooks/ucp',
    '"@query": ?shop=a%20b',
    '"ucp-agent": profile="https://business.example/.well-known/ucp"',
    '"idempotency-key": 550e8400-e29b-41d4-a716-446655440000',
    `"content-digest": ${digest()}`,
    '"content-type": application/json',
    `"@signature-params": ${PARAMS}`,
  ].join('\n');
  const request = (signature: Buffer) => ({
    method: 'POST',
    url: 'https://Platform.Example:443/hooks/ucp?shop=a%20b',
    headers: { ...HEADERS, 'Content-Digest': digest(), 'Signature-Input': `sig1=${PARAMS}`, Signature: `sig1=:${signature.toString('base64')}:` },
    body: BODY,
  });
  const opensslSign = () => {
    writeFileSync(join(dir, 'base'), base());
    return execFileSync('openssl', ['dgst', '-sha256', '-sign', pem, join(dir, 'base')]);
  };
  const at = { now: () => CREATED * 1000 };

  it('the openssl key, exported as a JWK, verifies openssl\'s signature (converted to r||s) over the hand-written base', async () => {
    const raw = rawFromDer(opensslSign());
    expect(verifyUcpRequest(request(raw), [jwk()], at)).toEqual({ event_id: 'evt_9', order: { id: 'ord_9' } });
    expect(await verifyUcpRequestAsync(request(raw), [jwk()], at)).toEqual({ event_id: 'evt_9', order: { id: 'ord_9' } });
  });

  it('refuses openssl\'s DER output as it comes', () => {
    expect(() => verifyUcpRequest(request(opensslSign()), [jwk()], at)).toThrow(/DER/);
  });

  it('openssl verifies what signUcpRequest signs with the openssl key (after r||s → DER)', () => {
    const signed = signUcpRequest(
      { method: 'post', url: 'https://platform.example/hooks/ucp?shop=a%20b', headers: HEADERS, body: BODY, created: CREATED, keyid: 'ossl-1' },
      createPrivateKey(privatePem),
    );
    expect(signed['Signature-Input']).toBe(`sig1=${PARAMS}`);
    expect(signed['Content-Digest']).toBe(digest());
    const sig = Buffer.from(/^sig1=:(.*):$/.exec(signed.Signature)![1]!, 'base64');
    writeFileSync(join(dir, 'base'), base());
    writeFileSync(join(dir, 'sig'), derFromRaw(sig));
    writeFileSync(join(dir, 'pub.pem'), createPublicKey(privatePem).export({ format: 'pem', type: 'spki' }));
    const out = execFileSync('openssl', ['dgst', '-sha256', '-verify', join(dir, 'pub.pem'), '-signature', join(dir, 'sig'), join(dir, 'base')], { encoding: 'utf8' });
    expect(out).toMatch(/Verified OK/);
  });
});
