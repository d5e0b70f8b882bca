/**
 * Checkout sessions: create, read, update, complete, cancel. Every write runs in
 * one transaction, locks the session row before it looks at its state, builds the
 * answer from the transaction's own reads, and hands it to `beforeCommit` (e.g.
 * to store an idempotent response) before the transaction commits.
 */
import { randomBase62 } from '../auth/api-key.js';
import type { CheckoutSession, CreateCheckoutSessionRequest, UpdateCheckoutSessionRequest } from '../contract-types.js';
import type { BeforeCommit, Tx } from '../db/transaction.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueEvent } from '../webhooks/outbox.js';
import { normalizeAddress, normalizeCustomer } from './address.js';
import type { CheckoutStore } from './checkout-store.js';
import { checkShippingAddress, planStockTakes, stockError } from './completion-rules.js';
import { productsFromMemory, type ProductsInMemory } from './catalog-lookup.js';
import { resolveLines, type CartLine, type CatalogProduct } from './line-resolver.js';
import type { Pricing } from './pricing/pricing.js';
import { toCheckoutSession, type SessionWithRelations } from './session-mapper.js';

export const DEFAULT_PAYMENT_METHOD = 'demo_card';

function checkPaymentMethod(token: string): string {
  if (typeof token !== 'string' || token.length < 1 || token.length > 64) {
    throw new InvalidRequestError('payment_method must be a token of 1 to 64 characters', 'payment_method');
  }
  return token;
}

export class CheckoutService {
  constructor(
    private readonly store: CheckoutStore,
    private readonly pricing: Pricing,
    /** The catalog read model, when there is one (see catalog-lookup.ts). */
    private readonly inMemory?: ProductsInMemory,
  ) {}

  private async catalogProducts(merchantId: string, ids: readonly string[], tx?: Tx): Promise<Map<string, CatalogProduct>> {
    return productsFromMemory(this.inMemory, merchantId, ids) ?? (await this.store.catalogProducts(merchantId, ids, tx));
  }

  async create(merchantId: string, request: CreateCheckoutSessionRequest, beforeCommit?: BeforeCommit<CheckoutSession>): Promise<CheckoutSession> {
    const items = request.items ?? [];
    const cart = resolveLines(items, await this.catalogProducts(merchantId, items.map((item) => item.product_id)));
    const shippingAddress = request.shipping_address ? normalizeAddress(request.shipping_address) : null;
    const paymentMethod = checkPaymentMethod(request.payment_method ?? DEFAULT_PAYMENT_METHOD);
    const totals = await this.pricing.totals(cart.currency, cart.lines, shippingAddress);
    const id = newId('cs');
    return this.store.transaction(async (tx) => {
      const row = await this.store.insert(tx, {
        id,
        merchantId,
        clientSecret: `${id}_secret_${randomBase62(24)}`,
        currency: cart.currency,
        lines: cart.lines,
        shippingAddress,
        customer: request.customer ? normalizeCustomer(request.customer) : null,
        paymentMethod,
        totals,
      });
      return this.commit(tx, row, beforeCommit);
    });
  }

  async get(merchantId: string, id: string): Promise<CheckoutSession> {
    const row = await this.store.find(merchantId, id);
    if (!row) throw notFound(id);
    return toCheckoutSession(row);
  }

  /** Omitted fields keep their value; `items` replaces the whole cart; totals are recomputed. */
  update(merchantId: string, id: string, request: UpdateCheckoutSessionRequest, beforeCommit?: BeforeCommit<CheckoutSession>): Promise<CheckoutSession> {
    return this.store.transaction(async (tx) => {
      const row = await this.lockOpen(tx, merchantId, id, 'updated');
      let currency = row.currency;
      let lines: CartLine[] | undefined;
      if (request.items !== undefined) {
        const catalog = await this.catalogProducts(merchantId, request.items.map((item) => item.product_id), tx);
        ({ currency, lines } = resolveLines(request.items, catalog));
      }
      const shippingAddress = request.shipping_address ? normalizeAddress(request.shipping_address) : (row.shippingAddress as CheckoutSession['shipping_address']);
      const fields = {
        currency,
        shippingAddress,
        customer: request.customer ? normalizeCustomer(request.customer) : (row.customer as CheckoutSession['customer']),
        paymentMethod: request.payment_method === undefined ? row.paymentMethod : checkPaymentMethod(request.payment_method),
        totals: await this.pricing.totals(currency, lines ?? row.lineItems, shippingAddress),
      };
      return this.commit(tx, await this.store.update(tx, row, fields, lines), beforeCommit);
    });
  }

  /** Checks address and stock, creates the order, queues `order.created`, takes the stock — all or nothing. */
  async complete(merchantId: string, id: string, beforeCommit?: BeforeCommit<CheckoutSession>): Promise<CheckoutSession> {
    let products: string[] = [];
    const completed = await this.store.transaction(async (tx) => {
      const row = await this.lockOpen(tx, merchantId, id, 'completed');
      checkShippingAddress(row.lineItems, row.shippingAddress as CheckoutSession['shipping_address']);
      const takes = planStockTakes(row.lineItems);
      products = [...new Set(takes.map((take) => take.productId))];
      const order = { id: newId('ord'), merchantId, sessionId: id, currency: row.currency, total: row.total };
      const session = toCheckoutSession(await this.store.completeWithOrder(tx, row, order, products));
      await enqueueEvent(tx, { merchantId, type: 'order.created', object: session });
      // Stock late: its row locks, which every completion of the same SKUs waits on, are held only
      // from here to the commit. A take that fails rolls back everything written above.
      for (const take of takes) {
        const result = await this.store.takeStock(tx, merchantId, take);
        if (result.kind !== 'taken') throw stockError(take, result);
      }
      await beforeCommit?.(tx, session); // last: once it ran, the answer is stored with the commit
      return session;
    });
    // Committed: the next catalog read of this process shows the stock taken.
    if (products.length) await this.store.stockTaken(merchantId, products);
    return completed;
  }

  /** Nothing is ordered, no stock is touched, no event is sent. */
  cancel(merchantId: string, id: string, beforeCommit?: BeforeCommit<CheckoutSession>): Promise<CheckoutSession> {
    return this.store.transaction(async (tx) => {
      const row = await this.lockOpen(tx, merchantId, id, 'canceled');
      return this.commit(tx, await this.store.setStatus(tx, row, 'canceled'), beforeCommit);
    });
  }

  /** The session, locked for this transaction; 404 when unknown (or another merchant's), 405 unless open. */
  private async lockOpen(tx: Tx, merchantId: string, id: string, change: string): Promise<SessionWithRelations> {
    const row = await this.store.lock(tx, merchantId, id);
    if (!row) throw notFound(id);
    if (row.status !== 'open') {
      throw new InvalidStateError(`Checkout session ${id} is ${row.status}; only an open session can be ${change}`);
    }
    return { ...row, lineItems: await this.store.lines(tx, id), order: null };
  }

  private async commit(tx: Tx, row: SessionWithRelations, beforeCommit?: BeforeCommit<CheckoutSession>): Promise<CheckoutSession> {
    const session = toCheckoutSession(row);
    await beforeCommit?.(tx, session);
    return session;
  }
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`No checkout session ${JSON.stringify(id)}`, 'session_id');
}
