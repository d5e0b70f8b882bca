import type { RequestHandler } from 'express';
import { checkSignature, type SignatureProblem } from '../../auth/request-signature.js';
import { AuthenticationError } from '../../errors.js';

const MESSAGES: Record<SignatureProblem, string> = {
  missing_signature: 'This key signs its requests: send a Signature header (base64 HMAC-SHA256 of the raw body)',
  malformed_signature: 'Signature must be the HMAC-SHA256 digest in standard base64 with its padding: 44 characters of A-Z a-z 0-9 + /, the last one =, nothing after it',
  missing_timestamp: 'Signed requests need a Timestamp header (RFC 3339, e.g. 2026-11-22T10:00:00Z)',
  malformed_timestamp: 'Timestamp must be RFC 3339, e.g. 2026-11-22T10:00:00Z',
  stale_timestamp: 'Timestamp is more than 5 minutes away from the server clock',
  mismatch: 'Signature does not match the request body',
};

/**
 * Verifies `Signature`/`Timestamp` for keys that have a signing secret, or for
 * every key when `requireAll` is set. Runs after authenticate() and jsonBody().
 *
 *   app.use(verifySignature({ requireAll: false }));
 */
export function verifySignature(options: { requireAll: boolean; now?: () => number }): RequestHandler {
  const now = options.now ?? Date.now;
  return (req, _res, next) => {
    const secret = req.ctx.principal?.signingSecret;
    if (!secret) {
      if (options.requireAll) throw new AuthenticationError('This gateway requires signed requests; use a key created with --signing-secret');
      return next();
    }
    const problem = checkSignature(req.ctx.rawBody ?? Buffer.alloc(0), req.get('signature'), req.get('timestamp'), secret, now());
    if (problem) throw new AuthenticationError(MESSAGES[problem]);
    next();
  };
}
