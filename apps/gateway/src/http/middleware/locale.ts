import type { RequestHandler } from 'express';

/** The language every human-readable message of this gateway is written in. */
export const MESSAGE_LANGUAGE = 'en';

const TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const MAX_HEADER = 512;

/**
 * The caller's preferred locale from an Accept-Language header: the tag with the highest
 * q-value (the first of equals), or undefined when the header names none usable. `*`, q=0
 * and malformed entries are skipped, never an error (RFC 9110 §12.5.4).
 */
export function preferredLocale(header: string | undefined): string | undefined {
  if (!header || header.length > MAX_HEADER) return undefined;
  let best: { tag: string; q: number } | undefined;
  for (const entry of header.split(',')) {
    const [rawTag = '', ...params] = entry.split(';').map((part) => part.trim());
    if (!TAG.test(rawTag)) continue;
    const qParam = params.find((p) => /^q=/i.test(p));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!(q > 0 && q <= 1)) continue;
    if (!best || q > best.q) best = { tag: rawTag, q };
  }
  return best?.tag;
}

/**
 * Records the caller's Accept-Language in `req.ctx.locale` (the request log carries it, and
 * code that writes words for people can read it) and says in `Content-Language` which language
 * the response's messages are in.
 *
 *   app.use(requestId());
 *   app.use(locale());
 */
export function locale(): RequestHandler {
  return (req, res, next) => {
    const preferred = preferredLocale(req.get('accept-language'));
    if (preferred) req.ctx.locale = preferred;
    res.setHeader('Content-Language', MESSAGE_LANGUAGE);
    next();
  };
}
