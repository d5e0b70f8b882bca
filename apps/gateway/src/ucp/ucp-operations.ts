/**
 * UCP's REST operations under `/ucp`, from the official bindings vendored in openapi/ucp/: the
 * 2026-04-08 `rest.openapi.json` (checkout, cart, catalog, order) is the table; an operation the
 * 2026-01-11 `openapi.json` also defines (checkout) is served at both releases, the others only to
 * a request negotiated at 2026-04-08 (`since`). Each carries the API-key scope it needs, and is
 * named `ucp.<official operationId>` in our tables, logs and metrics.
 *
 * Deviations, for the orders 2026-01-11 clients read where they look for them (order/ucp-order-operations.ts):
 * `get_order` is served at both releases, and `PUT /orders/{id}` (`update_order`, no binding defines
 * it: the order capability's fulfillment updates) is added, scope `orders:write`.
 */
import { createRequire } from 'node:module';
import type { OpenApiDocument, OpenApiOperation } from '../contract/document.js';
import { OperationTable } from '../contract/operations.js';
import { UCP_PREFIX, type UcpVersion } from './ucp-version.js';

const require = createRequire(import.meta.url);

const binding = (version: UcpVersion, file: string): OpenApiDocument =>
  require(`@commerce-gateway/openapi/ucp/${version}/services/shopping/${file}`) as OpenApiDocument;

/** The scope an operation needs: catalog reads, order reads, else checkout (carts are pre-checkout). */
function scopeOf(operationId: string, method: string): string {
  if (operationId.endsWith('_catalog') || operationId === 'get_product') return 'catalog:read';
  if (operationId === 'get_order') return 'orders:read';
  if (operationId === 'update_order') return 'orders:write';
  return method === 'get' ? 'checkout:read' : 'checkout:write';
}

function operationIds(document: OpenApiDocument): Set<string> {
  return new Set(
    Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (typeof op === 'object' && op !== null && 'operationId' in op ? [(op as OpenApiOperation).operationId] : [])),
    ),
  );
}

const latest = binding('2026-04-08', 'rest.openapi.json');
const inFirstRelease = new Set([...operationIds(binding('2026-01-11', 'openapi.json')), 'get_order', 'update_order']);

/** `PUT /orders/{id}`: the order update clients send (see above); its body is the order, read by order-update.ts. */
function withOrderUpdate(paths: OpenApiDocument['paths']): OpenApiDocument['paths'] {
  const item = paths['/orders/{id}'] as Record<string, unknown> | undefined;
  if (!item) return paths;
  const put = {
    operationId: 'update_order',
    summary: 'Update Order (fulfillment events; not in any official binding, outside production only)',
    requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
    responses: { '200': { description: 'The order' } },
  };
  return { ...paths, '/orders/{id}': { ...item, put } } as OpenApiDocument['paths'];
}

/** The first release that defines an operation (by our `ucp.` name). */
export function operationSince(operationId: string): UcpVersion {
  return inFirstRelease.has(operationId.replace(/^ucp\./, '')) ? '2026-01-11' : '2026-04-08';
}

export function ucpOperationTable(): OperationTable {
  const paths = Object.fromEntries(
    Object.entries(withOrderUpdate(latest.paths)).map(([path, item]) => [
      `${UCP_PREFIX}${path}`,
      Object.fromEntries(
        Object.entries(item).map(([method, op]) => {
          if (typeof op !== 'object' || op === null || !('operationId' in op)) return [method, op];
          const { operationId } = op as OpenApiOperation;
          return [method, { ...op, operationId: `ucp.${operationId}`, 'x-scopes': [scopeOf(operationId, method)] }];
        }),
      ),
    ]),
  );
  return new OperationTable({ ...latest, paths });
}
