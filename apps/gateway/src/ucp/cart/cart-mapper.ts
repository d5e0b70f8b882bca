/**
 * A cart's session (SessionRecord) as UCP 2026-04-08's cart (cart.json): line items priced by us in
 * minor units — title and unit price from our catalog, never the platform's — each with its
 * totals; cart totals as estimates (cart.md "Total"): the subtotal, the promotions the cart already
 * earns (`items_discount`, negative), and the total of those two — shipping and tax are left to
 * checkout, which knows the address. A line the stock cannot fill right now is a warning
 * `out_of_stock` naming the line (a cart holds no stock; checkout decides).
 */
import type { SessionRecord } from '../../checkout/session-record.js';
import type { UcpMessage } from '../catalog/ucp-product.js';
import { CAPABILITY } from '../capabilities.js';
import { releaseOf } from '../releases/releases.js';
import { CART_VERSION, cartIdOf, type UcpCartState } from './cart-state.js';

export const CART_CAPABILITY = CAPABILITY.cart;

/** The `ucp` envelope of a cart answer (ucp.json#/$defs/response_cart_schema). */
export function cartMeta(status?: 'error'): Record<string, unknown> {
  return { ...releaseOf(CART_VERSION).envelope([CART_CAPABILITY]), ...(status ? { status } : {}) };
}

type Total = { type: string; amount: number; display_text?: string };

const amount = (minor: bigint): number => Number(minor);

export interface CartView {
  /** The cart's page on the merchant's storefront (cart handoff and recovery); none without a storefront. */
  continueUrl?: string | undefined;
}

export function toUcpCart(record: SessionRecord, state: UcpCartState, view: CartView = {}): Record<string, unknown> {
  const { session } = record;
  const lines = [...session.lineItems].sort((a, b) => a.position - b.position);
  const short = record.shortages.flatMap((shortage) => shortage.lines.map((i) => ({ i, shortage }))).sort((a, b) => a.i - b.i);
  const messages: UcpMessage[] = short.map(({ i, shortage }): UcpMessage => ({
      type: 'warning',
      code: 'out_of_stock',
      path: `$.line_items[${i}]`,
      content:
        shortage.available === null
          ? `${lines[i]?.title ?? shortage.sku} is no longer sold`
          : `Only ${shortage.available} of ${lines[i]?.title ?? shortage.sku} (${shortage.sku}) in stock; the cart asks ${shortage.requested}`,
  }));
  const discount = session.discountAmount;
  const totals: Total[] = [
    { type: 'subtotal', display_text: 'Subtotal', amount: amount(session.subtotal) },
    ...(discount > 0n ? [{ type: 'items_discount', display_text: 'Discounts', amount: -amount(discount) }] : []),
    { type: 'total', display_text: 'Estimated total (shipping and taxes calculated at checkout)', amount: amount(session.subtotal - discount) },
  ];
  return {
    ucp: cartMeta(),
    id: cartIdOf(session.id),
    line_items: lines.map((line, i) => ({
      id: `li_${i + 1}`,
      item: { id: state.item_ids[i] ?? line.variantSku, title: line.title, price: amount(line.unitAmount) },
      quantity: line.quantity,
      totals: [
        { type: 'subtotal', amount: amount(line.subtotal) },
        ...(line.discount > 0n ? [{ type: 'items_discount', amount: -amount(line.discount) }] : []),
        { type: 'total', amount: amount(line.subtotal - line.discount) },
      ],
    })),
    ...(state.context ? { context: state.context } : {}),
    ...(state.buyer ? { buyer: state.buyer } : {}),
    currency: session.currency.toUpperCase(),
    totals,
    ...(messages.length ? { messages } : {}),
    ...(view.continueUrl ? { continue_url: view.continueUrl } : {}),
  };
}
