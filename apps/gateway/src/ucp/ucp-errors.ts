/**
 * How the UCP profile answers errors (its ProtocolErrors, written by http/edge.ts), in the shape
 * of the release the request is processed at (ucp-error.ts): our errors through UCP's factory
 * (refusals.ts, which gives the REST binding's statuses), body-parser's and the database's here.
 * Anything unknown is logged and answered 500 `internal_error`.
 */
import type { Request } from 'express';
import { isDatabaseUnavailable } from '../db/database.js';
import { KnownError } from '../kernel/errors.js';
import type { Problem, ProtocolErrors } from '../http/edge.js';
import { answerVersion } from './negotiation.js';
import { ucpRefusal } from './refusals.js';
import { UcpError } from './ucp-error.js';
import type { UcpVersion } from './ucp-version.js';

/** Our errors meant for the caller, through UCP's factory (refusals.ts). */
function fromEdge(error: unknown): UcpError | undefined {
  if (error instanceof UcpError) return error;
  return error instanceof KnownError && error.expose ? ucpRefusal(error) : undefined;
}

function fromBody(error: unknown): UcpError | undefined {
  const { type, status } = (error ?? {}) as { type?: string; status?: number };
  if (type === 'entity.too.large') return new UcpError('payload_too_large', 'Request body is larger than 1 MiB', 413);
  if (type === 'entity.parse.failed') return new UcpError('invalid_json', `Malformed JSON body: ${(error as Error).message}`, 400);
  if (typeof type === 'string' && status !== undefined && status >= 400 && status < 500) return new UcpError('invalid_request', (error as Error).message, status === 415 ? 415 : 400);
  if (isDatabaseUnavailable(error)) return new UcpError('service_unavailable', 'The database is unavailable; retry shortly', 503, { 'Retry-After': '5' });
  return undefined;
}

export function ucpErrors(current: UcpVersion): ProtocolErrors {
  const problemOf = (error: UcpError, req?: Request): Problem => {
    const { status, body } = error.answer(req ? answerVersion(req, current) : current);
    return { status, body, headers: error.headers };
  };
  return {
    name: 'ucp',
    problem: (error, req) => {
      const ucp = fromEdge(error) ?? fromBody(error);
      return ucp && problemOf(ucp, req);
    },
    internalError: problemOf(new UcpError('internal_error', 'Internal error; quote the Request-Id when you report it', 500)),
  };
}
