/**
 * `PUT /ucp/orders/{id}` — the order capability's fulfillment updates, as UCP clients send them:
 * the whole order read before, with the fulfillment events that happened since appended (order.md:
 * `fulfillment.events` is an append-only log; "send full order entity on updates"). No release's
 * REST binding defines the operation; 2026-01-11 clients (and UCP's conformance suite) call it
 * relative to the business's UCP endpoint, as they read `GET /orders/{id}`, so it is served under the
 * endpoint discovery advertises — outside production only, as the shipping simulation is: in
 * production a shipment is the business's to record (our API, the console), never a platform's.
 *
 * Each appended event (an `id` the order does not show) of type `shipped` records a fulfillment of
 * its `line_items` (all units left when it names none) with its carrier, tracking number and URL;
 * the platform hears it as every other change (order webhooks). Nothing else of the body is read:
 * the order's facts are the business's. An appended event of another type, or an appended
 * adjustment (a refund is money: the business's), is 400 `invalid_request` naming its path, and
 * nothing is recorded.
 */
import type { CreateFulfillmentRequest } from '../../contract/types.js';
import { UcpError } from '../ucp-error.js';

type Json = Record<string, unknown>;

interface EventBody {
  id?: unknown;
  type?: unknown;
  line_items?: { id?: unknown; quantity?: unknown }[];
  carrier?: unknown;
  tracking_number?: unknown;
  tracking_url?: unknown;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

function refuse(path: string, content: string): never {
  throw new UcpError('invalid_request', `${path}: ${content}`, 400, {}, { path });
}

/** `li_3` → line 3. */
function lineOf(id: unknown, path: string): number {
  const match = typeof id === 'string' ? /^li_([1-9]\d{0,2})$/.exec(id) : null;
  if (!match) refuse(path, 'names no line item of this order (li_<n>)');
  return Number(match[1]);
}

function fulfillmentOf(event: EventBody, path: string): CreateFulfillmentRequest {
  if (event.type !== 'shipped') refuse(`${path}.type`, `only "shipped" events can be appended here, not ${JSON.stringify(event.type)}`);
  const lines = Array.isArray(event.line_items) && event.line_items.length
    ? event.line_items.map((line, i) => {
        const quantity = line?.quantity;
        if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) refuse(`${path}.line_items[${i}].quantity`, 'must be a positive integer');
        return { line: lineOf(line.id, `${path}.line_items[${i}].id`), quantity };
      })
    : undefined;
  const carrier = text(event.carrier);
  const trackingNumber = text(event.tracking_number);
  const trackingUrl = text(event.tracking_url);
  return {
    ...(carrier ? { carrier: carrier.slice(0, 100) } : {}),
    ...(trackingNumber ? { tracking_number: trackingNumber.slice(0, 200) } : {}),
    ...(trackingUrl ? { tracking_url: trackingUrl } : {}),
    ...(lines ? { lines } : {}),
  };
}

/** The fulfillments a PUT body appends to `current` (the order as shown now), in order; throws UcpError. */
export function appendedFulfillments(current: Json, body: unknown): CreateFulfillmentRequest[] {
  if (!isObject(body)) refuse('$', 'the request body must be the order, a JSON object');
  const known = (key: string, list: unknown) => new Set((Array.isArray(list) ? list : []).map((entry) => (isObject(entry) ? entry[key] : undefined)));
  const adjustments = known('id', current.adjustments);
  (Array.isArray(body.adjustments) ? body.adjustments : []).forEach((adjustment, i) => {
    if (!isObject(adjustment) || !adjustments.has(adjustment.id)) refuse(`$.adjustments[${i}]`, 'adjustments (refunds, returns, cancellations) are recorded by the business, not appended by a platform');
  });
  const events = known('id', (current.fulfillment as Json | undefined)?.events);
  const sent = (body.fulfillment as Json | undefined)?.events;
  if (sent !== undefined && !Array.isArray(sent)) refuse('$.fulfillment.events', 'must be an array');
  return ((sent ?? []) as unknown[]).flatMap((event, i) => {
    if (!isObject(event)) refuse(`$.fulfillment.events[${i}]`, 'must be an object');
    return events.has(event.id) ? [] : [fulfillmentOf(event as EventBody, `$.fulfillment.events[${i}]`)];
  });
}
