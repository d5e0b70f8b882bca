import type { Request, RequestHandler } from 'express';
import { checkSignature, type SignatureProblem } from '../../auth/request-signature.js';
import { checkSignatureV2, DEFAULT_SIGNATURE_V2_WINDOW_SECONDS, SIGNATURE_V2_HEADER, type SignatureV2Problem } from '../../auth/request-signature-v2.js';
import { AuthenticationError } from '../../kernel/errors.js';

const MESSAGES: Record<SignatureProblem, string> = {
  missing_signature: 'This key signs its requests: send a Signature header (base64 HMAC-SHA256 of the raw body)',
  malformed_signature: 'Signature must be the HMAC-SHA256 digest in standard base64 with its padding: 44 characters of A-Z a-z 0-9 + /, the last one =, nothing after it',
  missing_timestamp: 'Signed requests need a Timestamp header (RFC 3339, e.g. 2026-11-22T10:00:00Z)',
  malformed_timestamp: 'Timestamp must be RFC 3339, e.g. 2026-11-22T10:00:00Z',
  stale_timestamp: 'Timestamp is more than 5 minutes away from the server clock',
  mismatch: 'Signature does not match the request body',
};

const V2_MESSAGES: Record<SignatureV2Problem, (windowSeconds: number) => string> = {
  malformed: () => `${SIGNATURE_V2_HEADER} must be t=<unix seconds>,v2=<64 lowercase hex characters of HMAC-SHA256>`,
  stale_timestamp: (window) => `${SIGNATURE_V2_HEADER}'s t is more than ${window} seconds away from the server clock`,
  mismatch: () => `${SIGNATURE_V2_HEADER} does not match this request (its method, path and query, Merchant-Id, body and t)`,
};

const V2_REQUIRED = `This key requires the v2 request signature: send ${SIGNATURE_V2_HEADER}: t=<unix seconds>,v2=<hex HMAC-SHA256 of the request> (Signature over the body alone is refused)`;

export interface SignatureV2Options {
  windowSeconds?: number | undefined;
  now?: () => number;
}

/**
 * The v2 part of request signing, for every profile that signs: a request carrying
 * X-Request-Signature is checked against it (whatever the key's scheme); one without it is refused
 * when its key requires v2. 'absent' leaves the request to the profile's own body signature.
 * Only for a principal with a signing secret.
 */
export function checkRequestV2(req: Request, secret: string, options: SignatureV2Options): 'verified' | 'absent' {
  const header = req.get(SIGNATURE_V2_HEADER);
  if (header === undefined) {
    if (req.ctx.principal?.signatureScheme === 'v2') throw new AuthenticationError(V2_REQUIRED);
    return 'absent';
  }
  const windowSeconds = options.windowSeconds ?? DEFAULT_SIGNATURE_V2_WINDOW_SECONDS;
  const problem = checkSignatureV2(
    header,
    { method: req.method, target: req.originalUrl, merchantId: req.get('merchant-id'), body: req.ctx.rawBody ?? Buffer.alloc(0) },
    secret,
    { nowMs: (options.now ?? Date.now)(), windowSeconds },
  );
  if (problem) throw new AuthenticationError(V2_MESSAGES[problem](windowSeconds));
  return 'verified';
}

/**
 * For a profile without a body signature of its own (UCP): X-Request-Signature is checked when
 * sent, and required from keys whose scheme is v2; other requests pass as before.
 */
export function verifySignatureV2Only(options: SignatureV2Options): RequestHandler {
  return (req, _res, next) => {
    const secret = req.ctx.principal?.signingSecret;
    if (secret) checkRequestV2(req, secret, options);
    next();
  };
}

/**
 * Verifies request signatures for keys that have a signing secret, or for every key when
 * `requireAll` is set: X-Request-Signature (v2) when sent or when the key requires it, else
 * SPEC's `Signature`/`Timestamp`. Runs after authenticate() and jsonBody().
 *
 *   app.use(verifySignature({ requireAll: false, windowSeconds: 300 }));
 */
export function verifySignature(options: { requireAll: boolean } & SignatureV2Options): RequestHandler {
  const now = options.now ?? Date.now;
  return (req, _res, next) => {
    const secret = req.ctx.principal?.signingSecret;
    if (!secret) {
      if (options.requireAll) throw new AuthenticationError('This gateway requires signed requests; use a key created with --signing-secret');
      return next();
    }
    if (checkRequestV2(req, secret, options) === 'verified') return next();
    const problem = checkSignature(req.ctx.rawBody ?? Buffer.alloc(0), req.get('signature'), req.get('timestamp'), secret, now());
    if (problem) throw new AuthenticationError(MESSAGES[problem]);
    next();
  };
}
