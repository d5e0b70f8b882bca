/**
 * How the ACP profile answers errors (its ProtocolErrors, written by http/edge.ts), in ACP's flat
 * Error shape: our errors through ACP's one factory (domain-errors.ts: its own AcpErrors, the
 * shared edge's refusals, the domain's), body-parser and database failures; anything unknown is
 * logged and answered 500 `processing_error`.
 */
import { isDatabaseUnavailable } from '../db/database.js';
import { KnownError } from '../kernel/errors.js';
import type { Problem, ProtocolErrors } from '../http/edge.js';
import { AcpError } from './acp-error.js';
import { toAcpError } from './domain-errors.js';

function fromBody(error: unknown): AcpError | undefined {
  const { type, status } = (error ?? {}) as { type?: string; status?: number };
  if (type === 'entity.too.large') return new AcpError(413, 'invalid_request', 'payload_too_large', 'Request body is larger than 1 MiB');
  if (type === 'entity.parse.failed') return new AcpError(400, 'invalid_request', 'invalid_json', `Malformed JSON body: ${(error as Error).message}`);
  if (typeof type === 'string' && status !== undefined && status >= 400 && status < 500) {
    return new AcpError(status === 415 ? 415 : 400, 'invalid_request', 'invalid', (error as Error).message);
  }
  if (isDatabaseUnavailable(error)) return new AcpError(503, 'service_unavailable', 'service_unavailable', 'The database is unavailable; retry shortly', undefined, {}, { 'Retry-After': '5' });
  return undefined;
}

const asProblem = (error: AcpError): Problem => ({ status: error.status, body: error.body(), headers: error.headers });

export const acpErrors: ProtocolErrors = {
  name: 'acp',
  problem: (error) => {
    const acp = error instanceof KnownError ? (error.expose ? toAcpError(error) : undefined) : fromBody(error);
    return acp && asProblem(acp);
  },
  internalError: asProblem(new AcpError(500, 'processing_error', 'internal_error', 'Internal error; quote the Request-Id when you report it')),
};
