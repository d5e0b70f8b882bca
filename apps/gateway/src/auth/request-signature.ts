/**
 * Request signing (SPEC.md "Request signing"): `Signature` is the base64
 * HMAC-SHA256 of the raw body bytes (empty for a body-less request), keyed with
 * the key's signing secret; `Timestamp` (RFC 3339) must be within ±5 minutes.
 * One encoding only: standard base64 (RFC 4648 §4, `+` and `/`) with its padding,
 * canonical — the 44 characters `Buffer#toString('base64')` and `btoa` write.
 * The digest covers neither the timestamp nor the method, path or query: the signature of an
 * empty body is the same for every bodiless request of a key, so a captured one authenticates
 * any other (another session's cancel) with a fresh Timestamp. Kept for compatibility (SPEC's
 * scheme); request-signature-v2.ts signs the whole request, and keys whose scheme is v2 refuse this one.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_WINDOW_SECONDS = 300;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

export type SignatureProblem = 'missing_signature' | 'malformed_signature' | 'missing_timestamp' | 'malformed_timestamp' | 'stale_timestamp' | 'mismatch';

/**
 * The one encoding each API accepts for a 32-byte digest: ours, standard base64 (43 characters
 * and one `=`); ACP's (rfc.agentic_checkout §2.1), base64url without padding (43 characters).
 */
export type SignatureEncoding = 'base64' | 'base64url';

const DIGEST_TEXT: Record<SignatureEncoding, RegExp> = {
  base64: /^[A-Za-z0-9+/]{43}=$/,
  base64url: /^[A-Za-z0-9_-]{43}$/,
};

/**
 * The digest a `Signature` value carries, or undefined unless it is exactly the canonical text
 * of 32 bytes in `encoding`: Node's decoders would also take the other alphabet, missing or extra
 * padding, junk after it, spaces, and non-zero bits after the last byte.
 */
function digestOf(signature: string, encoding: SignatureEncoding): Buffer | undefined {
  if (!DIGEST_TEXT[encoding].test(signature)) return undefined;
  const digest = Buffer.from(signature, encoding);
  return digest.toString(encoding) === signature ? digest : undefined;
}

export function signBody(body: Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

/** undefined when the signature holds; else what is wrong with it. */
export function checkSignature(
  body: Uint8Array,
  signature: string | undefined,
  timestamp: string | undefined,
  secret: string,
  nowMs: number = Date.now(),
  encoding: SignatureEncoding = 'base64',
): SignatureProblem | undefined {
  if (!signature) return 'missing_signature';
  const given = digestOf(signature, encoding);
  if (!given) return 'malformed_signature';
  if (!timestamp) return 'missing_timestamp';
  if (!RFC3339.test(timestamp.trim())) return 'malformed_timestamp';
  const at = Date.parse(timestamp.trim());
  if (Number.isNaN(at)) return 'malformed_timestamp';
  if (Math.abs(nowMs - at) > SIGNATURE_WINDOW_SECONDS * 1000) return 'stale_timestamp';
  const expected = createHmac('sha256', secret).update(body).digest();
  const ok = timingSafeEqual(given, expected);
  return ok ? undefined : 'mismatch';
}
