/**
 * The UCP profile of checkout: UCP requests in, UCP checkouts out, over the one checkout domain
 * (CheckoutService — same pricing, discounts, inventory rule, customers, orders, outbox). Knows
 * nothing of Express. Answers of changes are built inside the domain's transaction, so an
 * idempotent answer is stored with the change (`store`).
 *
 * Creation reads the platform's profile (negotiation.ts): the release is negotiated, the
 * extensions the answer lists are the intersection of the platform's and ours (checkout itself is
 * always listed: the platform called it), and the order capability's
 * `webhook_url` — checked against the SSRF rules — is kept for order webhooks. A platform that
 * sends an extension's field (`fulfillment`, `discounts`) understands it: the extension is active.
 *
 * Completion takes the session's payment instrument through the PaymentProvider port; a checkout
 * offers its merchant's handlers (payment-handlers.ts; the instrument as the port's instruction:
 * payment-instruction.ts). UCP's test handler (`mock_payment_handler`,
 * development and sandbox) is the test provider's face: `success_token` approves, `fail_token` is
 * declined, card credentials with the release's test numbers become those (test-credentials.ts).
 * A decline, or a session that still needs something, is answered with the session and its
 * messages (a business outcome, 200); 3-D Secure is UCP's escalation (`requires_escalation`,
 * `requires_3ds`: the buyer authenticates at continue_url, the platform completes again); a code
 * whose last use went to another order is answered with the session priced again.
 *
 * A finished checkout stays finished (finished-checkout.ts): update and cancel of a completed or
 * canceled checkout answer `checkout_not_modifiable`; completing one answers the session as it is.
 */
import { DiscountLimitReachedError } from '../../checkout/checkout-errors.js';
import type { CheckoutService } from '../../checkout/checkout-service.js';
import { AuthenticationRequiredError, PaymentDeclinedError } from '../../payments/payment-errors.js';
import type { PaymentHandlerDeclaration } from '../../payments/payment-provider.js';
import { sessionNeeds } from '../../checkout/session-needs.js';
import type { SessionChanges, SessionRecord } from '../../checkout/session-record.js';
import type { BeforeCommit } from '../../db/transaction.js';
import { NotFoundError } from '../../kernel/errors.js';
import { UnsafeTargetError } from '../../kernel/outbound/delivery-errors.js';
import { vetTarget } from '../../kernel/outbound/safe-target.js';
import { CAPABILITY, servedWith } from '../capabilities.js';
import type { UcpNegotiation } from '../negotiation.js';
import { platformFacts } from '../platform-profile.js';
import { releaseOf } from '../releases/releases.js';
import { UcpError } from '../ucp-error.js';
import type { UcpVersion } from '../ucp-version.js';
import { customerOf, fulfillmentChoice, groupItems, type GroupedItems, type UcpCheckoutRequest, type UcpLineEntry } from './checkout-request.js';
import { DISCOUNT, FULFILLMENT, toUcpCheckout, type CheckoutViewContext } from './checkout-view.js';
import { guard } from './checkout-refusals.js';
import { isFinished, unlessFinished } from './finished-checkout.js';
import { instructionOf, type UcpInstrument } from './payment-instruction.js';
import { refusingShortages } from './refusing-shortages.js';
import { isUcpState, ucpStateOf, type PaymentProblem, type UcpState } from './ucp-state.js';

export type UcpCheckoutBody = Record<string, unknown>;

const CHECKOUT = CAPABILITY.checkout;

export interface UcpCheckoutOptions extends CheckoutViewContext {
  /** Order webhooks may go to private addresses (development, tests). */
  allowPrivateWebhooks: boolean;
}

export interface UcpScope {
  merchantId: string;
  negotiation: UcpNegotiation;
}

/** The carts a checkout is created from (`cart_id`, cart.md "Cart-to-Checkout Conversion"). */
export interface CartSource {
  /** An open cart's lines, buyer and the checkout already made from it; throws UcpError not_found. */
  contents(merchantId: string, cartId: string): Promise<{ lines: UcpLineEntry[]; buyer?: Record<string, unknown>; checkoutId?: string }>;
  /** Remembers the checkout made from the cart. */
  link(merchantId: string, cartId: string, checkoutId: string): Promise<void>;
}

