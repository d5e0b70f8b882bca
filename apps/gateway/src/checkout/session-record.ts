/**
 * A session as the domain knows it, for an API that shows more than our own contract's
 * CheckoutSession (the ACP profile): the session in minor units, the fulfillment options
 * the cart is offered, and the lines that are short of stock right now.
 */
import type { Address, Customer, LineItemInput } from '../contract/types.js';
import type { FulfillmentOption } from './fulfillment-options.js';
import type { ProtocolState, Session } from './session.js';
import type { Shortage } from './stock.js';

export interface SessionRecord {
  session: Session;
  /** What the cart can be fulfilled with; `session.fulfillmentOptionId` is the chosen one. */
  fulfillmentOptions: FulfillmentOption[];
  /** Open sessions only: SKUs with less stock than the cart asks (policy `deny`), or gone from the catalog. */
  shortages: Shortage[];
}

/** What a create or update sets; omitted fields keep their value (create: none). */
export interface SessionChanges {
  /** Replaces the whole cart. */
  items?: readonly LineItemInput[];
  /** The currency the caller expects the cart in (any case); 400 when the catalog prices it in another. */
  currency?: string;
  shippingAddress?: Address;
  /** One of the buyer's saved addresses, by id (400 otherwise); not with `shippingAddress`. */
  shippingAddressId?: string;
  customer?: Customer;
  paymentMethod?: string;
  /** The discount codes to apply, in order; replaces the ones asked before (`[]` clears them). */
  discountCodes?: readonly string[];
  /** One of the cart's fulfillment options (400 otherwise). */
  fulfillmentOptionId?: string | null;
  /**
   * The protocol's own state kept with the session: a replacement, or a function of the current
   * state, run on the locked row inside the change's transaction (no lost update between two changes).
   */
  protocolState?: ProtocolState | null | ((current: ProtocolState | null) => ProtocolState | null);
}
