/**
 * Request signing, scheme v2: the signature covers the request, not only its body.
 *
 *   X-Request-Signature: t=1764836000,v2=5f0c…(64 lowercase hex)
 *
 * v2 is the lowercase hex HMAC-SHA256, keyed with the key's signing secret, of the signing string
 *
 *   "v2\n" + t + "\n" + METHOD + "\n" + target + "\n" + Merchant-Id + "\n" + hex(SHA-256(body))
 *
 * where t is the Unix time of signing in seconds (also in the header, so it is signed), METHOD the
 * request method in upper case, target the request target exactly as the gateway receives it (the
 * path and, when present, `?` and the raw query — percent-encoding untouched, nothing reordered),
 * Merchant-Id the header's value (empty when absent) and body the exact body bytes (none for GET
 * and bodiless POSTs). A v2 signature therefore cannot be moved onto another method, path, query,
 * merchant, body or time; t must lie within the window (300 s by default) of the server clock.
 *
 * SPEC.md's scheme (request-signature.ts: `Signature` over the body only, `Timestamp` unsigned) is
 * kept for compatibility; a key whose signature_scheme is `v2` accepts only this one.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** A key's signing requirement: `body` takes SPEC's body signature or v2; `v2` takes v2 only. */
export type SignatureScheme = 'body' | 'v2';

export const SIGNATURE_SCHEMES: readonly SignatureScheme[] = ['body', 'v2'];

export const SIGNATURE_V2_HEADER = 'X-Request-Signature';

export const DEFAULT_SIGNATURE_V2_WINDOW_SECONDS = 300;

export type SignatureV2Problem = 'malformed' | 'stale_timestamp' | 'mismatch';

/** What a v2 signature covers; `target` is the request target as received (path and raw query). */
export interface SignedRequest {
  method: string;
  target: string;
  merchantId: string | undefined;
  body: Uint8Array;
}

/** The longest header value considered: one t, a few v2 values (secret rotation), some slack. */
const MAX_HEADER_LENGTH = 1024;
const TIMESTAMP = /^\d{1,12}$/;
const DIGEST = /^[0-9a-f]{64}$/;

export function signingStringV2(t: number, request: SignedRequest): string {
  const bodyDigest = createHash('sha256').update(request.body).digest('hex');
  return ['v2', String(t), request.method.toUpperCase(), request.target, request.merchantId ?? '', bodyDigest].join('\n');
}

/** The X-Request-Signature value for a request signed at `t` (Unix seconds). */
export function signRequestV2(request: SignedRequest, secret: string, t: number = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v2=${createHmac('sha256', secret).update(signingStringV2(t, request)).digest('hex')}`;
}

/** `t` and the v2 digests of a header value, or undefined when it is not `t=<digits>,v2=<hex>[,…]`. */
export function parseSignatureV2(header: string): { t: number; digests: Buffer[] } | undefined {
  if (header.length > MAX_HEADER_LENGTH) return undefined;
  let t: number | undefined;
  const digests: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return undefined;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') {
      if (t !== undefined || !TIMESTAMP.test(value)) return undefined;
      t = Number(value);
    } else if (name === 'v2') {
      if (!DIGEST.test(value)) return undefined;
      digests.push(Buffer.from(value, 'hex'));
    } else if (!/^[a-z][a-z0-9]{0,15}$/.test(name)) {
      return undefined; // other names (a later scheme's) are skipped; junk is not
    }
  }
  return t === undefined || digests.length === 0 ? undefined : { t, digests };
}

/** undefined when the header holds for this request; else what is wrong with it. */
export function checkSignatureV2(
  header: string,
  request: SignedRequest,
  secret: string,
  options: { nowMs?: number; windowSeconds?: number } = {},
): SignatureV2Problem | undefined {
  const parsed = parseSignatureV2(header);
  if (!parsed) return 'malformed';
  const nowSeconds = (options.nowMs ?? Date.now()) / 1000;
  if (Math.abs(nowSeconds - parsed.t) > (options.windowSeconds ?? DEFAULT_SIGNATURE_V2_WINDOW_SECONDS)) return 'stale_timestamp';
  const expected = createHmac('sha256', secret).update(signingStringV2(parsed.t, request)).digest();
  let ok = false;
  for (const digest of parsed.digests) ok = timingSafeEqual(digest, expected) || ok; // every one compared
  return ok ? undefined : 'mismatch';
}
