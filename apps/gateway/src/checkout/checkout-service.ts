/**
 * Checkout sessions: create, read, update, complete, cancel. Every write runs in one transaction,
 * locks the session row before it looks at its state, builds the answer from the transaction's own
 * reads, and hands it to `beforeCommit` (e.g. to store an idempotent response) before it commits.
 * Money moves outside it (session-completion.ts, session-payment.ts: payments/operations/).
 *
 * Two APIs use it: our own (`create`, `update`, … answer the contract's CheckoutSession; its payment
 * opened with the session, or its `payment_method` token) and the ACP profile (`open`, `change`,
 * `record`, `pay`, `close` answer a SessionRecord, with the fulfillment options and stock shortages
 * an agent is shown, and completion authorizes the agent's instrument).
 */
import type { CheckoutSession, CreateCheckoutSessionRequest, LineItemInput, UpdateCheckoutSessionRequest } from '../contract/types.js';
import type { BeforeCommit, Tx, UnitOfWork } from '../db/transaction.js';
import { InvalidStateError } from '../kernel/errors.js';
import { checkCurrency, checkedOption, checkOneAddress, checkPaymentMethod, notFound } from './session-checks.js';
import { newId, randomBase62 } from '../kernel/ids.js';
import { normalizeAddress, normalizeCustomer } from './address.js';
import type { CheckoutStore } from './checkout-store.js';
import { DiscountLimitReachedError } from './checkout-errors.js';
import { chosenOption, fulfillmentOptions } from './fulfillment-options.js';
import { productsFromMemory, type ProductsInMemory } from './catalog-lookup.js';
import { resolveLines, type CartLine, type CatalogProduct } from './line-resolver.js';
import type { PaymentInstruction, PaymentProvider } from '../payments/payment-provider.js';
import type { PaymentOperations } from '../payments/operations/payment-operations.js';
import { CompletionPayment } from './completion-payment.js';
import { SessionCompletion } from './session-completion.js';
import { SessionPayment } from './session-payment.js';
import type { PaymentOperation } from '../payments/operations/payment-operation.js';
import type { Pricing } from './pricing/pricing.js';
import { checkDiscountCodes, discountContext, merchantDiscounts, type DiscountSource } from './session-discounts.js';
import { buyerFields, type CustomerDirectory } from './session-customer.js';
import type { ProtocolState, Session } from './session.js';
import { contractView, itemsByIds, recordView, type View } from './session-views.js';
import type { SessionChanges, SessionRecord } from './session-record.js';

export const DEFAULT_PAYMENT_METHOD = 'demo_card';

