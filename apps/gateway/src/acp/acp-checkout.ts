/**
 * The ACP profile of checkout: ACP requests in, ACP sessions out, over the one checkout domain
 * (CheckoutService — same pricing, inventory rule, orders, outbox). Knows nothing of Express.
 * Every answer is built inside the domain's transaction, so an idempotent response can be
 * stored with the change (`beforeCommit`).
 */
import type { CheckoutService } from '../checkout/checkout-service.js';
import { AuthenticationRequiredError } from '../payments/payment-errors.js';
import type { SessionChanges, SessionRecord } from '../checkout/session-record.js';
import type { BeforeCommit } from '../db/transaction.js';
import { loadContract } from '../contract/document.js';
import { GatewayError } from '../kernel/errors.js';
import { AcpError } from './acp-error.js';
import { negotiateExtensions, negotiateInterventions } from './capabilities.js';
import { toAcpError } from './domain-errors.js';
import { ourMaxLength } from './request-schema.js';
import { toDomainAddress } from './wire/address-mapper.js';
import { acpStateOf, type AcpState } from './wire/acp-state.js';
import type { AcpBuyer, AcpCompleteRequest, AcpCreateRequest, AcpFulfillmentDetails, AcpSelectedFulfillmentOption, AcpUpdateRequest } from './wire/acp-types.js';
import { groupEntries, lineEntries, type GroupedLines, type LineEntries } from './wire/line-entries.js';
import { DISCOUNT_EXTENSION, requestedCodes } from './wire/discounts.js';
import { cartItemIds, toAcpSession } from './wire/session-mapper.js';
import { orderPermalink, type PermalinkSettings } from '../storefront/order-permalink.js';

/** A session as ACP shows it: the official CheckoutSession, with its order once completed. */
export type AcpSession = ReturnType<typeof toAcpSession>;

/** Where the orders' permalinks point (see storefront/order-permalink.ts). */
export type AcpCheckoutOptions = PermalinkSettings;

/** Who a call acts for. */
export interface AcpScope {
  merchantId: string;
}

const NAME_MAX = ourMaxLength(loadContract(), 'Customer.name');

/** The buyer as the domain's customer; first and last names make its name, which must fit our own contract's. */
function customerOf(buyer: AcpBuyer) {
  const name = buyer.full_name ?? ([buyer.first_name, buyer.last_name].filter(Boolean).join(' ') || undefined);
  if (name && name.length > NAME_MAX) {
    throw new AcpError(400, 'invalid_request', 'invalid', `$.buyer.first_name and $.buyer.last_name make a name longer than ${NAME_MAX} characters`, '$.buyer');
  }
  return { email: buyer.email, ...(name ? { name } : {}), ...(buyer.phone_number ? { phone: buyer.phone_number } : {}) };
}

/**
 * The fulfillment contact as the buyer, for an agent that names the buyer only there
 * (`fulfillment_details` {name, email, phone_number}): the session's customer is then the contact,
 * so that the buyer is remembered, per-customer discount limits count its uses and erasure finds it
 * — as for a `buyer`. A `buyer` given (now or before) wins: the contact is then only shipping's.
 */
function contactAsCustomer(details: AcpFulfillmentDetails | undefined) {
  if (!details?.email) return undefined;
  // A contact's name longer than a customer's may be is the recipient's alone (kept in fulfillment_details).
  const name = details.name && details.name.length <= NAME_MAX ? details.name : undefined;
  return customerOf({ email: details.email, ...(name ? { full_name: name } : {}), ...(details.phone_number ? { phone_number: details.phone_number } : {}) });
}

