/**
 * The fulfillment options a cart is offered, from the same shipping settings that price it
 * (the ShippingProvider's quote): `standard` shipping when any line ships — the flat rate, free
 * from the threshold — else `digital` delivery at no cost. Both APIs see the same choice: our own
 * API shows it as `shipping`, the ACP profile as `fulfillment_options`.
 */
import type { Totals } from './pricing/pricing.js';

export interface FulfillmentOption {
  /** Stable id: what a buyer selects (`selected_fulfillment_options[].option_id` in ACP). */
  id: 'standard' | 'digital';
  type: 'shipping' | 'digital';
  title: string;
  description: string;
  /** Cost in minor units of the session's currency. */
  amount: bigint;
}

/** The options of a priced cart; the first one is the default. */
export function fulfillmentOptions(totals: Pick<Totals, 'shippingMethod' | 'shipping'>): FulfillmentOption[] {
  if (totals.shippingMethod === 'none') {
    return [{ id: 'digital', type: 'digital', title: 'Digital delivery', description: 'Nothing in the cart ships', amount: 0n }];
  }
  const description = totals.shipping === 0n ? 'Flat-rate shipping, free for this cart' : 'Flat-rate shipping';
  return [{ id: 'standard', type: 'shipping', title: 'Standard shipping', description, amount: totals.shipping }];
}

/** The option chosen, when it is still one the cart is offered. */
export function chosenOption(options: readonly FulfillmentOption[], id: string | null | undefined): FulfillmentOption | undefined {
  return id ? options.find((option) => option.id === id) : undefined;
}
