/**
 * The ACP profile's operations: the official OpenAPI document's paths under `/acp`, each with
 * the API-key scope it needs and the official schemas its body and answers are validated against.
 */
import { createRequire } from 'node:module';
import type { OpenApiDocument } from '../contract/document.js';
import { OperationTable } from '../contract/operations.js';
import { DISCOVERY_PATH } from './discovery.js';

const require = createRequire(import.meta.url);
export const acpOpenApiPath: string = require.resolve('@commerce-gateway/openapi/acp/openapi.agentic_checkout.json');

export const ACP_PREFIX = '/acp';

interface AcpOperationSchemas {
  request?: string;
  response: string;
}

/** By the official operationId (prefixed `acp.` in our tables, logs and metrics). */
const SCHEMAS: Record<string, AcpOperationSchemas> = {
  'acp.createCheckoutSession': { request: 'CheckoutSessionCreateRequest', response: 'CheckoutSession' },
  'acp.updateCheckoutSession': { request: 'CheckoutSessionUpdateRequest', response: 'CheckoutSession' },
  'acp.getCheckoutSession': { response: 'CheckoutSession' },
  'acp.completeCheckoutSession': { request: 'CheckoutSessionCompleteRequest', response: 'CheckoutSessionWithOrder' },
  'acp.cancelCheckoutSession': { request: 'CancelSessionRequest', response: 'CheckoutSession' },
};

export const requestSchemaOf = (operationId: string): string | undefined => SCHEMAS[operationId]?.request;
export const responseSchemaOf = (operationId: string): string | undefined => SCHEMAS[operationId]?.response;

export function acpOperationTable(): OperationTable {
  const official = require(acpOpenApiPath) as OpenApiDocument;
  const paths = Object.fromEntries(
    Object.entries(official.paths).map(([path, item]) => [
      `${ACP_PREFIX}${path}`,
      Object.fromEntries(
        Object.entries(item).map(([method, op]) => {
          if (typeof op !== 'object' || op === null || !('operationId' in op)) return [method, op];
          const operationId = `acp.${(op as { operationId: string }).operationId}`;
          return [method, { ...op, operationId, 'x-scopes': [method === 'get' ? 'checkout:read' : 'checkout:write'] }];
        }),
      ),
    ]),
  );
  return new OperationTable({ ...official, paths });
}

/** Paths the ACP profile answers (the rest of `/acp` is our own catalog API). */
export function isAcpPath(path: string): boolean {
  return path === DISCOVERY_PATH || path === `${ACP_PREFIX}/checkout_sessions` || path.startsWith(`${ACP_PREFIX}/checkout_sessions/`);
}
