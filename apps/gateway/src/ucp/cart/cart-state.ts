/**
 * What a UCP cart keeps in its checkout session row (the domain's `protocolState`), and how a cart
 * id names its row. See ucp-cart.ts for why a cart is a session row.
 *
 * A cart's id is its session's id with `cart_` for `cs_` (`cs_Ab3…` ↔ `cart_Ab3…`): the protocol
 * never shows a session id as a cart id, and a checkout id sent as a cart id (or the reverse) names
 * no cart. A row is a cart only when its state says `kind: "cart"` (fixed at creation).
 */
import { CAPABILITY } from '../capabilities.js';
import { releaseDefining } from '../releases/releases.js';
import type { UcpVersion } from '../ucp-version.js';

/** The release a cart is kept and answered at: the first that defines carts (2026-04-08). */
export const CART_VERSION: UcpVersion = releaseDefining(CAPABILITY.cart).version;

export interface UcpCartState {
  protocol: 'ucp';
  kind: 'cart';
  version: UcpVersion;
  /** The platform's item id of each line, by position (a variant SKU or a product id). */
  item_ids: string[];
  /** As the platform sent them, echoed back (localization hints; buyer for the checkout made from the cart). */
  context?: Record<string, unknown>;
  buyer?: Record<string, unknown>;
  /** The UCP checkout made from this cart (cart.md "Idempotent conversion"), once there is one. */
  checkout_id?: string;
}

export function cartStateOf(raw: unknown): UcpCartState | undefined {
  const state = raw as Partial<UcpCartState> | null;
  return state?.protocol === 'ucp' && state.kind === 'cart' && Array.isArray(state.item_ids) ? (state as UcpCartState) : undefined;
}

const CART_PREFIX = 'cart_';
const SESSION_PREFIX = 'cs_';

export const cartIdOf = (sessionId: string): string => CART_PREFIX + sessionId.slice(SESSION_PREFIX.length);

/** The session a cart id names; undefined for anything that is not a cart id. */
export function sessionIdOf(cartId: string): string | undefined {
  return /^cart_[A-Za-z0-9]{1,64}$/.test(cartId) ? SESSION_PREFIX + cartId.slice(CART_PREFIX.length) : undefined;
}
