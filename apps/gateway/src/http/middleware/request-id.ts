import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';

const ACCEPTABLE = /^[\x21-\x7e]{1,200}$/;

/**
 * Takes the caller's `Request-Id` (printable, at most 200 characters) or makes
 * one, and echoes it on the response.
 *
 *   app.use(requestId());
 */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const given = req.get('request-id');
    const id = given && ACCEPTABLE.test(given) ? given : `req_${randomBytes(12).toString('hex')}`;
    req.ctx = { requestId: id };
    res.setHeader('Request-Id', id);
    next();
  };
}
