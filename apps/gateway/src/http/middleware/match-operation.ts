import type { RequestHandler } from 'express';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../../kernel/errors.js';
import type { OperationTable } from '../../contract/operations.js';
import { isStorableText, UNSTORABLE_TEXT } from '../storable-text.js';

/**
 * Finds the contract operation a request is for, before anything else looks at it:
 * unknown paths are 404, known paths with another method 405. A path parameter holding text that
 * cannot be stored (a NUL: `/checkout_sessions/%00`) is 400 naming the parameter, for every
 * profile alike, before any handler, store or database sees it.
 *
 *   app.use(matchOperation(new OperationTable()));
 */
export function matchOperation(table: OperationTable): RequestHandler {
  return (req, res, next) => {
    let match;
    try {
      match = table.match(req.method, req.path);
    } catch (error) {
      if (error instanceof URIError) throw new InvalidRequestError('The path is not valid percent-encoded UTF-8');
      throw error;
    }
    if (match.kind === 'not_found') throw new NotFoundError(`No route ${req.method} ${req.path}`);
    if (match.kind === 'method_not_allowed') {
      res.setHeader('Allow', match.allowed.join(', '));
      throw new InvalidStateError(`${req.method} is not allowed on ${req.path} (allowed: ${match.allowed.join(', ')})`);
    }
    for (const [name, value] of Object.entries(match.params)) {
      if (!isStorableText(value)) throw new InvalidRequestError(`The path parameter ${name} ${UNSTORABLE_TEXT}`, name);
    }
    req.ctx.operation = match.operation;
    req.ctx.pathParams = match.params;
    next();
  };
}
