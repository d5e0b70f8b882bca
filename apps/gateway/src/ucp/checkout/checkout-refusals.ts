/**
 * A checkout's domain errors as UCP refusals (UCP's factory, refusals.ts, with what a checkout
 * knows: its request's lines and the paths of its fields). The domain names its fields in our own API's terms
 * (`items[0].product_id`, `shipping_option_id`); UCP names them as JSONPaths of its wire
 * (`$.line_items[0].item.id`, `$.fulfillment.methods[0].groups[0].selected_option_id`).
 *
 * - An item that does not exist (or is not sold) is a business outcome: the error envelope with
 *   `item_unavailable`, answered 200 as checkout-rest.md's "all items unavailable" example is — the
 *   resource could not be created or changed as asked, and nothing was.
 * - A session of another merchant, another protocol, or none: 404 `not_found`.
 * - A session that is no longer open: 409 `checkout_not_modifiable` (the request conflicts with the
 *   resource's state).
 * - Other invalid input: 400 `invalid_request` with the field's path.
 */
import { refusing } from '../refusals.js';
import { DESTINATION_PATH, OPTION_PATH } from './checkout-view.js';

/** `items[2].quantity` → `$.line_items[<request index of line 2>].quantity`; other params → their UCP path. */
export function ucpPath(param: string | undefined, lineIndexes: readonly number[] = []): string | undefined {
  if (!param) return undefined;
  const line = /^(?:items|line_items)\[(\d+)\](?:\.(product_id|variant_sku|quantity))?/.exec(param);
  if (line) {
    const index = lineIndexes[Number(line[1])] ?? Number(line[1]);
    return `$.line_items[${index}]${line[2] === 'quantity' ? '.quantity' : line[2] ? '.item.id' : ''}`;
  }
  if (param === 'shipping_address_id' || param.startsWith('shipping_address')) return DESTINATION_PATH;
  if (param === 'shipping_option_id' || param === 'fulfillment_option_id') return OPTION_PATH;
  if (param.startsWith('discount_codes')) return param.replace(/^discount_codes/, '$.discounts.codes');
  if (param.startsWith('customer')) return param.replace(/^customer/, '$.buyer').replace('.phone', '.phone_number');
  return `$.${param}`;
}

/** Runs a checkout's domain call; its errors become UCP refusals about this checkout and its request's lines (`lineIndexes`: the request index of each domain line). */
export function guard<T>(work: () => Promise<T>, lineIndexes: readonly number[] = []): Promise<T> {
  return refusing(work, { pathOf: (param) => ucpPath(param, lineIndexes), resource: { notModifiable: 'checkout_not_modifiable' }, lines: true });
}