export class UcpCheckout {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly options: UcpCheckoutOptions,
    private readonly carts?: CartSource,
  ) {}

  /** The checkout as UCP shows it, offering the payment handlers of its merchant. */
  async view(record: SessionRecord): Promise<UcpCheckoutBody> {
    return toUcpCheckout(record, this.options, await this.handlers(record.session.merchantId));
  }

  /** The provider's handlers for the merchant (none without its account); the test provider's face is UCP's test handler. */
  private async handlers(merchantId: string): Promise<PaymentHandlerDeclaration[]> {
    return this.checkout.payments.name === 'test' ? [] : this.checkout.payments.handlers(merchantId);
  }

  async create(scope: UcpScope, request: UcpCheckoutRequest, store?: BeforeCommit<UcpCheckoutBody>): Promise<UcpCheckoutBody> {
    const { merchantId, negotiation } = scope;
    const profile = await negotiation.profile();
    const facts = platformFacts(profile);
    const version = negotiation.version;
    const capabilities = this.negotiated(version, facts.capabilities, request);
    const webhook = facts.orderWebhookUrl ? await this.checkedWebhook(facts.orderWebhookUrl) : undefined;
    // A cart's contents win over the request's (cart.md: the business MUST ignore overlapping fields),
    // and a cart already converted returns its checkout while that is open ("Idempotent conversion").
    const cart = request.cart_id !== undefined ? await this.cartContents(merchantId, request.cart_id) : undefined;
    if (cart?.checkoutId) {
      const existing = await this.record(merchantId, cart.checkoutId).catch(() => undefined);
      if (existing?.session.status === 'open') return this.view(existing);
    }
    if (cart?.buyer) request = { ...request, buyer: cart.buyer };
    const grouped = groupItems(cart ? cart.lines : (request.line_items ?? []));
    const items = await this.items(merchantId, grouped);
    const choice = fulfillmentChoice(request.fulfillment, [], new Set());
    const state: UcpState = {
      protocol: 'ucp',
      version,
      agent_profile: profile.url,
      ...(webhook ? { order_webhook_url: webhook } : {}),
      capabilities,
      item_ids: grouped.ids,
      ...(choice.destinations ? { destinations: choice.destinations } : {}),
      ...(choice.selectedDestinationId ? { selected_destination_id: choice.selectedDestinationId } : {}),
      ...(request.buyer ? { buyer: { ...request.buyer } } : {}),
    };
    const changes: SessionChanges = {
      items,
      protocolState: { ...state },
      ...choice.changes,
      ...(request.buyer ? { customer: customerOf(request.buyer) } : {}),
      ...(request.discounts?.codes !== undefined ? { discountCodes: request.discounts.codes } : {}),
    };
    // A release without an envelope for an outcome (2026-01-11) refuses a cart the stock cannot fill
    // (400), the session rolled back with the refusal; 2026-04-08 creates it with its out_of_stock message.
    const stored = await this.storing(merchantId, store);
    const storing = releaseOf(version).checkout.shortageAtCreation === 'refuse' ? refusingShortages(stored) : stored;
    const created = await guard(() => this.checkout.open(merchantId, changes, storing), grouped.firstIndex);
    if (request.cart_id !== undefined) await this.carts!.link(merchantId, request.cart_id, created.session.id);
    return this.view(created);
  }

  /** The release a checkout was created at (its answers and the bodies of its requests are that release's); 404 for none. */
  async release(scope: UcpScope, id: string): Promise<UcpVersion> {
    return ucpStateOf((await this.record(scope.merchantId, id, scope)).session.protocolState).version;
  }

  async get(scope: UcpScope, id: string): Promise<UcpCheckoutBody> {
    return this.view(await this.record(scope.merchantId, id, scope));
  }

  async update(scope: UcpScope, id: string, request: UcpCheckoutRequest, store?: BeforeCommit<UcpCheckoutBody>): Promise<UcpCheckoutBody> {
    const { merchantId } = scope;
    if (request.id !== undefined && request.id !== id) {
      throw new UcpError('invalid_request', `$.id is ${JSON.stringify(request.id)} but the path names checkout ${id}`, 400, {}, { path: '$.id' });
    }
    const record = unlessFinished(await this.record(merchantId, id), 'updated');
    const current = ucpStateOf(record.session.protocolState);
    const grouped = request.line_items ? groupItems(request.line_items) : undefined;
    const items = grouped ? await this.items(merchantId, grouped) : undefined;
    const saved = new Set((record.session.savedAddresses ?? []).map((address) => address.id));
    const choice = fulfillmentChoice(request.fulfillment, current.destinations ?? [], saved);
    const extensions = [...(request.fulfillment ? [FULFILLMENT] : []), ...(request.discounts ? [DISCOUNT] : [])];
    // Any change settles a past payment problem; the rest of the state is the locked row's.
    const next = (state: unknown): UcpState => {
      const { payment_problem: _settled, ...kept } = ucpStateOf(state);
      const selected = choice.changes.shippingAddressId !== undefined ? undefined : (choice.selectedDestinationId ?? kept.selected_destination_id);
      return {
        ...kept,
        capabilities: [...new Set([...kept.capabilities, ...extensions.filter((name) => servedWith(releaseOf(kept.version), CHECKOUT).some((c) => c.name === name))])],
        ...(grouped ? { item_ids: grouped.ids } : {}),
        ...(choice.destinations ? { destinations: choice.destinations } : {}),
        ...(selected ? { selected_destination_id: selected } : { selected_destination_id: undefined }),
        ...(request.buyer ? { buyer: { ...request.buyer } } : {}),
      };
    };
    const changes: SessionChanges = {
      ...(items ? { items } : {}),
      protocolState: (state) => ({ ...next(state) }),
      ...choice.changes,
      ...(request.buyer ? { customer: customerOf(request.buyer) } : {}),
      ...(request.discounts?.codes !== undefined ? { discountCodes: request.discounts.codes } : {}),
    };
    const storing = await this.storing(merchantId, store);
    return this.view(await guard(() => this.checkout.change(merchantId, id, changes, storing), grouped?.firstIndex));
  }

  async complete(scope: UcpScope, id: string, instrument: UcpInstrument, store?: BeforeCommit<UcpCheckoutBody>): Promise<UcpCheckoutBody> {
    const { merchantId } = scope;
    let record = await this.record(merchantId, id);
    if (isFinished(record)) return this.view(record); // completed (a retry, whatever its key) or canceled: shown as it is
    const payment = await instructionOf(instrument, { handlers: () => this.checkout.payments.handlers(merchantId), testHandler: this.options.testHandler && this.checkout.payments.name === 'test' });
    // A cart that ships nothing has one option, digital delivery: it is the choice.
    const options = record.fulfillmentOptions;
    if (!record.session.fulfillmentOptionId && options.length === 1 && options[0]!.type === 'digital') {
      record = await guard(() => this.checkout.change(merchantId, id, { fulfillmentOptionId: options[0]!.id }));
    }
    if (sessionNeeds(record).length || !record.session.customer?.email) return this.view(record);
    const { credential: _secret, ...shown } = instrument;
    await guard(() => this.checkout.updateProtocolState(merchantId, id, (state) => ({ ...ucpStateOf(state), instrument: shown })));
    try {
      const storing = await this.storing(merchantId, store);
      return this.view(await guard(() => this.checkout.pay(merchantId, id, payment, storing)));
    } catch (error) {
      const cause = (error as Error).cause;
      if (cause instanceof PaymentDeclinedError || cause instanceof AuthenticationRequiredError) {
        // 3-D Secure: UCP's escalation (overview.md, "Challenge Required"), completed again once the buyer authenticated.
        const problem: PaymentProblem =
          cause instanceof PaymentDeclinedError
            ? { code: 'payment_failed', content: `The payment was declined: ${cause.message}` }
            : { code: 'requires_3ds', content: 'The bank requires the buyer to authenticate the payment (3-D Secure): open continue_url for the buyer, then complete again with the same instrument' };
        await this.checkout.updateProtocolState(merchantId, id, (state) => ({ ...ucpStateOf(state), payment_problem: problem }));
        return this.view(await this.record(merchantId, id));
      }
      // A code's last use went to another order: the session was priced again without it.
      if (cause instanceof DiscountLimitReachedError) return this.view(await this.record(merchantId, id));
      throw error;
    }
  }

  async cancel(scope: UcpScope, id: string, store?: BeforeCommit<UcpCheckoutBody>): Promise<UcpCheckoutBody> {
    unlessFinished(await this.record(scope.merchantId, id, scope), 'canceled');
    const storing = await this.storing(scope.merchantId, store);
    return this.view(await guard(() => this.checkout.close(scope.merchantId, id, storing)));
  }

  /**
   * A UCP checkout session of the merchant (not another protocol's session, nor a cart): not_found
   * otherwise — answered at the platform's release, which its profile says when the request did not.
   */
  private async record(merchantId: string, id: string, scope?: UcpScope): Promise<SessionRecord> {
    const record = await this.checkout.record(merchantId, id).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    const state = record?.session.protocolState;
    if (!record || !isUcpState(state) || (state as { kind?: unknown }).kind !== undefined) {
      if (scope && scope.negotiation.agent.version === undefined) await scope.negotiation.profile().catch(() => undefined);
      throw new UcpError('not_found', `No checkout session ${id}`, 404, {}, { resource: true });
    }
    return record;
  }

  /** The answer stored with the change, in its transaction: the merchant's handlers are read before it. */
  private async storing(merchantId: string, store: BeforeCommit<UcpCheckoutBody> | undefined): Promise<BeforeCommit<SessionRecord> | undefined> {
    if (!store) return undefined;
    const handlers = await this.handlers(merchantId);
    return (tx, record) => store(tx, toUcpCheckout(record, this.options, handlers));
  }

  private async items(merchantId: string, grouped: GroupedItems) {
    const inputs = await this.checkout.itemsByIds(merchantId, grouped.ids);
    return inputs.map((input, i) => ({ ...input, quantity: grouped.quantities[i]! }));
  }

  private cartContents(merchantId: string, cartId: string) {
    if (!this.carts) throw new UcpError('invalid_request', 'This business does not serve carts: send line_items', 400, {}, { path: '$.cart_id' });
    return this.carts.contents(merchantId, cartId);
  }

  /**
   * Checkout and the extensions both sides support; an extension whose field the request sends is
   * active too. A platform that calls a checkout operation speaks checkout, whatever its profile
   * lists (platforms publish partial lists — the order capability alone, for its webhook_url): the
   * intersection decides the extensions, never whether the operation called is served.
   */
  private negotiated(version: UcpVersion, platform: ReadonlySet<string>, request: UcpCheckoutRequest): string[] {
    const sent = new Set([CHECKOUT, ...(request.fulfillment ? [FULFILLMENT] : []), ...(request.discounts ? [DISCOUNT] : [])]);
    return servedWith(releaseOf(version), CHECKOUT)
      .map((capability) => capability.name)
      .filter((name) => platform.has(name) || sent.has(name));
  }

  private async checkedWebhook(url: string): Promise<string> {
    try {
      await vetTarget(url, { allowPrivate: this.options.allowPrivateWebhooks, publicOnly: 'order webhooks are only sent to public addresses', dnsTimeoutMs: 2_000 });
    } catch (error) {
      if (error instanceof UnsafeTargetError) {
        throw new UcpError('profile_malformed', `The platform profile's order webhook_url ${error.message}`);
      }
      // DNS gave no answer now: delivery resolves it again (and checks it again) on every attempt.
    }
    return url;
  }
}
