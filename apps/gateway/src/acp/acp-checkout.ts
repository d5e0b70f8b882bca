/**
 * The ACP profile of checkout: ACP requests in, ACP sessions out, over the one checkout domain
 * (CheckoutService — same pricing, inventory rule, orders, outbox). Knows nothing of Express.
 * Every answer is built inside the domain's transaction, so an idempotent response can be
 * stored with the change (`beforeCommit`).
 */
import type { CheckoutService } from '../checkout/checkout-service.js';
import { AuthenticationRequiredError } from '../checkout/payment/payment-errors.js';
import type { SessionChanges, SessionRecord } from '../checkout/session-record.js';
import type { BeforeCommit } from '../db/transaction.js';
import { GatewayError } from '../errors.js';
import { AcpError } from './acp-error.js';
import { negotiateInterventions } from './capabilities.js';
import { toAcpError } from './domain-errors.js';
import { toDomainAddress } from './wire/address-mapper.js';
import { acpStateOf, type AcpState } from './wire/acp-state.js';
import type { AcpBuyer, AcpCompleteRequest, AcpCreateRequest, AcpItem, AcpUpdateRequest } from './wire/acp-types.js';
import { toAcpSession } from './wire/session-mapper.js';
import { orderPermalink, type PermalinkSettings } from '../storefront/order-permalink.js';

export type AcpSession = Record<string, unknown>;

/** Where the orders' permalinks point (see storefront/order-permalink.ts). */
export type AcpCheckoutOptions = PermalinkSettings;

/** Who a call acts for, and the public origin the agent reached (for URLs in answers). */
export interface AcpScope {
  merchantId: string;
  origin: string;
}

/** The agent's items, one unit per entry: the same id again adds a unit to its line (the 2026-04-17 Item has no quantity). */
function groupItems(items: readonly AcpItem[]): { ids: string[]; quantities: number[]; firstIndex: number[] } {
  const at = new Map<string, number>();
  const ids: string[] = [];
  const quantities: number[] = [];
  const firstIndex: number[] = [];
  items.forEach((item, index) => {
    const line = at.get(item.id);
    if (line === undefined) {
      at.set(item.id, ids.length);
      ids.push(item.id);
      quantities.push(1);
      firstIndex.push(index);
    } else quantities[line]! += 1;
  });
  return { ids, quantities, firstIndex };
}

function customerOf(buyer: AcpBuyer) {
  const name = buyer.full_name ?? ([buyer.first_name, buyer.last_name].filter(Boolean).join(' ') || undefined);
  return { email: buyer.email, ...(name ? { name } : {}), ...(buyer.phone_number ? { phone: buyer.phone_number } : {}) };
}

