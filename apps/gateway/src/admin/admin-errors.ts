/**
 * How the admin API answers errors: one shape, `{"error": {"type", "message", "param"?,
 * "retry_after"?, "request_id"}}` (the contract's AdminError), over the same mapping as our
 * API's (http/api-errors.ts: our errors — ConflictError's 409 among them —, validator,
 * body-parser and database errors), reworded; anything unknown is a logged 500. The refusal is
 * also noted for the request's audit entry.
 */
import type { Request } from 'express';
import { apiErrors } from '../http/api-errors.js';
import type { Problem, ProtocolErrors } from '../http/edge.js';
import { adminContext } from './operator-context.js';

function reshape(problem: Problem, req: Request): Problem {
  const body = problem.body as { error?: { type: string; message: string; retry_after?: number }; detail?: string; code?: string; param?: string };
  const error = body.error ?? { type: body.code ?? 'internal_error', message: body.detail ?? 'Internal error', ...(body.param ? { param: body.param } : {}) };
  adminContext(req).detail = `${error.type}: ${error.message}`;
  return { ...problem, body: { error: { ...error, request_id: req.ctx?.requestId ?? '' } } };
}

export const adminErrors: ProtocolErrors = {
  name: 'admin',
  problem: (error, req) => {
    const problem = apiErrors.problem(error, req);
    return problem && reshape(problem, req);
  },
  internalError: { status: 500, body: { error: { type: 'internal_error', message: 'Internal error; quote the Request-Id when you report it', request_id: '' } } },
};
