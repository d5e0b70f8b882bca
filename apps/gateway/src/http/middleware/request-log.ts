import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { withoutEmails } from '../without-emails.js';

/**
 * One log line per request, once its response is sent (or the client went away):
 * `{requestId, operation, method, path, status, durationMs, merchant, locale}`. Never
 * headers, query strings or bodies, so never a key, secret or signature; a path's email segments
 * are masked, so never a buyer's email.
 * 5xx answers log at `warn`, the rest at `info`.
 *
 *   app.use(requestId());
 *   app.use(requestLog(logger));
 */
export function requestLog(logger: Logger): RequestHandler {
  // Without the redaction list: it names nested keys and top-level keys this line never has (its
  // values are flat, under the names below), so it changed nothing here — and cost 9 µs a line,
  // twice the rest of the write.
  const lines = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const started = performance.now();
    res.once('close', () => {
      const aborted = !res.writableFinished;
      const line: Record<string, unknown> = {
        requestId: req.ctx?.requestId,
        operation: req.ctx?.operation?.operationId,
        method: req.method,
        path: withoutEmails(req.path), // never a buyer's email (without-emails.ts)
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        merchant: req.ctx?.merchantId,
      };
      if (req.ctx?.locale) line.locale = req.ctx.locale;
      if (aborted) line.aborted = true;
      if (res.statusCode >= 500) lines.warn(line, aborted ? 'request aborted' : 'request');
      else lines.info(line, aborted ? 'request aborted' : 'request');
    });
    next();
  };
}
