/**
 * What stops a checkout session from completing, as errors of their own kind: each edge maps the
 * kind to its own words (our API: 400 invalid_request; ACP: out_of_stock, missing), never the
 * message. All are InvalidRequestErrors: the request asks for something the session cannot do yet.
 */
import { InvalidRequestError } from '../kernel/errors.js';

/** A SKU of the cart has less stock than the cart asks (`available`), or none left in the catalog (null). */
export class OutOfStockError extends InvalidRequestError {
  constructor(
    message: string,
    param: string,
    readonly sku: string,
    readonly requested: number,
    readonly available: number | null,
  ) {
    super(message, param);
  }
}

/** The cart ships and the session has no shipping address, or one without `missing` fields. */
export class ShippingAddressMissingError extends InvalidRequestError {
  constructor(
    message: string,
    param: string,
    readonly missing: readonly string[],
  ) {
    super(message, param);
  }
}

/** A payment needs one of the cart's fulfillment options chosen first. */
export class FulfillmentOptionNotChosenError extends InvalidRequestError {
  constructor(message: string) {
    super(message, 'selected_fulfillment_options');
  }
}

/** The cart ships to a destination the merchant's shipping profile offers no option for. */
export class ShippingUnavailableError extends InvalidRequestError {
  constructor(
    readonly country: string,
    readonly region: string | null,
  ) {
    super(`shipping_unavailable: the merchant does not ship to ${region ? `${country}-${region}` : country}; use another shipping address`, 'shipping_address.country');
  }
}

/**
 * A code the session was priced with reached its usage limit (another order took the last use)
 * before this completion could redeem it: nothing is ordered, and the session is priced again
 * (the code shown as refused, `limit_reached`) so the buyer sees the new total before completing.
 */
export class DiscountLimitReachedError extends InvalidRequestError {
  constructor(readonly codes: readonly string[]) {
    super(`discount_codes: ${codes.join(', ')} reached its usage limit before this order could use it; the session was priced again without it — review the total and complete again`, 'discount_codes');
  }
}