export class AcpCheckout {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly options: AcpCheckoutOptions,
  ) {}

  /** The session as ACP shows it. */
  view(scope: AcpScope, record: SessionRecord): AcpSession {
    return toAcpSession(record, {
      handlers: this.checkout.payments.handlers(scope.merchantId),
      orderUrl: (orderId) => orderPermalink(this.options, scope.merchantId, orderId),
    });
  }

  async create(scope: AcpScope, request: AcpCreateRequest, store?: BeforeCommit<AcpSession>): Promise<AcpSession> {
    const { merchantId } = scope;
    const cart = await this.cart(merchantId, request.line_items);
    const state: AcpState = {
      protocol: 'acp',
      item_ids: cart.ids,
      interventions: negotiateInterventions(request.capabilities, this.checkout.payments.interventions),
      ...(request.buyer ? { buyer: request.buyer } : {}),
      ...(request.fulfillment_details ? { fulfillment_details: request.fulfillment_details } : {}),
    };
    const changes: SessionChanges = {
      items: cart.items,
      currency: request.currency,
      protocolState: { ...state },
      ...(request.fulfillment_details?.address ? { shippingAddress: toDomainAddress(request.fulfillment_details.address) } : {}),
      ...(request.buyer ? { customer: customerOf(request.buyer) } : {}),
    };
    return this.view(scope, await guard(cart.firstIndex, () => this.checkout.open(merchantId, changes, this.storing(scope, store))));
  }

  async get(scope: AcpScope, id: string): Promise<AcpSession> {
    const { merchantId } = scope;
    return this.view(scope, await guard([], () => this.checkout.record(merchantId, id)));
  }

  async update(scope: AcpScope, id: string, request: AcpUpdateRequest, store?: BeforeCommit<AcpSession>): Promise<AcpSession> {
    const { merchantId } = scope;
    const cart = request.line_items ? await this.cart(merchantId, request.line_items) : undefined;
    // Any change settles a past payment problem; the rest of the state is the locked row's.
    const next = (current: unknown): AcpState => {
      const { payment_problem: _settled, ...kept } = acpStateOf(current);
      return {
        ...kept,
        ...(cart ? { item_ids: cart.ids } : {}),
        ...(request.buyer ? { buyer: request.buyer } : {}),
        ...(request.fulfillment_details ? { fulfillment_details: request.fulfillment_details } : {}),
      };
    };
    const changes: SessionChanges = {
      ...(cart ? { items: cart.items } : {}),
      protocolState: (current) => ({ ...next(current) }),
      ...(request.fulfillment_details?.address ? { shippingAddress: toDomainAddress(request.fulfillment_details.address) } : {}),
      ...(request.buyer ? { customer: customerOf(request.buyer) } : {}),
      ...(request.selected_fulfillment_options ? { fulfillmentOptionId: this.chosenOptionId(request) } : {}),
    };
    return this.view(scope, await guard(cart?.firstIndex ?? [], () => this.checkout.change(merchantId, id, changes, this.storing(scope, store))));
  }

  async complete(scope: AcpScope, id: string, request: AcpCompleteRequest, store?: BeforeCommit<AcpSession>): Promise<AcpSession> {
    const { merchantId } = scope;
    const { handler_id: handlerId, instrument } = request.payment_data;
    if (!handlerId || !instrument) {
      throw new AcpError(400, 'invalid_request', 'unsupported', 'Pay with payment_data.handler_id and payment_data.instrument; purchase orders are not supported', '$.payment_data');
    }
    const record = await guard([], () => this.checkout.record(merchantId, id));
    const state = acpStateOf(record.session.protocolState);
    if (record.session.status === 'open' && state.payment_problem?.code === 'requires_3ds' && !request.authentication_result) {
      throw new AcpError(400, 'invalid_request', 'requires_3ds', "This checkout session requires issuer authentication. The request must include 'authentication_result'.", '$.authentication_result');
    }
    if (request.buyer && record.session.status === 'open') {
      const buyer = request.buyer;
      await guard([], () => this.checkout.change(merchantId, id, { customer: customerOf(buyer), protocolState: (current) => ({ ...acpStateOf(current), buyer }) }));
    }
    const payment = { handlerId, instrument, ...(request.authentication_result ? { authentication: { outcome: request.authentication_result.outcome } } : {}) };
    try {
      return this.view(scope, await guard([], () => this.checkout.pay(merchantId, id, payment, this.storing(scope, store))));
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
    return this.view(scope, await guard([], () => this.checkout.close(merchantId, id, this.storing(scope, store))));
  }

  private storing(scope: AcpScope, store: BeforeCommit<AcpSession> | undefined): BeforeCommit<SessionRecord> | undefined {
    return store && ((tx, record) => store(tx, this.view(scope, record)));
  }

  private async cart(merchantId: string, items: readonly AcpItem[]) {
    const grouped = groupItems(items);
    const inputs = await this.checkout.itemsByIds(merchantId, grouped.ids);
    return { ...grouped, items: inputs.map((input, i) => ({ ...input, quantity: grouped.quantities[i]! })) };
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

/** Runs a domain call; its errors become ACP errors (`lineIndexes`: the request's index of each domain line). */
async function guard<T>(lineIndexes: number[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GatewayError) throw toAcpError(error, lineIndexes);
    throw error;
  }
}
