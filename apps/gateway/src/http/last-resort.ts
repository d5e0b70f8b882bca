/**
 * The error handler after the edge's own (edge.ts): whatever still reaches it — an error thrown
 * while an answer to another error was being written (a response validator refusing it), or by
 * the error handler itself — is answered with the request's protocol's internal error, as JSON.
 * Without it Express's final handler would answer, with an HTML page that shows the error's
 * stack whenever NODE_ENV is `development`. Headers already sent: the connection is closed, as
 * Express does, and nothing is shown.
 *
 *   app.use([problemHandler(errorsOf, logger), lastResort(errorsOf, logger)]);
 */
import type { ErrorRequestHandler, Request } from 'express';
import type { Logger } from 'pino';

/** The answer written (edge.ts's Problem: this module is imported by edge.ts, so it does not import it back). */
interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export function lastResort(errorsOf: (req: Request) => { internalError: Answer }, logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      logger.warn({ requestId: req.ctx?.requestId, err: error }, 'error after the answer began: connection closed');
      res.destroy();
      return;
    }
    logger.error({ requestId: req.ctx?.requestId, err: error }, 'error while answering an error');
    let answer: Answer = { status: 500, body: { error: 'internal_error' } };
    try {
      answer = errorsOf(req).internalError;
    } catch {
      // the plain answer above
    }
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    // Written as bytes: res.json may still be wrapped by a response validator, the very thing that may have failed.
    res.status(answer.status).setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(answer.body));
  };
}