export class CheckoutService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly store: CheckoutStore,
    private readonly pricing: Pricing,
    /** Moves the money of completions through the payment provider, each movement recorded (payments/operations/). */
    private readonly operations: PaymentOperations,
    /** The catalog read model, when there is one (see catalog-lookup.ts). */
    private readonly inMemory?: ProductsInMemory,
    /** The merchants' discount codes and promotions; without it carts get no discounts (codes asked are refused as unknown). */
    private readonly discounts?: DiscountSource,
    /** The merchants' customers: saved addresses offered and chosen by id, the buyer remembered at completion. */
    private readonly customers?: CustomerDirectory,
  ) {
    this.sessionPayment = new SessionPayment(operations);
    this.completion = new SessionCompletion({ db, store, customers, payment: new CompletionPayment(operations), lockOpen: (tx, merchantId, id, change) => this.lockOpen(tx, merchantId, id, change) });
  }
  private readonly completion: SessionCompletion;
  private readonly sessionPayment: SessionPayment;
  /** The payment provider: the handlers it offers and the interventions it can ask for (ACP, UCP discovery). */
  get payments(): PaymentProvider {
    return this.operations.provider;
  }

  // ── our own API ──────────────────────────────────────────────────────────

  create(merchantId: string, request: CreateCheckoutSessionRequest, beforeCommit?: BeforeCommit<CheckoutSession>): Promise<CheckoutSession> {
    const changes: SessionChanges = {
      items: request.items ?? [],
      ...(request.shipping_address ? { shippingAddress: request.shipping_address } : {}),
      ...(request.customer ? { customer: request.customer } : {}),
      paymentMethod: request.payment_method ?? DEFAULT_PAYMENT_METHOD,
      ...(request.shipping_option_id !== undefined ? { fulfillmentOptionId: request.shipping_option_id } : {}),
      ...(request.discount_codes !== undefined ? { discountCodes: request.discount_codes } : {}),
      ...(request.shipping_address_id !== undefined ? { shippingAddressId: request.shipping_address_id } : {}),
    };
    return this.openWith(merchantId, changes, contractView, beforeCommit, true);
  }

  async get(merchantId: string, id: string): Promise<CheckoutSession> {
    const row = await this.store.find(merchantId, id);
    if (!row) throw notFound(id);
    return contractView(undefined, row);
  }

  /** Omitted fields keep their value; `items` replaces the whole cart; totals are recomputed. */
  update(merchantId: string, id: string, request: UpdateCheckoutSessionRequest, beforeCommit?: BeforeCommit<CheckoutSession>): Promise<CheckoutSession> {
    const changes: SessionChanges = {
      ...(request.items !== undefined ? { items: request.items } : {}),
      ...(request.shipping_address ? { shippingAddress: request.shipping_address } : {}),
      ...(request.customer ? { customer: request.customer } : {}),
      ...(request.payment_method !== undefined ? { paymentMethod: request.payment_method } : {}),
      ...(request.shipping_option_id !== undefined ? { fulfillmentOptionId: request.shipping_option_id } : {}),
      ...(request.discount_codes !== undefined ? { discountCodes: request.discount_codes } : {}),
      ...(request.shipping_address_id !== undefined ? { shippingAddressId: request.shipping_address_id } : {}),
    };
    return this.changeWith(merchantId, id, changes, contractView, beforeCommit);
  }

  /** Checks address and stock, creates the order, queues `order.created`, takes the stock — all or nothing. */
  complete(merchantId: string, id: string, beforeCommit?: BeforeCommit<CheckoutSession>): Promise<CheckoutSession> {
    return this.completeWith(merchantId, id, undefined, contractView, beforeCommit);
  }

  /** Nothing is ordered, no stock is touched, no event is sent. */
  cancel(merchantId: string, id: string, beforeCommit?: BeforeCommit<CheckoutSession>): Promise<CheckoutSession> {
    return this.cancelWith(merchantId, id, contractView, beforeCommit);
  }

  // ── the ACP profile (SessionRecord) ──────────────────────────────────────

  open(merchantId: string, changes: SessionChanges, beforeCommit?: BeforeCommit<SessionRecord>): Promise<SessionRecord> {
    return this.openWith(merchantId, { paymentMethod: DEFAULT_PAYMENT_METHOD, ...changes }, this.recordView(merchantId), beforeCommit);
  }

  async record(merchantId: string, id: string): Promise<SessionRecord> {
    const row = await this.store.find(merchantId, id);
    if (!row) throw notFound(id);
    return this.recordView(merchantId)(undefined, row);
  }

  change(merchantId: string, id: string, changes: SessionChanges, beforeCommit?: BeforeCommit<SessionRecord>): Promise<SessionRecord> {
    return this.changeWith(merchantId, id, changes, this.recordView(merchantId), beforeCommit);
  }

  /**
   * Completes with a payment: the checks of `complete`, a chosen fulfillment option, then the
   * provider's authorization, then the order. A declined payment or a request to authenticate
   * rolls everything back and throws (PaymentDeclinedError, AuthenticationRequiredError).
   */
  pay(merchantId: string, id: string, payment: PaymentInstruction, beforeCommit?: BeforeCommit<SessionRecord>): Promise<SessionRecord> {
    return this.completeWith(merchantId, id, payment, this.recordView(merchantId), beforeCommit);
  }

  close(merchantId: string, id: string, beforeCommit?: BeforeCommit<SessionRecord>): Promise<SessionRecord> {
    return this.cancelWith(merchantId, id, this.recordView(merchantId), beforeCommit);
  }

  /** Items named by one id each (a variant's SKU, or a product id): session-views.ts. */
  itemsByIds(merchantId: string, ids: readonly string[]): Promise<LineItemInput[]> {
    return itemsByIds(this.store, merchantId, ids);
  }

  /** Changes only the protocol's state of an open session (e.g. to record the last payment problem), on the locked row. */
  async updateProtocolState(merchantId: string, id: string, update: (current: ProtocolState | null) => ProtocolState): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { row } = await this.lockOpen(tx, merchantId, id, 'updated');
      await this.store.setProtocolState(tx, id, update(row.protocolState));
    });
  }

  // ── shared ───────────────────────────────────────────────────────────────

  private async catalogProducts(merchantId: string, ids: readonly string[], tx?: Tx): Promise<Map<string, CatalogProduct>> {
    return productsFromMemory(this.inMemory, merchantId, ids) ?? (await this.store.catalogProducts(merchantId, ids, tx));
  }

  /** `opensPayment`: our API — the provider opens the session's payment (session-payment.ts); agents pay with their own instrument. */
  private async openWith<T>(merchantId: string, changes: SessionChanges, view: View<T>, beforeCommit?: BeforeCommit<T>, opensPayment = false): Promise<T> {
    const items = changes.items ?? [];
    const cart = resolveLines(items, await this.catalogProducts(merchantId, items.map((item) => item.product_id)));
    checkCurrency(cart.currency, changes.currency);
    checkOneAddress(changes);
    const paymentMethod = checkPaymentMethod(changes.paymentMethod ?? DEFAULT_PAYMENT_METHOD);
    const customer = changes.customer ? normalizeCustomer(changes.customer) : null;
    const buyer = await buyerFields(this.customers, {
      merchantId,
      customer,
      shippingAddress: changes.shippingAddress ? normalizeAddress(changes.shippingAddress) : null,
      shippingAddressId: changes.shippingAddressId,
    });
    const { shippingAddress } = buyer;
    const discountCodes = checkDiscountCodes(changes.discountCodes ?? []);
    const [shipping, merchant] = await Promise.all([this.pricing.prepare(merchantId), merchantDiscounts(this.discounts, merchantId)]);
    const discounts = await discountContext(this.discounts, { merchantId, merchant, codes: discountCodes, email: customer?.email, now: new Date() });
    const totals = await this.pricing.totals(cart.currency, cart.lines, shippingAddress, { ...shipping, chosenOptionId: changes.fulfillmentOptionId ?? null, discounts });
    const id = newId('cs');
    const opened = opensPayment ? await this.sessionPayment.open(merchantId, id, totals.total, cart.currency) : null;
    const session = {
      id,
      merchantId,
      clientSecret: opened?.clientSecret || `${id}_secret_${randomBase62(24)}`,
      paymentReference: opened?.reference ?? null,
      currency: cart.currency,
      lines: cart.lines,
      shippingAddress,
      customer,
      buyer: { customerId: buyer.customerId, shippingAddressId: buyer.shippingAddressId, savedAddresses: buyer.savedAddresses },
      paymentMethod,
      totals,
      discountCodes,
      fulfillmentOptionId: checkedOption(totals, changes.fulfillmentOptionId ?? null),
      protocolState: typeof changes.protocolState === 'function' ? changes.protocolState(null) : (changes.protocolState ?? null),
    };
    // One statement writes the session and its lines: a transaction only when something must commit with it.
    if (!beforeCommit) return view(undefined, await this.store.insert(session));
    return this.db.transaction(async (tx) => this.commit(tx, await this.store.insert(session, tx), view, beforeCommit));
  }

  private async changeWith<T>(merchantId: string, id: string, changes: SessionChanges, view: View<T>, beforeCommit?: BeforeCommit<T>): Promise<T> {
    // Read before the transaction: on PGlite nothing else reads while it is open.
    const [shipping, merchant] = await Promise.all([this.pricing.prepare(merchantId), merchantDiscounts(this.discounts, merchantId)]);
    const askedCodes = changes.discountCodes === undefined ? undefined : checkDiscountCodes(changes.discountCodes);
    let changed: [Session, Session] | undefined;
    const answer = await this.db.transaction(async (tx) => {
      const { row, now } = await this.lockOpen(tx, merchantId, id, 'updated');
      let currency = row.currency;
      let lines: CartLine[] | undefined;
      if (changes.items !== undefined) {
        const catalog = await this.catalogProducts(merchantId, changes.items.map((item) => item.product_id), tx);
        ({ currency, lines } = resolveLines(changes.items, catalog));
      }
      checkCurrency(currency, changes.currency);
      checkOneAddress(changes);
      const chosenOptionId = changes.fulfillmentOptionId !== undefined ? changes.fulfillmentOptionId : row.fulfillmentOptionId;
      const customer = changes.customer ? normalizeCustomer(changes.customer) : row.customer;
      // The buyer's saved addresses are read again only when the buyer or the address changes.
      const buyer =
        changes.customer || changes.shippingAddress || changes.shippingAddressId !== undefined
          ? await buyerFields(this.customers, {
              merchantId,
              customer,
              shippingAddress: changes.shippingAddress ? normalizeAddress(changes.shippingAddress) : row.shippingAddress,
              shippingAddressId: changes.shippingAddressId,
              tx,
            })
          : { customerId: row.customerId, shippingAddress: row.shippingAddress, shippingAddressId: row.shippingAddressId, savedAddresses: row.savedAddresses };
      const { shippingAddress } = buyer;
      const discountCodes = askedCodes ?? row.discountCodes;
      const discounts = await discountContext(this.discounts, { merchantId, merchant, codes: discountCodes, email: customer?.email, now, tx });
      const totals = await this.pricing.totals(currency, lines ?? row.lineItems, shippingAddress, { ...shipping, chosenOptionId, discounts });
      const fields = {
        currency,
        shippingAddress,
        customer,
        buyer: { customerId: buyer.customerId, shippingAddressId: buyer.shippingAddressId, savedAddresses: buyer.savedAddresses },
        discountCodes,
        paymentMethod: changes.paymentMethod === undefined ? row.paymentMethod : checkPaymentMethod(changes.paymentMethod),
        totals,
        // A choice the new cart is no longer offered (e.g. it stopped shipping) is dropped.
        fulfillmentOptionId:
          changes.fulfillmentOptionId !== undefined
            ? checkedOption(totals, changes.fulfillmentOptionId)
            : (chosenOption(fulfillmentOptions(totals), row.fulfillmentOptionId)?.id ?? null),
        protocolState:
          typeof changes.protocolState === 'function' ? changes.protocolState(row.protocolState)
          : changes.protocolState !== undefined ? changes.protocolState
          : row.protocolState,
      };
      const updated = await this.store.update(tx, row, fields, lines);
      changed = [row, updated];
      return this.commit(tx, updated, view, beforeCommit);
    });
    if (changed) await this.sessionPayment.follow(...changed); // the opened payment's amount, after the commit
    return answer;
  }

  private async completeWith<T>(merchantId: string, id: string, payment: PaymentInstruction | undefined, view: View<T>, beforeCommit?: BeforeCommit<T>): Promise<T> {
    try {
      return await this.completion.complete(merchantId, id, payment, (tx, row) => this.commit(tx, row, view, beforeCommit));
    } catch (error) {
      // A code's last use went to another order: price the session again (the code now refused) before answering.
      if (error instanceof DiscountLimitReachedError) await this.changeWith(merchantId, id, {}, async () => undefined).catch(() => {});
      throw error;
    }
  }

  private async cancelWith<T>(merchantId: string, id: string, view: View<T>, beforeCommit?: BeforeCommit<T>): Promise<T> {
    let release: PaymentOperation | null = null;
    const answer = await this.db.transaction(async (tx) => {
      const { row } = await this.lockOpen(tx, merchantId, id, 'canceled');
      release = await this.sessionPayment.recordRelease(tx, row);
      return this.commit(tx, await this.store.setStatus(tx, row, 'canceled'), view, beforeCommit);
    });
    await this.sessionPayment.release(release); // the opened payment released after the commit (the worker retries it)
    return answer;
  }

  private recordView(merchantId: string): View<SessionRecord> {
    return recordView(this.store, merchantId);
  }

  /**
   * The session, locked for this transaction, and the transaction's time; 404 when unknown (or
   * another merchant's), 405 unless open.
   */
  private async lockOpen(tx: Tx, merchantId: string, id: string, change: string): Promise<{ row: Session; now: Date }> {
    const locked = await this.store.lock(tx, merchantId, id);
    if (!locked) throw notFound(id);
    if (locked.row.status !== 'open') {
      throw new InvalidStateError(`Checkout session ${id} is ${locked.row.status}; only an open session can be ${change}`);
    }
    return locked;
  }

  private async commit<T>(tx: Tx, row: Session, view: View<T>, beforeCommit?: BeforeCommit<T>): Promise<T> {
    const answer = await view(tx, row);
    await beforeCommit?.(tx, answer);
    return answer;
  }
}
