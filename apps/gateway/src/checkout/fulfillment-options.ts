/**
 * The fulfillment options a cart is offered, from the same quote that priced it (the
 * ShippingProvider's: the flat rate of the settings, or the merchant's shipping profile for the
 * destination): its shipping options when any line ships, else `digital` delivery at no cost. Both
 * APIs see the same choice: our own API as `shipping.options`, the ACP profile as `fulfillment_options`.
 */
import type { DeliveryEstimate } from '../shipping/shipping-profile.js';
import { pricedOption, type ShippingOptionQuote } from '../shipping/shipping-options.js';
import type { Totals } from './pricing/pricing.js';

export interface FulfillmentOption {
  /** Stable id: what a buyer selects (`selected_fulfillment_options[].option_id` in ACP). */
  id: string;
  type: 'shipping' | 'digital';
  title: string;
  description: string;
  /** Cost in minor units of the session's currency. */
  amount: bigint;
  estimate: DeliveryEstimate | null;
}

type Quoted = Pick<Totals, 'shippingMethod' | 'shipping'> & { shippingOptions: readonly ShippingOptionQuote[] | null };

/** The shipping options of a priced cart (a session written before they were kept: the one its method implies). */
export function shippingOptionsOf(quoted: Quoted): readonly ShippingOptionQuote[] {
  if (quoted.shippingOptions) return quoted.shippingOptions;
  if (quoted.shippingMethod === 'none') return [];
  const description = quoted.shipping === 0n ? 'Flat-rate shipping, free for this cart' : 'Flat-rate shipping';
  return [{ id: 'standard', title: 'Standard shipping', method: 'standard', amount: quoted.shipping, estimate: null, description }];
}

function describe(option: ShippingOptionQuote): string {
  if (option.promotion) return `${option.title}, free with the promotion “${option.promotion.title}”`;
  if (option.description) return option.description;
  const days = option.estimate ? `, ${option.estimate.minBusinessDays}–${option.estimate.maxBusinessDays} business days` : '';
  return `${option.title}${option.amount === 0n ? ', free for this cart' : ''}${days}`;
}

/** The options of a priced cart, cheapest first among equals in the merchant's order. */
export function fulfillmentOptions(quoted: Quoted): FulfillmentOption[] {
  if (quoted.shippingMethod === 'none') {
    return [{ id: 'digital', type: 'digital', title: 'Digital delivery', description: 'Nothing in the cart ships', amount: 0n, estimate: null }];
  }
  return shippingOptionsOf(quoted).map((option) => ({ id: option.id, type: 'shipping', title: option.title, description: describe(option), amount: option.amount, estimate: option.estimate }));
}

/** The option chosen, when it is still one the cart is offered. */
export function chosenOption(options: readonly FulfillmentOption[], id: string | null | undefined): FulfillmentOption | undefined {
  return id ? options.find((option) => option.id === id) : undefined;
}

/** The shipping option the cart is priced with: the chosen one while offered, else the cheapest (our API's preselection). */
export function pricedShippingOption(quoted: Quoted, chosenId: string | null): ShippingOptionQuote | undefined {
  return quoted.shippingMethod === 'none' ? undefined : pricedOption(shippingOptionsOf(quoted), chosenId);
}
