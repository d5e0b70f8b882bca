/**
 * What erasure leaves of a stored JSON document (a webhook event's payload): every buyer's
 * details taken out, wherever they sit — `customer`, `customer_id`, `shipping_address` and
 * `shipping_address_id` (our contract's, which allows null) set to null, `saved_addresses` emptied; ACP's `buyer`, `fulfillment_details`, `fulfillment_address` and
 * `billing_address` (optional there, never null) removed. Everything else, and the order of the
 * keys, is kept (event payloads are sent with their keys in the API's order).
 */
const NULLED = new Set(['customer', 'customer_id', 'shipping_address', 'shipping_address_id']);
const EMPTIED = new Set(['saved_addresses']);
const REMOVED = new Set(['buyer', 'fulfillment_details', 'fulfillment_address', 'billing_address']);

export function scrubPersonalData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubPersonalData);
  if (typeof value !== 'object' || value === null) return value;
  const scrubbed: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (REMOVED.has(key)) continue;
    scrubbed[key] = NULLED.has(key) ? null : EMPTIED.has(key) ? [] : scrubPersonalData(field);
  }
  return scrubbed;
}

/** UCP's destinations (addresses with their recipients' names) and the one selected, kept in a session's protocol state. */
const PROTOCOL_REMOVED = new Set(['destinations', 'selected_destination_id']);

/**
 * A session's protocol state without the buyer: scrubPersonalData (ACP's `buyer` and
 * `fulfillment_details`, UCP's `buyer`), and UCP's destinations; the rest — the protocol, its
 * release, item ids, capabilities — is kept, so the session is still shown in its protocol.
 */
export function scrubProtocolState(state: unknown): unknown {
  const scrubbed = scrubPersonalData(state);
  if (typeof scrubbed !== 'object' || scrubbed === null || Array.isArray(scrubbed)) return scrubbed;
  return Object.fromEntries(Object.entries(scrubbed).filter(([key]) => !PROTOCOL_REMOVED.has(key)));
}
