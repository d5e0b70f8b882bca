/**
 * UCP's REST operations under `/ucp`, from the official bindings vendored in openapi/ucp/: the
 * newest release's binding (2026-04-08 `rest.openapi.json`: checkout, cart, catalog, order) is the
 * table; an operation is served to a request negotiated at a release whose binding defines it
 * (2026-01-11 `openapi.json`: checkout) or that serves it beyond its binding (releases/: `rest`).
 * Each carries the API-key scope it needs, and is named `ucp.<official operationId>` in our tables,
 * logs and metrics.
 *
 * Deviations, for the orders 2026-01-11 clients read where they look for them (order/ucp-order-operations.ts):
 * `get_order` is served at both releases, and `PUT /orders/{id}` (`update_order`, no binding defines
 * it: the order capability's fulfillment updates) is added, scope `orders:write`.
 */
import { createRequire } from 'node:module';
import type { OpenApiDocument, OpenApiOperation } from '../contract/document.js';
import { OperationTable } from '../contract/operations.js';
import type { Release } from './releases/release.js';
import { newestRelease, releases } from './releases/releases.js';
import { UCP_PREFIX, type UcpVersion } from './ucp-version.js';

const require = createRequire(import.meta.url);

const binding = (release: Release): OpenApiDocument =>
  require(`@commerce-gateway/openapi/ucp/${release.version}/services/shopping/${release.rest.binding}`) as OpenApiDocument;

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

const latest = binding(newestRelease());
/** The operations served at each release, by official operationId. */
const served = new Map(releases().map((release) => [release.version, new Set([...operationIds(binding(release)), ...release.rest.alsoServed])]));

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

const officialId = (operationId: string): string => operationId.replace(/^ucp\./, '');

/** Whether a request negotiated at `version` is served the operation (by our `ucp.` name, or the official one). */
export function servesOperation(version: UcpVersion, operationId: string): boolean {
  return served.get(version)?.has(officialId(operationId)) ?? false;
}

/** The first release that serves an operation (by our `ucp.` name, or the official one). */
export function operationSince(operationId: string): UcpVersion {
  return (releases().find((release) => servesOperation(release.version, operationId)) ?? newestRelease()).version;
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