export class AcpCheckout {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly options: AcpCheckoutOptions,
  ) {}

  /** The session as ACP shows it. */
  async view(scope: AcpScope, record: SessionRecord): Promise<AcpSession> {
    return toAcpSession(record, {
      handlers: await this.checkout.payments.handlers(scope.merchantId),
      orderUrl: (orderId) => orderPermalink(this.options, scope.merchantId, orderId),
    });
  }

  async create(scope: AcpScope, request: AcpCreateRequest, store?: BeforeCommit<AcpSession>): Promise<AcpSession> {
    const { merchantId } = scope;
    const lines = lineEntries(request);
    if (!lines) throw new AcpError(400, 'invalid_request', 'invalid', '$.line_items is required (or items, its name in the RFC)', '$.line_items');
    const customer = request.buyer ? customerOf(request.buyer) : contactAsCustomer(request.fulfillment_details);
    const cart = await this.cart(merchantId, lines);
    const codes = requestedCodes(request);
    const extensions = withDiscounts(negotiateExtensions(request.capabilities), request.discounts !== undefined);
    const state: AcpState = {
      protocol: 'acp',
      item_ids: cart.ids,
      interventions: negotiateInterventions(request.capabilities, this.checkout.payments.interventions),
      ...(extensions.length ? { extensions } : {}),
      ...(request.buyer ? { buyer: request.buyer } : {}),
      ...(request.fulfillment_details ? { fulfillment_details: request.fulfillment_details } : {}),
    };
    const changes: SessionChanges = {
      items: cart.items,
      currency: request.currency,
      protocolState: { ...state },
      ...(codes !== undefined ? { discountCodes: codes } : {}),
      ...(request.fulfillment_details?.address ? { shippingAddress: toDomainAddress(request.fulfillment_details.address) } : {}),
      ...(customer ? { customer } : {}),
    };
    return this.view(scope, await guard(cart, () => this.checkout.open(merchantId, changes, this.storing(scope, store))));
  }

  async get(scope: AcpScope, id: string): Promise<AcpSession> {
    const { merchantId } = scope;
    return this.view(scope, await guard(undefined, () => this.checkout.record(merchantId, id)));
  }

  async update(scope: AcpScope, id: string, request: AcpUpdateRequest, store?: BeforeCommit<AcpSession>): Promise<AcpSession> {
    const { merchantId } = scope;
    const lines = lineEntries(request);
    const customer = request.buyer ? customerOf(request.buyer) : await this.contactUnlessBuyer(merchantId, id, request.fulfillment_details);
    const cart = lines ? await this.cart(merchantId, lines) : undefined;
    if (request.selected_fulfillment_options) await this.checkSelectedItems(merchantId, id, request.selected_fulfillment_options, cart);
    const codes = requestedCodes(request);
    // Any change settles a past payment problem; the rest of the state is the locked row's. An agent
    // that sends `discounts` understands the discount extension: it is active from then on.
    const next = (current: unknown): AcpState => {
      const { payment_problem: _settled, ...kept } = acpStateOf(current);
      const extensions = withDiscounts(kept.extensions ?? [], request.discounts !== undefined);
      return {
        ...kept,
        ...(extensions.length ? { extensions } : {}),
        ...(cart ? { item_ids: cart.ids } : {}),
        ...(request.buyer ? { buyer: request.buyer } : {}),
        ...(request.fulfillment_details ? { fulfillment_details: request.fulfillment_details } : {}),
      };
    };
    const changes: SessionChanges = {
      ...(cart ? { items: cart.items } : {}),
      protocolState: (current) => ({ ...next(current) }),
      ...(request.fulfillment_details?.address ? { shippingAddress: toDomainAddress(request.fulfillment_details.address) } : {}),
      ...(customer ? { customer } : {}),
      ...(request.selected_fulfillment_options ? { fulfillmentOptionId: this.chosenOptionId(request) } : {}),
      ...(codes !== undefined ? { discountCodes: codes } : {}),
    };
    return this.view(scope, await guard(cart, () => this.checkout.change(merchantId, id, changes, this.storing(scope, store))));
  }

  async complete(scope: AcpScope, id: string, request: AcpCompleteRequest, store?: BeforeCommit<AcpSession>): Promise<AcpSession> {
    const { merchantId } = scope;
    const { handler_id: handlerId, instrument } = request.payment_data;
    if (!handlerId || !instrument) {
      throw new AcpError(400, 'invalid_request', 'unsupported', 'Pay with payment_data.handler_id and payment_data.instrument; purchase orders are not supported', '$.payment_data');
    }
    const record = await guard(undefined, () => this.checkout.record(merchantId, id));
    const state = acpStateOf(record.session.protocolState);
    if (record.session.status === 'open' && state.payment_problem?.code === 'requires_3ds' && !request.authentication_result) {
      throw new AcpError(400, 'invalid_request', 'requires_3ds', "This checkout session requires issuer authentication. The request must include 'authentication_result'.", '$.authentication_result');
    }
    if (request.buyer && record.session.status === 'open') {
      const buyer = request.buyer;
      const customer = customerOf(buyer);
      await guard(undefined, () => this.checkout.change(merchantId, id, { customer, protocolState: (current) => ({ ...acpStateOf(current), buyer }) }));
    }
    const payment = { handlerId, instrument, ...(request.authentication_result ? { authentication: { outcome: request.authentication_result.outcome } } : {}) };
    try {
      return this.view(scope, await guard(undefined, () => this.checkout.pay(merchantId, id, payment, this.storing(scope, store))));
    } catch (error) {
      if (error instanceof AcpError && (error.code === 'payment_declined' || error.code === 'requires_3ds')) {
        const problem = error.code === 'requires_3ds' && error.cause instanceof AuthenticationRequiredError
          ? { code: 'requires_3ds' as const, message: 'Authenticate the buyer (3-D Secure) with authentication_metadata, then complete again with authentication_result', authentication_metadata: error.cause.metadata }
          : { code: 'payment_declined' as const, message: error.message };
        await this.checkout.updateProtocolState(merchantId, id, (current) => ({ ...acpStateOf(current), payment_problem: problem }));
      }
      throw error;
    }
  }

  async cancel(scope: AcpScope, id: string, store?: BeforeCommit<AcpSession>): Promise<AcpSession> {
    const { merchantId } = scope;
    return this.view(scope, await guard(undefined, () => this.checkout.close(merchantId, id, this.storing(scope, store))));
  }

  /** The fulfillment contact as the customer of a session that was given no `buyer`. */
  private async contactUnlessBuyer(merchantId: string, id: string, details: AcpFulfillmentDetails | undefined) {
    const contact = contactAsCustomer(details);
    if (!contact) return undefined;
    const record = await guard(undefined, () => this.checkout.record(merchantId, id));
    return acpStateOf(record.session.protocolState).buyer ? undefined : contact;
  }

  private storing(scope: AcpScope, store: BeforeCommit<AcpSession> | undefined): BeforeCommit<SessionRecord> | undefined {
    return store && (async (tx, record) => store(tx, await this.view(scope, record)));
  }

  private async cart(merchantId: string, lines: LineEntries) {
    const grouped = groupEntries(lines);
    const inputs = await this.checkout.itemsByIds(merchantId, grouped.ids);
    return { ...grouped, items: inputs.map((input, i) => ({ ...input, quantity: grouped.quantities[i]! })) };
  }

  /**
   * Every `item_ids` entry must name an item of the cart the update leaves — its item id as answers
   * show it (`line_items[].item.id`) or its line's id (`li_1`, the schema's "line item IDs"); `[]`
   * is the whole cart. Checked before anything changes; a finished session is left to answer 405.
   */
  private async checkSelectedItems(merchantId: string, id: string, selected: readonly AcpSelectedFulfillmentOption[], cart: GroupedLines | undefined): Promise<void> {
    let itemIds = cart?.ids;
    if (!itemIds) {
      const record = await guard(undefined, () => this.checkout.record(merchantId, id));
      if (record.session.status !== 'open') return;
      itemIds = cartItemIds(record);
    }
    const known = new Set([...itemIds, ...itemIds.map((_, i) => `li_${i + 1}`)]);
    selected.forEach((option, i) => {
      option.item_ids.forEach((itemId, j) => {
        if (known.has(itemId)) return;
        const param = `$.selected_fulfillment_options[${i}].item_ids[${j}]`;
        const cartIds = itemIds.length > 10 ? `${itemIds.slice(0, 10).join(', ')}, …` : itemIds.join(', ');
        throw new AcpError(400, 'invalid_request', 'invalid', `${param} is ${JSON.stringify(itemId.slice(0, 64))}, which is not an item of this session's cart (${cartIds})`, param);
      });
    });
  }

  /** One option fulfills the whole cart: every entry must name the same one. */
  private chosenOptionId(request: AcpUpdateRequest): string | null {
    const ids = [...new Set(request.selected_fulfillment_options!.map((option) => option.option_id))];
    if (ids.length > 1) {
      throw new AcpError(400, 'invalid_request', 'invalid', 'Every line ships with one fulfillment option here; select one option_id for all items', '$.selected_fulfillment_options');
    }
    return ids[0] ?? null;
  }
}

/** The active extensions, with `discount` added when the request sent the extension's `discounts`. */
function withDiscounts(extensions: readonly string[], sent: boolean): string[] {
  return sent && !extensions.includes(DISCOUNT_EXTENSION) ? [...extensions, DISCOUNT_EXTENSION] : [...extensions];
}

/** Runs a domain call; its errors become ACP errors (`lines`: the request's cart, to name a domain line by its entry). */
async function guard<T>(lines: GroupedLines | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GatewayError) throw toAcpError(error, lines?.firstIndex ?? [], lines?.field);
    throw error;
  }
}
