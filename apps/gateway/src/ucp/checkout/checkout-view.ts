/**
 * A checkout session as UCP shows it (checkout.md, fulfillment.md, discount.md, buyer-consent.md),
 * in the shape of the release it was created at. Amounts are integer minor units. Everything is
 * read from the domain's session — prices, totals, options, stock and readiness (sessionNeeds) —
 * and from the UCP state kept with it (ucp-state.ts); nothing is derived twice.
 *
 * - Lines: `li_<n>`, each item under the id the platform named it by, with our title and price.
 * - Totals: subtotal, items_discount (codes and promotions on items), fulfillment (the option's
 *   price before a free-shipping promotion), discount (that promotion), tax, total; discounts with
 *   the release's sign (2026-04-08 negative, its schema's sign rule; 2026-01-11 positive, its
 *   schema forbids negative amounts).
 * - Status: `incomplete` while the session needs something (an error message each, recoverable, with
 *   its JSONPath — an incomplete destination one per missing field), else `ready_for_complete`;
 *   `completed`, `canceled` as the domain says, without messages. A declined payment stays a
 *   `payment_failed` error until the next change.
 * - Payment: `instruments` always (empty before completion), since clients iterate it; the rest
 *   as the release words it (2026-01-11 keeps the handlers there, 2026-04-08 in the envelope).
 * - Fulfillment: one `shipping` method for the lines that ship; its destinations are those the
 *   platform gave and the buyer's saved addresses (a buyer known by email: the reference
 *   business's behaviour, and what the issue asks); one group with the destination's options.
 */
import { sessionNeeds, type SessionNeed } from '../../checkout/session-needs.js';
import type { SessionRecord } from '../../checkout/session-record.js';
import type { Session } from '../../checkout/session.js';
import type { PaymentHandlerDeclaration } from '../../payments/payment-provider.js';
import type { Release } from '../releases/release.js';
import { releaseOf } from '../releases/releases.js';
import { toUcpAddress } from './address.js';
import { discountMessages, shippingDiscount, toUcpDiscounts } from './discounts.js';
import { ucpStateOf, type UcpState } from './ucp-state.js';

export const DISCOUNT = 'dev.ucp.shopping.discount';
export const FULFILLMENT = 'dev.ucp.shopping.fulfillment';

/** The one fulfillment method and group we offer (a cart ships in one parcel, with one option). */
export const METHOD_ID = 'shipping_1';
export const GROUP_ID = 'group_1';
export const DESTINATION_PATH = '$.fulfillment.methods[0].selected_destination_id';
export const OPTION_PATH = '$.fulfillment.methods[0].groups[0].selected_option_id';

/** The business's pages an answer links to (storefront/storefront-urls.ts), and whether the test handler is offered. */
export interface CheckoutViewContext {
  testHandler: boolean;
  orderUrl(merchantId: string, orderId: string): string;
  continueUrl(merchantId: string, sessionId: string): string;
  links(merchantId: string): { type: string; url: string; title?: string }[];
}

type Json = Record<string, unknown>;

const n = (amount: bigint): number => Number(amount);
export const lineId = (index: number): string => `li_${index + 1}`;

/** A discount's effect on a total, with the release's sign. */
const off = (release: Release, amount: bigint): number => release.reduction(n(amount));

/** The domain's address fields as UCP's postal address names them. */
const UCP_ADDRESS_FIELD: Record<string, string> = { line1: 'street_address', city: 'address_locality', state: 'address_region', postal_code: 'postal_code', country: 'address_country', name: 'full_name' };

/**
 * The destination's missing fields, each at its JSONPath (`…destinations[0].street_address`), when
 * a destination is chosen but incomplete (a country alone prices shipping, it does not ship);
 * without one chosen, the choice itself is what is missing.
 */
