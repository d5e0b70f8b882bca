/** The checks of a session's requests that need no database: a payment token, one address, the cart's currency, an offered option. */
import { InvalidRequestError, NotFoundError } from '../kernel/errors.js';
import { chosenOption, fulfillmentOptions } from './fulfillment-options.js';
import type { SessionChanges } from './session-record.js';

export function checkPaymentMethod(token: string): string {
  if (typeof token !== 'string' || token.length < 1 || token.length > 64) {
    throw new InvalidRequestError('payment_method must be a token of 1 to 64 characters', 'payment_method');
  }
  return token;
}

export function checkOneAddress(changes: SessionChanges): void {
  if (changes.shippingAddress && changes.shippingAddressId !== undefined) {
    throw new InvalidRequestError('Send either shipping_address or shipping_address_id, not both', 'shipping_address_id');
  }
}

export function checkCurrency(cartCurrency: string, expected: string | undefined): void {
  if (expected !== undefined && expected.toUpperCase() !== cartCurrency) {
    throw new InvalidRequestError(`The cart is priced in ${cartCurrency}, not ${expected.toUpperCase()}`, 'currency');
  }
}

/** The option id when the cart is offered it; else 400 naming the ones it is offered. */
export function checkedOption(totals: Parameters<typeof fulfillmentOptions>[0], id: string | null): string | null {
  if (id === null) return null;
  const options = fulfillmentOptions(totals);
  if (!chosenOption(options, id)) {
    const offered = options.length ? `it is offered ${options.map((o) => o.id).join(', ')}` : 'it is offered none (no shipping option for its destination yet)';
    throw new InvalidRequestError(`No fulfillment option ${JSON.stringify(id)} for this cart; ${offered}`, 'shipping_option_id');
  }
  return id;
}

export function notFound(id: string): NotFoundError {
  return new NotFoundError(`No checkout session ${JSON.stringify(id)}`, 'session_id');
}
