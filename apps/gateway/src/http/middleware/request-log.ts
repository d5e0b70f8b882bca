import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

/**
 * One log line per request, once its response is sent (or the client went away):
 * `{requestId, operation, method, path, status, durationMs, merchant, locale}`. Never
 * headers, query strings or bodies, so never a key, secret or signature.
 * 5xx answers log at `warn`, the rest at `info`.
 *
 *   app.use(requestId());
 *   app.use(requestLog(logger));
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const aborted = !res.writableFinished;
      const line = {
        requestId: req.ctx?.requestId,
        operation: req.ctx?.operation?.operationId,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        merchant: req.ctx?.merchantId,
        ...(req.ctx?.locale ? { locale: req.ctx.locale } : {}),
        ...(aborted ? { aborted: true } : {}),
      };
      if (res.statusCode >= 500) logger.warn(line, aborted ? 'request aborted' : 'request');
      else logger.info(line, aborted ? 'request aborted' : 'request');
    });
    next();
  };
}
