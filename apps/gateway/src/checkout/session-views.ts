/** The answers the checkout service builds from a locked or written session row: our API's CheckoutSession, ACP's SessionRecord. */
import type { CheckoutSession, LineItemInput } from '../contract/types.js';
import type { Tx } from '../db/transaction.js';
import type { CheckoutStore } from './checkout-store.js';
import { planStockTakes } from './completion-rules.js';
import { fulfillmentOptions } from './fulfillment-options.js';
import type { Session } from './session.js';
import { toCheckoutSession } from './session-mapper.js';
import type { SessionRecord } from './session-record.js';

/** Turns a locked or written row into the answer of one API (in the transaction, when there is one). */
export type View<T> = (tx: Tx | undefined, row: Session) => Promise<T>;

export const contractView: View<CheckoutSession> = async (_tx, row) => toCheckoutSession(row);

/** ACP's record: the session, the fulfillment options it is offered and, while open, its stock shortages. */
export function recordView(store: CheckoutStore, merchantId: string): View<SessionRecord> {
  return async (tx, row) => ({
    session: row,
    fulfillmentOptions: fulfillmentOptions({ shippingMethod: row.shippingMethod, shipping: row.shippingAmount, shippingOptions: row.shippingOptions }),
    shortages: row.status === 'open' ? await store.shortages(tx, merchantId, planStockTakes(row.lineItems)) : [],
  });
}

/**
 * Items named by one id each — a variant's SKU, or a product id (its first variant) — as the
 * domain's line inputs; an id that is neither stays a product id, which `open`/`change` refuse (404).
 */
export async function itemsByIds(store: CheckoutStore, merchantId: string, ids: readonly string[]): Promise<LineItemInput[]> {
  const owners = await store.skuOwners(merchantId, ids);
  return ids.map((id) => {
    const productId = owners.get(id);
    return productId === undefined ? { product_id: id } : { product_id: productId, variant_sku: id };
  });
}
