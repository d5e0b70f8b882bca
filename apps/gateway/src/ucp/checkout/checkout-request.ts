/**
 * A UCP checkout request (create or update; already valid against the release's request schema,
 * request-schemas.ts) as the domain's SessionChanges and the UCP state kept beside them. Prices,
 * titles and totals a platform sends are never read: the domain prices the cart.
 *
 * - `line_items[].item.id` names a variant (its SKU) or a product (its first variant); entries of
 *   the same item add up to one line, in the order the items first appear.
 * - `buyer` is the domain's customer (email, name — `full_name`, or first and last names —, phone, consent).
 * - `fulfillment.methods[0]` (a `shipping` method; we ship each cart as one parcel — the one method
 *   whatever `id` it is sent with, or none, request-schemas.ts): its
 *   `destinations` (ids assigned `dest_<n>` where the platform gave none) and the selected one —
 *   `selected_destination_id`, or the only destination given — which is either one of the buyer's
 *   saved addresses (by its id: the domain checks it is this buyer's) or one of the destinations;
 *   `groups[0].selected_option_id` chooses the option (`null` clears the choice).
 * - `discounts.codes` replaces the codes asked before (`[]` clears them).
 */
import { MAX_QUANTITY } from '../../checkout/line-resolver.js';
import type { SessionChanges } from '../../checkout/session-record.js';
import type { Customer } from '../../contract/types.js';
import { UcpError } from '../ucp-error.js';
import { toDomainAddress, type UcpPostalAddress } from './address.js';
import type { UcpDestination } from './ucp-state.js';

export interface UcpLineEntry {
  id?: string;
  item: { id: string };
  quantity: number;
}

export interface UcpFulfillmentRequest {
  methods?: {
    type?: string;
    destinations?: (UcpPostalAddress & { id?: string })[];
    selected_destination_id?: string | null;
    groups?: { id?: string; selected_option_id?: string | null }[];
  }[];
}

export interface UcpBuyerRequest {
  /** 2026-01-11 only. */
  full_name?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  phone_number?: string;
  consent?: { analytics?: boolean; preferences?: boolean; marketing?: boolean; sale_of_data?: boolean };
  [field: string]: unknown;
}

export interface UcpCheckoutRequest {
  id?: string;
  line_items?: UcpLineEntry[];
  buyer?: UcpBuyerRequest;
  fulfillment?: UcpFulfillmentRequest;
  discounts?: { codes?: string[] };
  cart_id?: string;
  [field: string]: unknown;
}

/** The request's cart: one domain line per distinct item id, with the index of its first entry. */
export interface GroupedItems {
  ids: string[];
  quantities: number[];
  firstIndex: number[];
}

export function groupItems(entries: readonly UcpLineEntry[]): GroupedItems {
  const at = new Map<string, number>();
  const grouped: GroupedItems = { ids: [], quantities: [], firstIndex: [] };
  entries.forEach((entry, index) => {
    const line = at.get(entry.item.id);
    if (line === undefined) {
      at.set(entry.item.id, grouped.ids.length);
      grouped.ids.push(entry.item.id);
      grouped.quantities.push(entry.quantity);
      grouped.firstIndex.push(index);
      return;
    }
    grouped.quantities[line]! += entry.quantity;
    if (grouped.quantities[line]! > MAX_QUANTITY) {
      throw new UcpError('invalid_request', `$.line_items[${index}].quantity brings item ${JSON.stringify(entry.item.id)} over ${MAX_QUANTITY} units`, 400, {}, { path: `$.line_items[${index}].quantity` });
    }
  });
  return grouped;
}

/** The buyer as the domain's customer. */
export function customerOf(buyer: UcpBuyerRequest): Customer {
  const name = buyer.full_name || [buyer.first_name, buyer.last_name].filter(Boolean).join(' ');
  const consent = buyer.consent
    ? Object.fromEntries((['marketing', 'analytics', 'sale_of_data'] as const).flatMap((key) => (typeof buyer.consent![key] === 'boolean' ? [[key, buyer.consent![key]]] : [])))
    : undefined;
  return {
    ...(buyer.email ? { email: buyer.email } : {}),
    ...(name ? { name } : {}),
    ...(buyer.phone_number ? { phone: buyer.phone_number } : {}),
    ...(consent && Object.keys(consent).length ? { consent } : {}),
  };
}

export interface FulfillmentChoice {
  changes: Pick<SessionChanges, 'shippingAddress' | 'shippingAddressId' | 'fulfillmentOptionId'>;
  /** The platform's destinations to keep (saved addresses excluded: they are offered anyway). */
  destinations?: UcpDestination[];
  selectedDestinationId?: string | undefined;
}

/**
 * What `fulfillment` sets. `known` are the destinations kept so far (an update may select one
 * without sending it again); `saved` the ids of the buyer's saved addresses.
 */
export function fulfillmentChoice(request: UcpFulfillmentRequest | undefined, known: readonly UcpDestination[], saved: ReadonlySet<string>): FulfillmentChoice {
  const method = request?.methods?.[0];
  if (!method) return { changes: {} };
  if ((request!.methods!.length ?? 0) > 1 || (method.type !== undefined && method.type !== 'shipping')) {
    throw new UcpError('invalid_request', 'This business fulfils by shipping only, with one method: send one fulfillment.methods entry of type "shipping"', 400, {}, { path: '$.fulfillment.methods' });
  }
  const given = method.destinations?.map((destination, i) => ({ ...destination, id: destination.id || `dest_${i + 1}` }));
  const destinations = given ? given.filter((destination) => !saved.has(destination.id)) : undefined;
  const candidates = destinations ?? known;
  const selected = method.selected_destination_id !== undefined ? method.selected_destination_id : given?.length === 1 ? given[0]!.id : undefined;
  const changes: FulfillmentChoice['changes'] = {};
  let selectedDestinationId: string | undefined;
  if (selected) {
    const destination = candidates.find((candidate) => candidate.id === selected);
    if (destination) {
      const { id: _id, ...address } = destination;
      changes.shippingAddress = toDomainAddress(address as UcpPostalAddress);
      selectedDestinationId = selected;
    } else {
      changes.shippingAddressId = selected; // a saved address (the domain refuses an id that is not this buyer's)
    }
  }
  const group = method.groups?.[0];
  if (group && group.selected_option_id !== undefined) changes.fulfillmentOptionId = group.selected_option_id;
  return { changes, ...(destinations ? { destinations: destinations as UcpDestination[] } : {}), selectedDestinationId };
}
