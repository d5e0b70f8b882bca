import express, { type RequestHandler } from 'express';
import { InvalidRequestError } from '../../kernel/errors.js';
import { isStorableText, UNSTORABLE_TEXT } from '../storable-text.js';

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
 * An operation whose contract takes `application/x-ndjson` (a catalog file) gets such a body as
 * text, within the same limit, and its Content-Type is kept.
 *
 * Then hands the contract validator one of three Content-Types whatever the client
 * sent — `application/json` for a parsed body, `application/x-ndjson` for the text above,
 * `application/octet-stream` for any other body (the validator answers 415) — and none without a body: the validator
 * compiles and caches a schema per Content-Type it sees, so raw values would grow
 * its cache without bound and a malformed one (`%`) makes it throw.
 *
 *   app.use(jsonBody());
 */
export function jsonBody(): RequestHandler[] {
  return [parseJson(), parseNdjson(), refuseUnstorableText, normalizeContentType];
}

/** Where in a parsed JSON value a string (or object key) holds unstorable text, as `items[0].title`; undefined when none does. */
function unstorableTextAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path || '(body)';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextAt(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) return at;
      const found = unstorableTextAt(item, at);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Refuses, before anything runs, a body with text that could not be stored: otherwise an
 * operation might act and then fail to record what it did (an idempotent answer, an event).
 */
const refuseUnstorableText: RequestHandler = (req, _res, next) => {
  if (req.ctx.rawBody === undefined) return next();
  const at = unstorableTextAt(req.body);
  if (at) throw new InvalidRequestError(`${at} ${UNSTORABLE_TEXT}`, at === '(body)' ? undefined : at);
  next();
};

const normalizeContentType: RequestHandler = (req, _res, next) => {
  const hasBody = !hasNoBody(req);
  if (!hasBody && req.ctx.operation?.acceptsBody) {
    // No body at all where one is taken: an empty object, so the contract names what is missing
    // (POST /checkout_sessions: items) and a PATCH without changes is just that.
    req.body = {};
    req.ctx.rawBody = Buffer.alloc(0);
  }
  if (req.ctx.rawBody !== undefined) req.headers['content-type'] = typeof req.body === 'string' ? NDJSON : 'application/json';
  else if (hasBody) req.headers['content-type'] = 'application/octet-stream';
  else delete req.headers['content-type'];
  next();
};

/** A request that carries no body (a GET, mostly): nothing to read or parse. */
const hasNoBody = (req: express.Request) => req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] ?? '0') === '0';

const NDJSON = 'application/x-ndjson';

/** NDJSON text for the operations that take it; the exact bytes on `req.ctx.rawBody` too. */
function parseNdjson(): RequestHandler {
  const parse = express.text({
    type: NDJSON,
    limit: BODY_LIMIT,
    verify: (req, _res, buffer) => {
      (req as express.Request).ctx.rawBody = buffer;
    },
  });
  return (req, res, next) => (hasNoBody(req) || !req.ctx.operation?.acceptsNdjson || req.ctx.rawBody !== undefined ? next() : parse(req, res, next));
}

function parseJson(): RequestHandler {
  const parse = express.json({
    limit: BODY_LIMIT,
    strict: false,
    verify: (req, _res, buffer) => {
      (req as express.Request).ctx.rawBody = buffer;
      if (jsonDepth(buffer, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new InvalidRequestError(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    },
  });
  return (req, res, next) => (hasNoBody(req) ? next() : parse(req, res, next));
}
