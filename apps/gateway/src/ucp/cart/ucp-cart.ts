/**
 * UCP 2026-04-08's cart (cart.md, cart-rest.md): create, get, update (full replacement), cancel —
 * over the one checkout domain. Knows nothing of Express.
 *
 * Storage — decision: a cart is a checkout session row (no new table, no migration), its
 * `protocol_state` `{ protocol: "ucp", kind: "cart", version: "2026-04-08", item_ids, context?,
 * buyer?, checkout_id? }` (cart-state.ts). Why: a cart is what a session is before payment — lines
 * resolved and priced by the same domain (CheckoutService.open/change: catalog prices, never the
 * platform's; the merchant's promotions as the discount estimate), merchant-scoped reads and
 * row-locked writes, idempotent answers stored in the same transaction. A cart never completes
 * (it holds no payment); cancel closes the row. Costs, for the other profiles to respect: the row is
 * also reachable by its session id (`cs_…`) through our own API and ACP — the UCP ids differ
 * (`cart_…`, cart-state.ts), and UCP checkout must refuse a row whose state is `kind: "cart"`; and a
 * cart holds at least one line (the domain's rule: an empty cart is refused; cancel empties it).
 *
 * Outcomes (cart-rest.md): a cart that does not exist, is another merchant's, was canceled, or is
 * not a cart is the 200 error envelope `not_found` (severity unrecoverable); an item id we do not
 * sell is the 200 error envelope `item_unavailable` naming the line (nothing is created or changed);
 * a malformed body is a 400 `invalid_request`.
 */
import type { CheckoutService } from '../../checkout/checkout-service.js';
import type { SessionRecord } from '../../checkout/session-record.js';
import type { LineItemInput } from '../../contract/types.js';
import type { BeforeCommit } from '../../db/transaction.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../../kernel/errors.js';
import type { UcpMessage } from '../catalog/ucp-product.js';
import { ucpPath } from '../checkout/checkout-refusals.js';
import { ucpRefusal } from '../refusals.js';
import { UcpError } from '../ucp-error.js';
import { cartMeta, toUcpCart } from './cart-mapper.js';
import { checkCartRequest, type CartRequest } from './cart-request.js';
import { CART_VERSION, cartIdOf, cartStateOf, sessionIdOf, type UcpCartState } from './cart-state.js';

export type CartAnswer = Record<string, unknown>;

/** An answer and its HTTP status: 201 for a created cart, 200 for everything else (error envelopes included). */
export interface CartOutcome {
  status: number;
  body: CartAnswer;
}

/** What a checkout made from a cart starts from (cart.md "Cart-to-Checkout Conversion"). */
export interface CartContents {
  cartId: string;
  /** The cart's lines as UCP line item inputs (`item.id` as the platform sent it). */
  lines: { item: { id: string }; quantity: number }[];
  /** The same lines as the domain's inputs, resolved as checkout resolves them (CheckoutService.open/change take them). */
  items: LineItemInput[];
  currency: string;
  context?: Record<string, unknown>;
  buyer?: Record<string, unknown>;
  /** The checkout already made from this cart (linkCheckout), if any. */
  checkoutId?: string;
}

export interface UcpCartDeps {
  checkout: CheckoutService;
  /** STOREFRONT_URL (may hold `{merchant_id}`): `continue_url` is `<storefront>/carts/<cart id>`; none without it. */
  storefrontUrl?: string | undefined;
}

interface OpenCart {
  sessionId: string;
  record: SessionRecord;
  state: UcpCartState;
}

export class UcpCart {
  constructor(private readonly deps: UcpCartDeps) {}

  async create(merchantId: string, body: unknown, store?: BeforeCommit<CartAnswer>): Promise<CartOutcome> {
    const request = checkCartRequest(body, 'create');
    const state: UcpCartState = { protocol: 'ucp', kind: 'cart', version: CART_VERSION, item_ids: request.line_items.map((line) => line.item.id), ...echoed(request) };
    return this.pricing(merchantId, request, async (items) => {
      const record = await this.deps.checkout.open(merchantId, { items, protocolState: { ...state } }, this.storing(merchantId, state, store));
      return { status: 201, body: this.view(merchantId, record, state) };
    });
  }

