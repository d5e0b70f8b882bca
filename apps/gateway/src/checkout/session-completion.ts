/**
 * Completing a session: the order, its stock, its event, its codes' uses — and its payment, which
 * moves outside the order's transaction (completion-payment.ts):
 *
 * 1. checks first, on the session as read: open, the address, the destination, a chosen option when
 *    paying, and a read of the stock — so nothing is authorized for a cart that cannot be filled;
 * 2. the payment authorized (nothing is written but its operation when it is declined);
 * 3. one transaction on the locked session: the same checks, then stock, order, status, event,
 *    codes, and the authorization settled with its capture recorded — all or nothing;
 * 4. after the commit the capture runs; when the transaction failed the authorization is released.
 *    A session whose total changed between 1 and 3 (a PATCH won the lock) is paid again for its new
 *    total, its first authorization released.
 */
import type { Tx, UnitOfWork } from '../db/transaction.js';
import { InvalidStateError } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { PaymentInstruction } from '../payments/payment-provider.js';
import { faultPoint } from '../payments/operations/fault-injection.js';
import type { Authorized } from '../payments/operations/payment-operations.js';
import type { CheckoutStore } from './checkout-store.js';
import { DiscountLimitReachedError, FulfillmentOptionNotChosenError, ShippingUnavailableError } from './checkout-errors.js';
import { completionBuyer } from './completion-buyer.js';
import type { CompletionPayment, HeldPayment } from './completion-payment.js';
import { checkShippingAddress, planStockTakes, stockError } from './completion-rules.js';
import { appliedCodeKeys } from './session-discounts.js';
import type { CustomerDirectory } from './session-customer.js';
import { unavailableDestination } from './session-needs.js';
import type { Session } from './session.js';
import { shortagesOf, type StockLevel } from './stock.js';

/** The session's total changed after its payment was authorized: paid again for the new one. */
class TotalChangedError extends Error {}

/** How often a completion starts over when a PATCH keeps changing the total under it. */
const MAX_ROUNDS = 3;

export interface CompletionDeps {
  db: UnitOfWork;
  store: CheckoutStore;
  payment: CompletionPayment;
  customers?: CustomerDirectory | undefined;
  /** The session locked in `tx` and the transaction's time; 404 unknown, 405 unless open. */
  lockOpen(tx: Tx, merchantId: string, id: string, change: string): Promise<{ row: Session; now: Date }>;
}

export class SessionCompletion {
  constructor(private readonly deps: CompletionDeps) {}

  /** Completes the session; `answer` builds the reply from the completed row in the transaction (and stores it with it). */
  async complete<T>(merchantId: string, id: string, instruction: PaymentInstruction | undefined, answer: (tx: Tx, row: Session) => Promise<T>): Promise<T> {
    for (let round = 1; ; round++) {
      try {
        return await this.once(merchantId, id, instruction, answer);
      } catch (error) {
        if (!(error instanceof TotalChangedError) || round >= MAX_ROUNDS) throw error;
      }
    }
  }

  private async once<T>(merchantId: string, id: string, instruction: PaymentInstruction | undefined, answer: (tx: Tx, row: Session) => Promise<T>): Promise<T> {
    const { db, store } = this.deps;
    const read = await store.completionReads.sessionWithStock(merchantId, id);
    let authorized: Authorized | 'settled' | null | undefined;
    // A session not open, or unknown, is answered by the transaction's lock (404, 405) as before.
    if (read?.session.status === 'open') {
      checkCompletable(read.session, instruction);
      checkStock(read.session, read.stock);
      authorized = await this.deps.payment.authorize(merchantId, read.session, instruction);
    }
    let products: string[] = [];
    let held: HeldPayment | undefined;
    let result: T;
    try {
      result = await db.transaction(async (tx) => {
        const { row, now } = await this.deps.lockOpen(tx, merchantId, id, 'completed');
        checkCompletable(row, instruction);
        if (authorized === 'settled' || authorized === undefined) throw new InvalidStateError(`Checkout session ${id} was paid by another completion; complete it again`);
        if (authorized && (row.total !== authorized.operation.amount || row.currency !== authorized.operation.currency)) throw new TotalChangedError();
        const takes = planStockTakes(row.lineItems);
        products = [...new Set(takes.map((take) => take.productId))];
        const order = { id: newId('ord'), merchantId, sessionId: id, currency: row.currency, total: row.total };
        const payment = authorized ? this.deps.payment.hold(authorized, order.id, now) : undefined;
        held = payment?.held;
        // The buyer recorded with the order, whichever protocol sold (completion-buyer.ts): remembered first, its email with the codes' uses.
        const buyer = await completionBuyer(this.deps.customers, tx, merchantId, row);
        // Stock, order, status, event, each code's use and the payment's capture in one statement; a take it could not fill,
        // a code whose last use went to another order, or an authorization no longer held rolls everything back.
        const completion = await store.complete(tx, row, order, takes, now, appliedCodeKeys(row.discounts), buyer, payment?.ctes);
        if (completion.failed) throw stockError(completion.failed.take, completion.failed.result);
        if (completion.unredeemed.length) throw new DiscountLimitReachedError(completion.unredeemed);
        if (!completion.held) throw new InvalidStateError(`The payment of checkout session ${id} was released before its order was recorded; complete it again`);
        return answer(tx, completion.completed); // last: once it ran, the answer is stored with the commit
      });
    } catch (error) {
      if (authorized && authorized !== 'settled') await this.deps.payment.release(authorized);
      throw error;
    }
    faultPoint('order-committed');
    // Committed: the next catalog read of this process shows the stock taken; the money is captured.
    if (products.length) await store.stockTaken(merchantId, products);
    if (held) await this.deps.payment.capture(held);
    return result;
  }
}

/** The stock the cart needs, as read (not reserved): a shortage now is refused before anything is authorized, as the transaction would. */
function checkStock(row: Session, stock: readonly StockLevel[]): void {
  const takes = planStockTakes(row.lineItems);
  const [short] = shortagesOf(takes, stock);
  if (!short) return;
  const take = takes.find((planned) => planned.sku === short.sku && planned.lines[0] === short.lines[0])!;
  throw stockError(take, short.available === null ? { kind: 'gone' } : { kind: 'short', available: short.available });
}

/** What a session needs before it can complete: an address for what ships, a destination it ships to, a chosen option to pay. */
function checkCompletable(row: Session, instruction: PaymentInstruction | undefined): void {
  checkShippingAddress(row.lineItems, row.shippingAddress);
  const unavailable = unavailableDestination(row);
  if (unavailable) throw new ShippingUnavailableError(unavailable.country, unavailable.region);
  if (instruction && !row.fulfillmentOptionId) throw new FulfillmentOptionNotChosenError('Choose a fulfillment option before completing');
}