function addressMessages(missing: readonly string[], record: SessionRecord, state: UcpState): Json[] {
  const chosen = record.session.shippingAddress ? (state.destinations ?? []).findIndex((destination) => destination.id === state.selected_destination_id) : -1;
  if (chosen < 0) return [needMessage({ kind: 'shipping_address', missing: [...missing] })];
  return missing.map((field) => {
    const name = UCP_ADDRESS_FIELD[field] ?? field;
    return { type: 'error', code: 'missing', path: `$.fulfillment.methods[0].destinations[${chosen}].${name}`, content: `The shipping destination needs ${name}: send it in fulfillment.methods[0].destinations[${chosen}]`, severity: 'recoverable' };
  });
}

function needMessage(need: SessionNeed): Json {
  const error = (code: string, path: string, content: string) => ({ type: 'error', code, path, content, severity: 'recoverable' });
  switch (need.kind) {
    case 'stock': {
      const { shortage } = need;
      const content = shortage.available === null ? `Item ${shortage.sku} is no longer sold; remove it from line_items` : `Only ${shortage.available} of item ${shortage.sku} left; ${shortage.requested} requested`;
      return error('out_of_stock', `$.line_items[${shortage.lines[0]!}]`, content);
    }
    case 'shipping_address':
      return error('missing', DESTINATION_PATH, 'A shipping destination is needed: send fulfillment.methods[0].destinations and selected_destination_id');
    case 'shipping_unavailable': {
      const where = need.region ? `${need.country}-${need.region}` : need.country;
      return error('address_undeliverable', DESTINATION_PATH, `The business does not ship to ${where}; choose another destination`);
    }
    case 'fulfillment_option':
      return error('missing', OPTION_PATH, `Choose a fulfillment option (${need.offered.join(', ')}) in fulfillment.methods[0].groups[0].selected_option_id`);
  }
}

function statusAndMessages(record: SessionRecord, state: UcpState): { status: string; messages: Json[] } {
  const { session } = record;
  const warnings = state.capabilities.includes(DISCOUNT) ? discountMessages(session) : [];
  if (session.status === 'completed') return { status: 'completed', messages: [] };
  if (session.status === 'canceled') return { status: 'canceled', messages: [] }; // the status says it all (finished-checkout.ts)
  // A cart that ships nothing is offered digital delivery only, which completion chooses by itself.
  const digitalOnly = record.fulfillmentOptions.every((option) => option.type === 'digital');
  const errors = sessionNeeds(record)
    .filter((need) => !(need.kind === 'fulfillment_option' && digitalOnly))
    .flatMap((need) => (need.kind === 'shipping_address' ? addressMessages(need.missing, record, state) : [needMessage(need)]));
  if (!session.customer?.email) errors.push({ type: 'error', code: 'missing', path: '$.buyer.email', content: "The buyer's email is needed: send buyer.email", severity: 'recoverable' });
  const problem = state.payment_problem;
  // 3-D Secure is for the buyer at continue_url (an escalation); a decline, the platform recovers from.
  const escalated = problem?.code === 'requires_3ds';
  const payment = problem ? [{ type: 'error', code: problem.code, path: '$.payment', content: problem.content, severity: escalated ? 'requires_buyer_input' : 'recoverable' }] : [];
  const status = errors.length ? 'incomplete' : escalated ? 'requires_escalation' : 'ready_for_complete';
  return { status, messages: [...errors, ...payment, ...warnings] };
}

function lineItems(session: Session, state: UcpState, release: Release): Json[] {
  return session.lineItems.map((line, index) => ({
    id: lineId(index),
    item: { id: state.item_ids[index] ?? line.variantSku, title: line.title, price: n(line.unitAmount) },
    quantity: line.quantity,
    totals: [
      { type: 'subtotal', amount: n(line.subtotal) },
      ...(line.discount > 0n ? [{ type: 'items_discount', amount: off(release, line.discount) }] : []),
      { type: 'total', amount: n(line.subtotal - line.discount) },
    ],
  }));
}