  async get(merchantId: string, cartId: string): Promise<CartOutcome> {
    const cart = await this.find(merchantId, cartId);
    if (!cart) return this.notFound(merchantId, cartId);
    return { status: 200, body: this.view(merchantId, cart.record, cart.state) };
  }

  /** Full replacement (cart.md "Update Cart"): the lines, context and buyer sent become the cart's. */
  async update(merchantId: string, cartId: string, body: unknown, store?: BeforeCommit<CartAnswer>): Promise<CartOutcome> {
    const request = checkCartRequest(body, 'update');
    if (request.id !== cartId) throw new UcpError('invalid_request', `$.id is ${JSON.stringify((request.id ?? "").slice(0, 64))}, not the id of the cart updated (${cartId})`, 400);
    const cart = await this.find(merchantId, cartId);
    if (!cart) return this.notFound(merchantId, cartId);
    const next = (current: unknown): UcpCartState => {
      const state = cartStateOf(current);
      if (!state) throw new NotFoundError(`No cart ${cartId}`, 'session_id');
      const { context: _context, buyer: _buyer, ...kept } = state;
      return { ...kept, item_ids: request.line_items.map((line) => line.item.id), ...echoed(request) };
    };
    return this.pricing(merchantId, request, async (items) => {
      let written: UcpCartState | undefined;
      const storing: BeforeCommit<SessionRecord> | undefined = store && ((tx, record) => store(tx, this.view(merchantId, record, written!)));
      const record = await this.deps.checkout.change(merchantId, cart.sessionId, { items, protocolState: (current) => ({ ...(written = next(current)) }) }, storing);
      return { status: 200, body: this.view(merchantId, record, written ?? next(record.session.protocolState)) };
    }).catch((error: unknown) => (gone(error) ? this.notFound(merchantId, cartId) : Promise.reject(error)));
  }

  /** Answers the cart as it was, then it is gone (cart-rest.md "Cancel Cart"). */
  async cancel(merchantId: string, cartId: string, store?: BeforeCommit<CartAnswer>): Promise<CartOutcome> {
    const cart = await this.find(merchantId, cartId);
    if (!cart) return this.notFound(merchantId, cartId);
    try {
      const before = this.view(merchantId, cart.record, cart.state);
      await this.deps.checkout.close(merchantId, cart.sessionId, store && ((tx) => store(tx, before)));
      return { status: 200, body: before };
    } catch (error) {
      if (gone(error)) return this.notFound(merchantId, cartId);
      throw error;
    }
  }

  /**
   * The contents of an open cart of the merchant, for a checkout made from it (`cart_id` on
   * create_checkout); undefined when there is no such cart (unknown, another merchant's, canceled).
   */
  async cartLines(merchantId: string, cartId: string): Promise<CartContents | undefined> {
    const cart = await this.find(merchantId, cartId);
    if (!cart) return undefined;
    const lines = [...cart.record.session.lineItems].sort((a, b) => a.position - b.position);
    const { state } = cart;
    return {
      cartId,
      lines: lines.map((line, i) => ({ item: { id: state.item_ids[i] ?? line.variantSku }, quantity: line.quantity })),
      items: lines.map((line) => ({ product_id: line.productId, variant_sku: line.variantSku, quantity: line.quantity })),
      currency: cart.record.session.currency,
      ...(state.context ? { context: state.context } : {}),
      ...(state.buyer ? { buyer: state.buyer } : {}),
      ...(state.checkout_id ? { checkoutId: state.checkout_id } : {}),
    };
  }

  /** Remembers the checkout made from a cart (so that a second create_checkout with the same cart_id can return it); NotFoundError/InvalidStateError when the cart is gone. */
  async linkCheckout(merchantId: string, cartId: string, checkoutId: string): Promise<void> {
    const sessionId = sessionIdOf(cartId);
    if (!sessionId) throw new NotFoundError(`No cart ${JSON.stringify(cartId)}`, 'cart_id');
    await this.deps.checkout.updateProtocolState(merchantId, sessionId, (current) => {
      const state = cartStateOf(current);
      if (!state) throw new NotFoundError(`No cart ${JSON.stringify(cartId)}`, 'cart_id');
      return { ...state, checkout_id: checkoutId };
    });
  }

