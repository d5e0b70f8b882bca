/**
 * UCP 2026-01-11: a detached JWS in `Request-Signature`.
 *
 * order.md (2026-01-11) "Webhook Signature Verification": the business creates "a detached JWT
 * (RFC 7797) over the request body" with a key of its `signing_keys`, puts it in
 * `Request-Signature`, with the key ID in the JOSE header's `kid`. RFC 7797 is the unencoded
 * payload option: `{"alg":"ES256","kid":…,"b64":false,"crit":["b64"]}`, signing input
 * `BASE64URL(header) || "." || raw body`, serialized detached as `<header>..<signature>`
 * (RFC 7515 Appendix F). The signer emits that; the verifier also accepts the plain Appendix F
 * form (no `b64`, signing input over BASE64URL(body)), since the prose can be read either way.
 */
import { bodyBytes, fromBase64Url, toBase64Url, utf8Bytes } from './bytes.js';
import { ucpFail as fail } from './errors.js';
import { assertEs256Key } from './keys.js';
import type { UcpBody, UcpJwk } from './types.js';

export interface UcpJwsSignOptions {
  /** Key ID published in `signing_keys` (defaults to the JWK's `kid`). */
  keyid?: string;
  /** `false` (default): RFC 7797 unencoded payload (`b64: false`, `crit: ["b64"]`); `true`: RFC 7515 Appendix F over BASE64URL(body). */
  b64?: boolean;
}

export function planJwsSigning(body: Uint8Array, keyid: string | undefined, options: UcpJwsSignOptions = {}) {
  if (!keyid) throw fail('invalid_key', 'A keyid is needed: pass options.keyid or a JWK with a "kid".');
  const header = options.b64 ? { alg: 'ES256', kid: keyid } : { alg: 'ES256', kid: keyid, b64: false, crit: ['b64'] };
  const encodedHeader = toBase64Url(utf8Bytes(JSON.stringify(header)));
  return {
    input: jwsSigningInput(encodedHeader, body, options.b64 === true),
    serialize: (signature: Uint8Array) => `${encodedHeader}..${toBase64Url(signature)}`,
  };
}

function jwsSigningInput(encodedHeader: string, body: Uint8Array, b64: boolean): Uint8Array<ArrayBuffer> {
  const prefix = utf8Bytes(`${encodedHeader}.`);
  const payload = b64 ? utf8Bytes(toBase64Url(body)) : body;
  const out = new Uint8Array(prefix.length + payload.length);
  out.set(prefix);
  out.set(payload, prefix.length);
  return out;
}

export interface JwsVerificationPlan {
  input: Uint8Array<ArrayBuffer>;
  signature: Uint8Array;
  key: UcpJwk;
  body: Uint8Array<ArrayBuffer>;
}

/** Parses the `Request-Signature` JWS and finds its key; the caller checks the signature. */
export function planJwsVerification(body: UcpBody, header: string | null | undefined, keys: readonly UcpJwk[] | { keys: readonly UcpJwk[] }): JwsVerificationPlan {
  const bytes = bodyBytes(body);
  if (header === undefined || header === null || header.trim() === '') throw fail('signature_missing', 'The request carries no Request-Signature header.');
  const parts = header.trim().split('.');
  if (parts.length !== 3) throw fail('signature_malformed', 'Request-Signature is not a compact JWS (<header>..<signature>).');
  const [encodedHeader, payload, encodedSignature] = parts as [string, string, string];
  if (payload !== '') throw fail('signature_malformed', 'Request-Signature carries a payload; UCP sends a detached JWS (<header>..<signature>) over the request body.');
  const headerBytes = fromBase64Url(encodedHeader);
  let jose: Record<string, unknown>;
  try {
    jose = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(headerBytes)) as Record<string, unknown>;
    if (!headerBytes || typeof jose !== 'object' || jose === null || Array.isArray(jose)) throw new Error('not an object');
  } catch (cause) {
    throw fail('signature_malformed', 'The JWS header is not base64url JSON.', cause);
  }
  if (jose['alg'] !== 'ES256') throw fail('algorithm_unsupported', `JWS alg ${JSON.stringify(jose['alg'])} is not supported; UCP webhooks use ES256.`);
  const crit = jose['crit'];
  if (crit !== undefined && (!Array.isArray(crit) || crit.length === 0 || crit.some((c) => c !== 'b64'))) {
    throw fail('signature_malformed', `JWS crit ${JSON.stringify(crit)} names extensions this verifier does not understand (RFC 7515 §4.1.11).`);
  }
  const b64 = jose['b64'];
  if (b64 !== undefined && typeof b64 !== 'boolean') throw fail('signature_malformed', 'JWS b64 must be a boolean.');
  if (b64 === false && !(Array.isArray(crit) && crit.includes('b64'))) throw fail('signature_malformed', 'JWS b64: false must be listed in crit (RFC 7797 §6).');
  const kid = jose['kid'];
  if (typeof kid !== 'string' || kid === '') throw fail('key_not_found', 'The JWS header has no kid.');
  const list = Array.isArray(keys) ? keys : (keys as { keys: readonly UcpJwk[] }).keys;
  const key = list.find((k) => k.kid === kid);
  if (!key) throw fail('key_not_found', `No key with kid "${kid}" in the signer's signing_keys.`);
  assertEs256Key(key);
  const signature = fromBase64Url(encodedSignature);
  if (!signature) throw fail('signature_malformed', 'The JWS signature is not base64url.');
  if (signature.length !== 64) {
    throw fail('signature_invalid', signature[0] === 0x30
      ? 'The JWS signature looks ASN.1/DER-encoded; ES256 in JWS (RFC 7518 §3.4) is the raw 64-byte r||s.'
      : `An ES256 JWS signature is 64 bytes (r||s), got ${signature.length}.`);
  }
  return { input: jwsSigningInput(encodedHeader, bytes, b64 !== false), signature, key, body: bytes };
}
