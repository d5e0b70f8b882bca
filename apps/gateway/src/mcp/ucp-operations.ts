/**
 * Which UCP REST operation (rest.openapi.json of 2026-04-08; openapi.json of 2026-01-11, served
 * under /ucp) each MCP tool of the release's OpenRPC document stands for, and which argument is
 * its body. `idempotency`: `meta` — the binding requires the caller's key (complete, cancel);
 * `fresh` — REST requires one but the binding does not, so a call without a key gets a fresh one
 * (it is then an ordinary, non-deduplicated request); `none` — REST takes none.
 */
import type { UcpVersion } from '../ucp/ucp-version.js';
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

const CHECKOUT_TOOLS: Record<string, UcpOperation> = {
  create_checkout: { method: 'POST', path: CHECKOUT, body: 'checkout', idempotency: 'fresh' },
  get_checkout: { method: 'GET', path: `${CHECKOUT}/{id}`, idempotency: 'none' },
  update_checkout: { method: 'PUT', path: `${CHECKOUT}/{id}`, body: 'checkout', idempotency: 'fresh' },
  complete_checkout: { method: 'POST', path: `${CHECKOUT}/{id}/complete`, body: 'checkout', idempotency: 'meta' },
  cancel_checkout: { method: 'POST', path: `${CHECKOUT}/{id}/cancel`, idempotency: 'meta' },
};

export const UCP_OPERATIONS: Record<UcpVersion, Record<string, UcpOperation>> = {
  '2026-04-08': {
    ...CHECKOUT_TOOLS,
    create_cart: { method: 'POST', path: CARTS, body: 'cart', idempotency: 'fresh' },
    get_cart: { method: 'GET', path: `${CARTS}/{id}`, idempotency: 'none' },
    update_cart: { method: 'PUT', path: `${CARTS}/{id}`, body: 'cart', idempotency: 'fresh', idInBody: true },
    cancel_cart: { method: 'POST', path: `${CARTS}/{id}/cancel`, idempotency: 'meta' },
    search_catalog: { method: 'POST', path: `${UCP_PREFIX}/catalog/search`, body: 'catalog', idempotency: 'none' },
    lookup_catalog: { method: 'POST', path: `${UCP_PREFIX}/catalog/lookup`, body: 'catalog', idempotency: 'none' },
    get_product: { method: 'POST', path: `${UCP_PREFIX}/catalog/product`, body: 'catalog', idempotency: 'none' },
    get_order: { method: 'GET', path: `${UCP_PREFIX}/orders/{id}`, idempotency: 'none' },
  },
  // 2026-01-11's OpenRPC: complete takes `payment` (the body is `{payment_data}`: the selected instrument), and complete and
  // cancel take `idempotency_key` as an argument; the profile travels in `_meta.ucp.profile`.
  '2026-01-11': {
    ...CHECKOUT_TOOLS,
    complete_checkout: { method: 'POST', path: `${CHECKOUT}/{id}/complete`, body: 'payment', idempotency: 'meta' },
  },
};
