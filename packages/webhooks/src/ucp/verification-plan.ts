/** Parses and checks a signed UCP request up to the digest and the signature, which each flavour's crypto checks. */
import { bodyBytes } from './bytes.js';
import { ucpFail as fail } from './errors.js';
import { assertEs256Key } from './keys.js';
import { requiredComponents, signatureBase } from './signature-base.js';
import { dictionaryHeader, headerValue, memberBytes, parseSignatureParams, type SignatureParams } from './structured-fields.js';
import type { UcpJwk, UcpVerifyOptions, UcpVerifyRequest } from './types.js';

export interface VerificationPlan {
  params: SignatureParams;
  base: string;
  signature: Uint8Array;
  key: UcpJwk;
  body: Uint8Array<ArrayBuffer>;
  /** The `sha-256` member of Content-Digest, when the request has a body. */
  digest?: Uint8Array;
}

/** Parses and checks everything but the digest and the signature themselves. */
export function planVerification(request: UcpVerifyRequest, keys: readonly UcpJwk[] | { keys: readonly UcpJwk[] }, options: UcpVerifyOptions = {}): VerificationPlan {
  const body = bodyBytes(request.body);
  const input = headerValue(request.headers, 'signature-input');
  const sigHeader = headerValue(request.headers, 'signature');
  if (!input) throw fail('signature_missing', 'The request carries no Signature-Input header.');
  if (!sigHeader) throw fail('signature_missing', 'The request carries no Signature header.');
  const inputs = dictionaryHeader(input, 'Signature-Input', 'signature_malformed');
  const label = options.label ?? inputs.keys().next().value;
  const member = label === undefined ? undefined : inputs.get(label);
  if (label === undefined || member === undefined) throw fail('signature_missing', `Signature-Input has no ${options.label ? `"${options.label}" ` : ''}signature.`);
  const params = parseSignatureParams(member);
  const sigMember = dictionaryHeader(sigHeader, 'Signature', 'signature_malformed').get(label);
  if (sigMember === undefined) throw fail('signature_missing', `The Signature header has no "${label}" member.`);
  const signature = memberBytes(sigMember);
  if (!signature) throw fail('signature_malformed', `The "${label}" signature is not a byte sequence (:base64:).`);

  // Coverage: everything signatures.md makes required for this request must be signed.
  for (const name of requiredComponents(request.url, request.headers, body.length > 0)) {
    if (!params.components.includes(name)) throw fail('signature_invalid', `The signature does not cover "${name}", which UCP requires for this request.`);
  }

  // The key, by keyid, in the signer's signing_keys.
  if (!params.keyid) throw fail('key_not_found', 'Signature-Input has no keyid.');
  const list = Array.isArray(keys) ? keys : (keys as { keys: readonly UcpJwk[] }).keys;
  const key = list.find((k) => k.kid === params.keyid);
  if (!key) throw fail('key_not_found', `No key with kid "${params.keyid}" in the signer's signing_keys.`);
  assertEs256Key(key);
  // signatures.md: the algorithm comes from the key's crv, `alg` is not sent; if a sender does, it must agree.
  if (params.alg !== undefined && params.alg !== 'ecdsa-p256-sha256') {
    throw fail('algorithm_unsupported', `Signature alg "${params.alg}" does not match the ES256 (P-256) key "${key.kid}".`);
  }
  if (signature.length !== 64) {
    const der = signature[0] === 0x30 && signature.length >= 8 && signature.length <= 72;
    throw fail('signature_invalid', der
      ? 'The signature looks ASN.1/DER-encoded; UCP (RFC 9421 §3.3.4) requires the raw 64-byte r||s encoding of ES256.'
      : `An ES256 signature is 64 bytes (r||s), got ${signature.length}.`);
  }

  // Time: created within the tolerance (when present, or when required), expires not passed.
  const now = Math.floor((options.now?.() ?? Date.now()) / 1000);
  const tolerance = options.tolerance ?? 300;
  if (params.created === undefined) {
    if (options.requireCreated) throw fail('signature_expired', 'The signature has no created parameter, and requireCreated is set.');
  } else if (params.created < now - tolerance) {
    throw fail('signature_expired', `The signature was created ${now - params.created}s ago, beyond the ${tolerance}s tolerance.`);
  } else if (params.created > now + tolerance) {
    throw fail('signature_expired', `The signature's created lies ${params.created - now}s in the future, beyond the ${tolerance}s tolerance.`);
  }
  if (params.expires !== undefined && params.expires < now) throw fail('signature_expired', `The signature expired ${now - params.expires}s ago.`);

  // Content-Digest (RFC 9530): required with a body, its sha-256 member compared by the caller.
  let digest: Uint8Array | undefined;
  if (body.length > 0 || params.components.includes('content-digest')) {
    const header = headerValue(request.headers, 'content-digest');
    if (header === undefined) throw fail('digest_missing', 'The request has a body but no Content-Digest header.');
    digest = memberBytes(dictionaryHeader(header, 'Content-Digest', 'digest_mismatch').get('sha-256'));
    if (!digest || digest.length !== 32) throw fail('digest_mismatch', 'Content-Digest has no well-formed sha-256 member (UCP requires sha-256).');
  }

  const base = signatureBase(request.method, request.url, request.headers, params);
  return { params, base, signature, key, body, digest };
}

/** JSON.parse of the verified body. */
export function parseJsonBody<T>(body: Uint8Array): T {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as T;
  } catch (cause) {
    throw fail('invalid_body', 'The verified body is not UTF-8 JSON.', cause);
  }
}
