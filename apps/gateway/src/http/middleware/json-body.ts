import express, { type RequestHandler } from 'express';

export const BODY_LIMIT = '1mb';

/**
 * Parses JSON bodies up to 1 MiB and keeps the exact bytes on `req.ctx.rawBody`
 * for request signatures and idempotency fingerprints.
 *
 *   app.use(jsonBody());
 */
export function jsonBody(): RequestHandler {
  return express.json({
    limit: BODY_LIMIT,
    strict: false,
    verify: (req, _res, buffer) => {
      (req as express.Request).ctx.rawBody = buffer;
    },
  });
}
