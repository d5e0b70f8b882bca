import { randomFillSync } from 'node:crypto';
import type { RequestHandler } from 'express';

const ACCEPTABLE = /^[\x21-\x7e]{1,200}$/;

// Random bytes drawn 256 ids at a time: one call into the CSPRNG per 256 requests, not one per request.
const ID_BYTES = 12;
const pool = Buffer.alloc(ID_BYTES * 256);
let offset = pool.length;

function randomHex(): string {
  if (offset >= pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return hex;
}

/**
 * Takes the caller's `Request-Id` (printable, at most 200 characters) or makes
 * one, and echoes it on the response.
 *
 *   app.use(requestId());
 */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const given = req.get('request-id');
    const id = given && ACCEPTABLE.test(given) ? given : `req_${randomHex()}`;
    req.ctx = { requestId: id };
    res.setHeader('Request-Id', id);
    next();
  };
}
