/**
 * The capabilities the UCP profile will advertise, and which it advertises today. A capability is
 * listed in `/.well-known/ucp` only once its operations are served under /ucp (overview.md
 * "Business Requirements": the profile says what the business supports; a platform that read
 * `dev.ucp.shopping.checkout` here would POST /ucp/checkout-sessions and must not meet a 404).
 * Served: checkout with its fulfillment, discount and buyer_consent extensions (both releases).
 * Each of the others is turned on with its operations: order — both releases; catalog search and
 * lookup, cart — 2026-04-08 only.
 */
import type { UcpVersion } from './ucp-version.js';

export interface CapabilityPlan {
  name: string;
  /** The parent capability of an extension. */
  extends?: string;
  /** The first release that defines it. */
  since: UcpVersion;
  /** Its page under the release's `specification/` and its schema under `schemas/shopping/`. */
  doc: string;
  schema: string;
  /** Whether its operations are served now (and so whether the profile lists it). */
  served: boolean;
}

const CHECKOUT = 'dev.ucp.shopping.checkout';

export const CAPABILITIES: readonly CapabilityPlan[] = [
  { name: CHECKOUT, since: '2026-01-11', doc: 'checkout', schema: 'checkout', served: true },
  { name: 'dev.ucp.shopping.fulfillment', extends: CHECKOUT, since: '2026-01-11', doc: 'fulfillment', schema: 'fulfillment', served: true },
  { name: 'dev.ucp.shopping.discount', extends: CHECKOUT, since: '2026-01-11', doc: 'discount', schema: 'discount', served: true },
  { name: 'dev.ucp.shopping.buyer_consent', extends: CHECKOUT, since: '2026-01-11', doc: 'buyer-consent', schema: 'buyer_consent', served: true },
  { name: 'dev.ucp.shopping.order', since: '2026-01-11', doc: 'order', schema: 'order', served: false },
  { name: 'dev.ucp.shopping.catalog.search', since: '2026-04-08', doc: 'catalog/search', schema: 'catalog_search', served: true },
  { name: 'dev.ucp.shopping.catalog.lookup', since: '2026-04-08', doc: 'catalog/lookup', schema: 'catalog_lookup', served: true },
  { name: 'dev.ucp.shopping.cart', since: '2026-04-08', doc: 'cart', schema: 'cart', served: true },
];

/** The served capabilities (with extensions) `version` defines whose root is `root`, e.g. the checkout and its extensions. */
export function servedWith(version: UcpVersion, root: string): CapabilityPlan[] {
  return advertisedCapabilities(version).filter((capability) => capability.name === root || capability.extends === root);
}

/** What the profile of `version` lists: the served capabilities that release defines. */
export function advertisedCapabilities(version: UcpVersion): CapabilityPlan[] {
  return CAPABILITIES.filter((capability) => capability.served && capability.since <= version);
}
