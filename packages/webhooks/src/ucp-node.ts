/** UCP 2026-04-08 RFC 9421 request signatures (the protocol in ucp/, the crypto here) with node:crypto. */
import { createHash, createPrivateKey, createPublicKey, KeyObject, sign, verify, type JsonWebKey } from 'node:crypto';
import { bodyBytes, equalBytes, utf8Bytes } from './ucp/bytes.js';
import { ucpFail } from './ucp/errors.js';
import { planJwsSigning, planJwsVerification, type UcpJwsSignOptions } from './ucp/jws.js';
import { assertEs256Key, publicJwk } from './ucp/keys.js';
import { planSigning } from './ucp/signing-plan.js';
import type { UcpBody, UcpJwk, UcpSignedHeaders, UcpSignRequest, UcpVerifyOptions, UcpVerifyRequest } from './ucp/types.js';
import { parseJsonBody, planVerification } from './ucp/verification-plan.js';

/** A P-256 private key: a JWK with `d`, or a KeyObject (e.g. from `createPrivateKey(pem)`). */
export type UcpNodePrivateKey = UcpJwk | KeyObject;

function privateKey(key: UcpNodePrivateKey): KeyObject {
  if (key instanceof KeyObject) {
    if (key.type !== 'private' || key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw ucpFail('invalid_key', 'The signing key must be a P-256 (prime256v1) EC private key.');
    }
    return key;
  }
  assertEs256Key(key);
  if (typeof key.d !== 'string') throw ucpFail('invalid_key', `JWK "${key.kid}" has no "d": a private key is needed to sign.`);
  try {
    return createPrivateKey({ key: { ...publicJwk(key), d: key.d } as JsonWebKey, format: 'jwk' });
  } catch (cause) {
    throw ucpFail('invalid_key', `JWK "${key.kid}" is not a valid P-256 private key.`, cause);
  }
}

function publicKey(key: UcpJwk): KeyObject {
  try {
    return createPublicKey({ key: publicJwk(key) as JsonWebKey, format: 'jwk' });
  } catch (cause) {
    throw ucpFail('invalid_key', `Key "${key.kid}" is not a valid P-256 public key.`, cause);
  }
}

/**
 * Signs a request as UCP signatures.md "REST Request Signing" says: returns `Content-Digest`
 * (and `Content-Type`) when there is a body, `Signature-Input` and `Signature` — add them to the request.
 */
export function signUcpRequest(request: UcpSignRequest, key: UcpNodePrivateKey): UcpSignedHeaders {
  const body = bodyBytes(request.body);
  const keyid = request.keyid ?? (key instanceof KeyObject ? undefined : key.kid);
  const digest = body.length > 0 ? createHash('sha256').update(body).digest() : undefined;
  const plan = planSigning(request, keyid, digest, Math.floor(Date.now() / 1000));
  const signature = sign('sha256', Buffer.from(plan.base, 'utf8'), { key: privateKey(key), dsaEncoding: 'ieee-p1363' });
  return plan.headers(signature);
}

/**
 * Verifies a UCP-signed request (e.g. an order webhook) against the signer's `signing_keys`:
 * Content-Digest against the raw body, coverage, keyid, created/expires, then the ES256
 * signature over the RFC 9421 signature base. Returns the parsed JSON body; throws UcpSignatureError.
 */
export function verifyUcpRequest<T = unknown>(
  request: UcpVerifyRequest, keys: readonly UcpJwk[] | { keys: readonly UcpJwk[] }, options?: UcpVerifyOptions,
): T {
  const plan = planVerification(request, keys, options);
  if (plan.digest && !equalBytes(createHash('sha256').update(plan.body).digest(), plan.digest)) {
    throw ucpFail('digest_mismatch', 'Content-Digest does not match the body: it was altered, re-serialized, or is not the raw body.');
  }
  const ok = verify('sha256', Buffer.from(plan.base, 'utf8'), { key: publicKey(plan.key), dsaEncoding: 'ieee-p1363' }, plan.signature);
  if (!ok) throw ucpFail('signature_invalid', `Signature verification failed for key kid=${plan.key.kid}.`);
  return plan.body.length > 0 ? parseJsonBody<T>(plan.body) : (undefined as T);
}

/**
 * UCP 2026-01-11: the `Request-Signature` value for a webhook body — a detached JWS (RFC 7797,
 * `b64: false`, ES256) `<header>..<signature>` with the key's `kid` in the header.
 */
export function signUcpDetachedJws(body: UcpBody, key: UcpNodePrivateKey, options?: UcpJwsSignOptions): string {
  const plan = planJwsSigning(bodyBytes(body), options?.keyid ?? (key instanceof KeyObject ? undefined : key.kid), options);
  return plan.serialize(sign('sha256', plan.input, { key: privateKey(key), dsaEncoding: 'ieee-p1363' }));
}

/**
 * UCP 2026-01-11: verifies `Request-Signature` over the raw body with the key of its `kid` in the
 * business's `signing_keys`; returns the parsed JSON body or throws UcpSignatureError.
 */
export function verifyUcpDetachedJws<T = unknown>(
  body: UcpBody, requestSignature: string | null | undefined, keys: readonly UcpJwk[] | { keys: readonly UcpJwk[] },
): T {
  const plan = planJwsVerification(body, requestSignature, keys);
  if (!verify('sha256', plan.input, { key: publicKey(plan.key), dsaEncoding: 'ieee-p1363' }, plan.signature)) {
    throw ucpFail('signature_invalid', `Request-Signature verification failed for key kid=${plan.key.kid}.`);
  }
  return parseJsonBody<T>(plan.body);
}
