/**
 * What an open session still needs before it can be paid for — the domain's one statement of
 * readiness. `complete` refuses with the same rules (checkout-errors.ts); an edge shows the needs
 * in its own words (ACP's `messages[]` and status) and never derives them again.
 */
import type { Address } from '../contract/types.js';
import { missingShippingFields } from './address.js';
import { PENDING_METHOD } from '../shipping/shipping-provider.js';
import type { Shortage } from './stock.js';

export type SessionNeed =
  /** A SKU short of stock, or gone from the catalog (`available` null). */
  | { kind: 'stock'; shortage: Shortage }
  /** The cart ships: a shipping address with these fields (all of them when there is none). */
  | { kind: 'shipping_address'; missing: string[] }
  /** The cart ships to a destination the merchant's shipping profile has no option for: another address. */
  | { kind: 'shipping_unavailable'; country: string; region: string | null }
  /** One of the offered fulfillment options, chosen. */
  | { kind: 'fulfillment_option'; offered: string[] };

/** What readiness is read from: the session's cart, address and choice, its offered options and shortages. */
export interface ReadinessFacts {
  session: { lineItems: readonly { requiresShipping: boolean }[]; shippingAddress: unknown; fulfillmentOptionId: string | null; shippingMethod: string };
  fulfillmentOptions: readonly { id: string }[];
  shortages: readonly Shortage[];
}

/** The fields of a shipping address the cart still needs: none when nothing ships. */
export function shippingNeeds(lines: readonly { requiresShipping: boolean }[], address: Address | null): string[] {
  return lines.some((line) => line.requiresShipping) ? missingShippingFields(address) : [];
}

/**
 * The destination a shipping cart has no option for (method `pending` with a country: no zone of the
 * merchant's profile covers it, or none prices the cart's currency); undefined when it has options,
 * ships nothing, or has no destination yet (then the address is what it needs).
 */
export function unavailableDestination(session: ReadinessFacts['session']): { country: string; region: string | null } | undefined {
  const address = session.shippingAddress as Address | null;
  if (session.shippingMethod !== PENDING_METHOD || !address?.country || !session.lineItems.some((line) => line.requiresShipping)) return undefined;
  return { country: address.country, region: address.state ?? null };
}

/** In the order a buyer would settle them: stock, the address, a destination that ships, the fulfillment option. */
export function sessionNeeds({ session, fulfillmentOptions, shortages }: ReadinessFacts): SessionNeed[] {
  const needs: SessionNeed[] = shortages.map((shortage) => ({ kind: 'stock', shortage }));
  const missing = shippingNeeds(session.lineItems, session.shippingAddress as Address | null);
  if (missing.length > 0) needs.push({ kind: 'shipping_address', missing });
  const unavailable = unavailableDestination(session);
  if (unavailable) needs.push({ kind: 'shipping_unavailable', ...unavailable });
  if (!session.fulfillmentOptionId && fulfillmentOptions.length > 0) needs.push({ kind: 'fulfillment_option', offered: fulfillmentOptions.map((option) => option.id) });
  return needs;
}