function totals(session: Session, release: Release): Json[] {
  const ships = session.lineItems.some((line) => line.requiresShipping) && session.shippingMethod !== 'pending';
  const freeShipping = shippingDiscount(session);
  return [
    { type: 'subtotal', amount: n(session.subtotal) },
    ...(session.discountAmount > 0n ? [{ type: 'items_discount', display_text: 'Discounts', amount: off(release, session.discountAmount) }] : []),
    ...(ships ? [{ type: 'fulfillment', display_text: 'Shipping', amount: n(session.shippingAmount + freeShipping) }] : []),
    ...(freeShipping > 0n ? [{ type: 'discount', display_text: 'Free shipping', amount: off(release, freeShipping) }] : []),
    { type: 'tax', amount: n(session.taxAmount) },
    { type: 'total', amount: n(session.total) },
  ];
}

function fulfillment(record: SessionRecord, state: UcpState): Json | undefined {
  const { session } = record;
  const shipping = session.lineItems.flatMap((line, index) => (line.requiresShipping ? [lineId(index)] : []));
  if (!shipping.length) return undefined;
  const destinations = [...(state.destinations ?? [])];
  for (const saved of session.savedAddresses ?? []) {
    if (!destinations.some((destination) => destination.id === saved.id)) destinations.push({ id: saved.id, ...toUcpAddress(saved.address) });
  }
  const selected = session.shippingAddressId ?? (session.shippingAddress ? state.selected_destination_id : undefined);
  const options = record.fulfillmentOptions.filter((option) => option.type === 'shipping');
  return {
    methods: [
      {
        id: METHOD_ID,
        type: 'shipping',
        line_item_ids: shipping,
        destinations,
        selected_destination_id: selected ?? null,
        ...(session.shippingAddress
          ? {
              groups: [
                {
                  id: GROUP_ID,
                  line_item_ids: shipping,
                  options: options.map((option) => ({ id: option.id, title: option.title, description: option.description, totals: [{ type: 'total', amount: n(option.amount) }] })),
                  selected_option_id: session.fulfillmentOptionId,
                },
              ],
            }
          : {}),
      },
    ],
  };
}

function buyer(session: Session, state: UcpState): Json | undefined {
  if (!session.customer && !state.buyer) return undefined;
  const email = session.customer?.email;
  return { ...(state.buyer ?? {}), ...(email ? { email } : {}) };
}

/** `handlers`: the payment provider's handlers for the session's merchant (none without an account). */
export function toUcpCheckout(record: SessionRecord, context: CheckoutViewContext, handlers: readonly PaymentHandlerDeclaration[] = []): Json {
  const { session } = record;
  const state = ucpStateOf(session.protocolState);
  const release = releaseOf(state.version);
  const offered = { testHandler: context.testHandler, provider: handlers };
  const { status, messages } = statusAndMessages(record, state);
  const shownBuyer = buyer(session, state);
  const shownFulfillment = fulfillment(record, state);
  const open = session.status === 'open';
  return {
    ucp: release.envelope(state.capabilities, offered),
    id: session.id,
    status,
    currency: session.currency.toUpperCase(),
    line_items: lineItems(session, state, release),
    ...(shownBuyer ? { buyer: shownBuyer } : {}),
    totals: totals(session, release),
    ...(messages.length ? { messages } : {}),
    links: context.links(session.merchantId),
    ...(open ? { continue_url: context.continueUrl(session.merchantId, session.id) } : {}),
    ...(shownFulfillment ? { fulfillment: shownFulfillment } : {}),
    ...(state.capabilities.includes(DISCOUNT) || session.discountCodes.length ? { discounts: toUcpDiscounts(session) } : {}),
    // `instruments` is always there, empty until a completion pays: clients iterate it.
    payment: release.checkout.payment(state.instrument, offered),
    ...(session.order ? { order: { id: session.order.id, permalink_url: context.orderUrl(session.merchantId, session.order.id) } } : {}),
  };
}
