import type { Request, RequestHandler, Response } from 'express';
import type { Operation } from '../contract/operations.js';

/** Answers one contract operation. Its input is already authenticated, limited and validated. */
export type OperationHandler = (req: Request, res: Response) => Promise<void> | void;

/** The shape of a contract's generated `<OperationId>Data` type: what the operation takes. */
interface OperationData {
  body?: unknown;
  path?: unknown;
  query?: unknown;
}

/**
 * A request as its operation's generated type says it (`inputOf<SearchProductsData>(req)`): path
 * parameters, query and body, as the edge validated them — numbers coerced, defaults filled.
 */
export function inputOf<D extends OperationData>(req: Request): { path: NonNullable<D['path']>; query: NonNullable<D['query']>; body: D['body'] } {
  return { path: (req.ctx.pathParams ?? {}) as NonNullable<D['path']>, query: (req.ctx.query ?? {}) as NonNullable<D['query']>, body: req.body as D['body'] };
}

/** Handlers by the contract's `operationId`: the path is said once, in the contract. */
export type OperationHandlers = Record<string, OperationHandler>;

/**
 * Runs the handler of the request's contract operation (`req.ctx.operation`, found by
 * matchOperation; path parameters in `req.ctx.pathParams`) — no second route match after the
 * edge's. Every operation of the contract has exactly one handler and every handler names an
 * operation of the contract: checked here, at start-up, not on a request.
 *
 *   app.use(compose([matchOperation(table), …, operationHandlers(table.all(), { ...catalogOperations(catalog) })]));
 */
export function operationHandlers(operations: readonly Operation[], handlers: OperationHandlers): RequestHandler {
  const ids = new Set(operations.map((operation) => operation.operationId));
  const unknown = Object.keys(handlers).filter((id) => !ids.has(id));
  const missing = [...ids].filter((id) => !Object.hasOwn(handlers, id));
  if (unknown.length > 0) throw new Error(`operationHandlers: the contract has no operation ${unknown.join(', ')}`);
  if (missing.length > 0) throw new Error(`operationHandlers: no handler for the contract's ${missing.join(', ')}`);
  const byId = new Map(Object.entries(handlers));
  return (req, res) => byId.get(req.ctx.operation!.operationId)!(req, res);
}
