import express, { type RequestHandler } from 'express';
import { InvalidRequestError } from '../../errors.js';

export const BODY_LIMIT = '1mb';
/** Deeper JSON is refused with 400: nothing legitimate nests so far, and code that recurses over it would overflow the stack. */
export const MAX_JSON_DEPTH = 100;

/** The deepest nesting of arrays and objects in JSON text (strings skipped), scanning no further than `limit`. */
export function jsonDepth(bytes: Uint8Array, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c) i++; // backslash: skip the escaped character
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      deepest = Math.max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Parses JSON bodies up to 1 MiB and keeps the exact bytes on `req.ctx.rawBody`
 * for request signatures and idempotency fingerprints.
 *
 * Then hands the contract validator one of two Content-Types whatever the client
 * sent — `application/json` for a parsed body, `application/octet-stream` for any
 * other body (the validator answers 415) — and none without a body: the validator
 * compiles and caches a schema per Content-Type it sees, so raw values would grow
 * its cache without bound and a malformed one (`%`) makes it throw.
 *
 *   app.use(jsonBody());
 */
export function jsonBody(): RequestHandler[] {
  return [parseJson(), normalizeContentType];
}

const normalizeContentType: RequestHandler = (req, _res, next) => {
  const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
  if (req.ctx.rawBody !== undefined) req.headers['content-type'] = 'application/json';
  else if (hasBody) req.headers['content-type'] = 'application/octet-stream';
  else delete req.headers['content-type'];
  next();
};

function parseJson(): RequestHandler {
  return express.json({
    limit: BODY_LIMIT,
    strict: false,
    verify: (req, _res, buffer) => {
      (req as express.Request).ctx.rawBody = buffer;
      if (jsonDepth(buffer, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new InvalidRequestError(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    },
  });
}