  // ── shared ───────────────────────────────────────────────────────────────

  private async find(merchantId: string, cartId: string): Promise<OpenCart | undefined> {
    const sessionId = sessionIdOf(cartId);
    if (!sessionId) return undefined;
    let record: SessionRecord;
    try {
      record = await this.deps.checkout.record(merchantId, sessionId);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
    const state = cartStateOf(record.session.protocolState);
    return state && record.session.status === 'open' ? { sessionId, record, state } : undefined;
  }

  /** Resolves the lines as checkout does and runs `write`; an item we do not sell is the error envelope naming its line. */
  private async pricing(merchantId: string, request: CartRequest, write: (items: LineItemInput[]) => Promise<CartOutcome>): Promise<CartOutcome> {
    const ids = request.line_items.map((line) => line.item.id);
    const unusable = ids.findIndex((id) => id.includes('\u0000'));
    if (unusable >= 0) return this.unavailable(merchantId, unusable, ids[unusable]!);
    const resolved = await this.deps.checkout.itemsByIds(merchantId, ids);
    const items = resolved.map((item, i) => ({ ...item, quantity: request.line_items[i]!.quantity }));
    try {
      return await write(items);
    } catch (error) {
      const line = error instanceof NotFoundError ? /^items\[(\d+)\]/.exec(error.param ?? '') : null;
      if (line) return this.unavailable(merchantId, Number(line[1]), ids[Number(line[1])]!);
      if (error instanceof InvalidRequestError) throw ucpRefusal(error, { pathOf: (param) => ucpPath(param) });
      throw error;
    }
  }

  private storing(merchantId: string, state: UcpCartState, store: BeforeCommit<CartAnswer> | undefined): BeforeCommit<SessionRecord> | undefined {
    return store && ((tx, record) => store(tx, this.view(merchantId, record, state)));
  }

  private view(merchantId: string, record: SessionRecord, state: UcpCartState): CartAnswer {
    const base = this.storefront(merchantId);
    return toUcpCart(record, state, { continueUrl: base && `${base}/carts/${encodeURIComponent(cartIdOf(record.session.id))}` });
  }

  private storefront(merchantId: string): string | undefined {
    return this.deps.storefrontUrl?.replaceAll('{merchant_id}', encodeURIComponent(merchantId).toLowerCase()).replace(/\/+$/, '');
  }

  private errorEnvelope(merchantId: string, message: UcpMessage): CartOutcome {
    const base = this.storefront(merchantId);
    return { status: 200, body: { ucp: cartMeta('error'), messages: [message], ...(base ? { continue_url: `${base}/` } : {}) } };
  }

  private notFound(merchantId: string, cartId: string): CartOutcome {
    return this.errorEnvelope(merchantId, { type: 'error', code: 'not_found', content: `Cart ${cartId.slice(0, 80)} not found or no longer open`, severity: 'unrecoverable' });
  }

  private unavailable(merchantId: string, index: number, itemId: string): CartOutcome {
    return this.errorEnvelope(merchantId, {
      type: 'error',
      code: 'item_unavailable',
      path: `$.line_items[${index}].item.id`,
      content: `No item ${JSON.stringify(itemId.slice(0, 80))} is sold here; use a variant id from the catalog (search_catalog, lookup_catalog)`,
      severity: 'recoverable',
    });
  }
}

/** The context and buyer a request sends, as the cart keeps them. */
function echoed(request: CartRequest): Pick<UcpCartState, 'context' | 'buyer'> {
  return { ...(request.context ? { context: request.context } : {}), ...(request.buyer ? { buyer: request.buyer } : {}) };
}

/** The cart stopped being an open cart between the read and the write (canceled, or not a cart). */
function gone(error: unknown): boolean {
  return error instanceof InvalidStateError || (error instanceof NotFoundError && error.param === 'session_id');
}
