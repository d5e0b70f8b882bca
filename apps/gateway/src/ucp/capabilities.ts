/**
 * The capabilities the UCP profile advertises. A capability is listed in `/.well-known/ucp` only once its operations are served under /ucp (overview.md
 * "Business Requirements": the profile says what the business supports; a platform that read
 * `dev.ucp.shopping.checkout` here would POST /ucp/checkout-sessions and must not meet a 404).
 * Served: checkout with its fulfillment, discount and buyer_consent extensions, and order (its
 * webhooks; `GET /orders/{id}`), catalog search and lookup, and cart — each at the releases that
 * define it (releases/: `capabilities`).
 */
import type { CapabilityEntry, Release } from './releases/release.js';

/** The service the capabilities belong to. */
export const SHOPPING_SERVICE = 'dev.ucp.shopping';

/** The capabilities' names. */
export const CAPABILITY = {
  checkout: 'dev.ucp.shopping.checkout',
  fulfillment: 'dev.ucp.shopping.fulfillment',
  discount: 'dev.ucp.shopping.discount',
  buyerConsent: 'dev.ucp.shopping.buyer_consent',
  order: 'dev.ucp.shopping.order',
  catalogSearch: 'dev.ucp.shopping.catalog.search',
  catalogLookup: 'dev.ucp.shopping.catalog.lookup',
  cart: 'dev.ucp.shopping.cart',
} as const;

export interface CapabilityPlan {
  name: string;
  /** The parent capability of an extension. */
  extends?: string;
  /** Its page under the release's `specification/` and its schema under `schemas/shopping/`. */
  doc: string;
  schema: string;
  /** Whether its operations are served now (and so whether the profile lists it). */
  served: boolean;
}

export const CAPABILITIES: readonly CapabilityPlan[] = [
  { name: CAPABILITY.checkout, doc: 'checkout', schema: 'checkout', served: true },
  { name: CAPABILITY.fulfillment, extends: CAPABILITY.checkout, doc: 'fulfillment', schema: 'fulfillment', served: true },
  { name: CAPABILITY.discount, extends: CAPABILITY.checkout, doc: 'discount', schema: 'discount', served: true },
  { name: CAPABILITY.buyerConsent, extends: CAPABILITY.checkout, doc: 'buyer-consent', schema: 'buyer_consent', served: true },
  { name: CAPABILITY.order, doc: 'order', schema: 'order', served: true },
  { name: CAPABILITY.catalogSearch, doc: 'catalog/search', schema: 'catalog_search', served: true },
  { name: CAPABILITY.catalogLookup, doc: 'catalog/lookup', schema: 'catalog_lookup', served: true },
  { name: CAPABILITY.cart, doc: 'cart', schema: 'cart', served: true },
];

/** The served capabilities (with extensions) `release` defines whose root is `root`, e.g. the checkout and its extensions. */
export function servedWith(release: Release, root: string): CapabilityPlan[] {
  return advertisedCapabilities(release).filter((capability) => capability.name === root || capability.extends === root);
}

/** What the profile of `release` lists: the served capabilities that release defines. */
export function advertisedCapabilities(release: Release): CapabilityPlan[] {
  return CAPABILITIES.filter((capability) => capability.served && release.capabilities.includes(capability.name));
}

/** The capabilities as a profile of `release` declares them: each with the release's spec page and schema. */
export function capabilityEntries(release: Release, capabilities: readonly CapabilityPlan[]): CapabilityEntry[] {
  const base = release.documentsUrl;
  return capabilities.map((capability) => ({
    name: capability.name,
    version: release.version,
    spec: `${base}/specification/${capability.doc}`,
    schema: `${base}/schemas/shopping/${capability.schema}.json`,
    ...(capability.extends ? { extends: capability.extends } : {}),
  }));
}
