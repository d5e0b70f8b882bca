/**
 * Which UCP REST operation (under /ucp) each MCP tool of a release's OpenRPC document stands for,
 * and which argument is its body — the table's, or the release's own where its tool names another
 * (releases/: `mcp.bodyArguments`; 2026-01-11's complete takes `payment`). `idempotency`: `meta` — the binding requires the caller's key (complete, cancel);
 * `fresh` — REST requires one but the binding does not, so a call without a key gets a fresh one
 * (it is then an ordinary, non-deduplicated request); `none` — REST takes none.
 */
import type { Release } from '../ucp/releases/release.js';
import { UCP_PREFIX } from '../ucp/ucp-version.js';

export interface UcpOperation {
  method: 'GET' | 'POST' | 'PUT';
  /** The REST path under /ucp; `{id}` is the tool's `id` argument. */
  path: string;
  /** The argument that is the REST body (the whole of it). */
  body?: string;
  idempotency: 'meta' | 'fresh' | 'none';
  /** The REST body also names the resource (cart.json: `id` is `ucp_request.update: required`); the MCP payload must not (cart-mcp.md). */
  idInBody?: boolean;
}

const CHECKOUT = `${UCP_PREFIX}/checkout-sessions`;
const CARTS = `${UCP_PREFIX}/carts`;

const TOOLS: Record<string, UcpOperation> = {
  create_checkout: { method: 'POST', path: CHECKOUT, body: 'checkout', idempotency: 'fresh' },
  get_checkout: { method: 'GET', path: `${CHECKOUT}/{id}`, idempotency: 'none' },
  update_checkout: { method: 'PUT', path: `${CHECKOUT}/{id}`, body: 'checkout', idempotency: 'fresh' },
  complete_checkout: { method: 'POST', path: `${CHECKOUT}/{id}/complete`, body: 'checkout', idempotency: 'meta' },
  cancel_checkout: { method: 'POST', path: `${CHECKOUT}/{id}/cancel`, idempotency: 'meta' },
  create_cart: { method: 'POST', path: CARTS, body: 'cart', idempotency: 'fresh' },
  get_cart: { method: 'GET', path: `${CARTS}/{id}`, idempotency: 'none' },
  update_cart: { method: 'PUT', path: `${CARTS}/{id}`, body: 'cart', idempotency: 'fresh', idInBody: true },
  cancel_cart: { method: 'POST', path: `${CARTS}/{id}/cancel`, idempotency: 'meta' },
  search_catalog: { method: 'POST', path: `${UCP_PREFIX}/catalog/search`, body: 'catalog', idempotency: 'none' },
  lookup_catalog: { method: 'POST', path: `${UCP_PREFIX}/catalog/lookup`, body: 'catalog', idempotency: 'none' },
  get_product: { method: 'POST', path: `${UCP_PREFIX}/catalog/product`, body: 'catalog', idempotency: 'none' },
  get_order: { method: 'GET', path: `${UCP_PREFIX}/orders/{id}`, idempotency: 'none' },
};

/** The REST operation of `release`'s tool `name` (undefined for a tool no operation serves). */
export function ucpOperation(release: Release, name: string): UcpOperation | undefined {
  const operation = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
  const body = release.mcp.bodyArguments[name];
  return operation && body ? { ...operation, body } : operation;
}
