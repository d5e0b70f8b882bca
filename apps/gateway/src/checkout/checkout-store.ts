/**
 * The only code that reads and writes checkout sessions, their line items and
 * orders, and that takes stock out of the catalog (in the completion's one statement,
 * completion-sql.ts; the catalog's other reads are the catalog's: CatalogReader). Every statement runs on the
 * database's driver (db/sql.ts: checkout's statements are the hot ones) — in the unit
 * of work the service hands in, when there is one — and answers with what the database
 * returned inside that transaction (read-your-writes), as the domain's Session.
 */
import type { Database } from '../db/database.js';
import { iso } from '../db/sql.js';
import { NOW_UTC } from '../db/sql-time.js';
import type { Tx } from '../db/transaction.js';
import { sql, type Statement } from '../db/statement.js';
import { catalogEvents } from '../catalog/catalog-events.js';
import { CatalogReader } from '../catalog/catalog-reader-store.js';
import { outboxEntry } from '../webhooks/outbox.js';
import { completionStatement, type NewOrder } from './completion-sql.js';
import type { CartLine, CatalogProduct } from './line-resolver.js';
import type { ProtocolState, Session, SessionLine, SessionStatus } from './session.js';
import { toCheckoutSession } from './session-mapper.js';
import { decodeLines, decodeSession, decodeWholeSession, LINES_OF_S, SESSION_JSON, WHOLE_SESSION, type WholeSessionRow } from './session-rows.js';
import { CompletionReadStore } from './completion-read-store.js';
import { amountsJson, insertLines, jsonText, lineRows, totalsColumns, updateLineDiscounts, type NewSession, type SessionFields } from './session-statements.js';
import { shortagesOf, type Shortage, type StockResult, type StockTake } from './stock.js';

/**
 * The buyer a completion records, whichever protocol sold: the normalized email (what per-customer
 * discount limits count by; null when the session names none), the customer it is and the saved
 * address shipped to.
 */
export interface CompletionBuyer {
  email: string | null;
  customerId: string | null;
  shippingAddressId: string | null;
}

/** What became of a completion: the session completed, unless a take failed or a code could not be redeemed (then nothing may commit). */
export interface Completion<T extends StockTake> {
  completed: Session;
  failed?: { take: T; result: Exclude<StockResult, { kind: 'taken' }> };
  /** The codes (keys) whose limit another order reached first. */
  unredeemed: string[];
  /** False when the payment's authorization was no longer the completion's (a worker released it): the caller rolls back. */
  held: boolean;
}

export class CheckoutStore {
  /** A completion's read before it authorizes: the session and its lines' stock in one round trip. */
  readonly completionReads: CompletionReadStore;
  /** The catalog's reads checkout makes (products, SKUs, stock): the catalog's statements, not ours. */
  private readonly catalog: CatalogReader;

  constructor(private readonly db: Database) {
    this.completionReads = new CompletionReadStore(db);
    this.catalog = new CatalogReader(db);
  }

  /**
   * The merchant's products among `ids`, with what checkout needs of their variants (in a
   * transaction when given one: on PGlite nothing else can run while one is open).
   */
  catalogProducts(merchantId: string, ids: readonly string[], tx?: Tx): Promise<Map<string, CatalogProduct>> {
    return this.catalog.productsForSale(merchantId, ids, tx);
  }

  /** The product of each SKU among `skus` that is one of the merchant's variants. */
  skuOwners(merchantId: string, skus: readonly string[]): Promise<Map<string, string>> {
    return this.catalog.skuOwners(merchantId, skus);
  }

  async find(merchantId: string, id: string): Promise<Session | null> {
    const [row] = await this.db.sql.query<WholeSessionRow>(sql`
      SELECT ${WHOLE_SESSION} FROM checkout_sessions AS s WHERE s.id = ${id} AND s.merchant_id = ${merchantId}`);
    return row ? decodeWholeSession(row) : null;
  }

  /**
   * Locks the session's row until the transaction ends, so that state changes of one session
   * serialize, and reads its lines — in one statement. `now` is the transaction's time
   * (PostgreSQL's now(), to the millisecond a timestamp(3) keeps).
   *
   * A statement reads as of its start: when it had to wait for the lock of a transaction that
   * then changed the session, the row it locked is that transaction's (PostgreSQL re-reads a row
   * it waited for), but its subqueries still see the lines as they were. Lines only ever change
   * with their session's row, under its lock, so the row version locked (`xmin`) is compared with
   * the one the statement's snapshot sees: when they differ, the lines are read again.
   */
  async lock(tx: Tx, merchantId: string, id: string): Promise<{ row: Session; now: Date } | null> {
    const [found] = await tx.query<{ session: string; now: string; lockedVersion: string; seenVersion: string | null; lines: string }>(sql`
      SELECT ${SESSION_JSON} AS session,
             to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS now,
             s.xmin::text AS "lockedVersion",
             (SELECT seen.xmin::text FROM checkout_sessions AS seen WHERE seen.id = s.id) AS "seenVersion",
             ${LINES_OF_S} AS lines
      FROM checkout_sessions AS s WHERE s.id = ${id} AND s.merchant_id = ${merchantId} FOR UPDATE OF s`);
    if (!found) return null;
    const lineItems = found.lockedVersion === found.seenVersion ? decodeLines(found.lines) : await this.lines(tx, id);
    return { row: { ...decodeSession(found.session), lineItems, order: null }, now: new Date(found.now) };
  }

  private async lines(tx: Tx, sessionId: string): Promise<SessionLine[]> {
    const [row] = await tx.query<{ lines: string }>(sql`
      SELECT ${LINES_OF_S} AS lines FROM checkout_sessions AS s WHERE s.id = ${sessionId}`);
    return decodeLines(row!.lines);
  }

  /**
   * Writes a new session and its lines in one statement (the lines from one JSON parameter), atomic
   * on its own or part of the caller's transaction; the answer is the rows as written, with the
   * database's timestamps.
   */
  async insert(session: NewSession, tx?: Tx): Promise<Session> {
    const columns = totalsColumns(session);
    const lineItems = lineRows(session.lines, session.totals.lineDiscounts);
    const fulfillmentOptionId = session.fulfillmentOptionId ?? null;
    const [row] = await (tx ?? this.db.sql).query<{ createdAt: string; updatedAt: string }>(sql`
      WITH s AS (
        INSERT INTO checkout_sessions (id, merchant_id, status, currency, shipping_address, customer, payment_method, client_secret,
                                       shipping_method, shipping_amount, tax_rate, tax_amount, subtotal, total,
                                       fulfillment_option_id, shipping_options, protocol_state, discount_codes, discount_amount, discounts,
                                       customer_id, shipping_address_id, saved_addresses, payment_reference, created_at, updated_at)
        VALUES (${session.id}, ${session.merchantId}, 'open'::"CheckoutStatus", ${columns.currency}, ${jsonText(session.shippingAddress)}::jsonb,
                ${jsonText(session.customer)}::jsonb, ${columns.paymentMethod}, ${session.clientSecret}, ${columns.shippingMethod},
                ${columns.shippingAmount}, ${columns.taxRate}, ${columns.taxAmount}, ${columns.subtotal}, ${columns.total},
                ${fulfillmentOptionId}, ${amountsJson(columns.shippingOptions)}::jsonb, ${jsonText(session.protocolState)}::json,
                ${JSON.stringify(columns.discountCodes)}::jsonb, ${columns.discountAmount}, ${amountsJson(columns.discounts)}::jsonb,
                ${session.buyer.customerId}, ${session.buyer.shippingAddressId}, ${jsonText(session.buyer.savedAddresses)}::jsonb, ${session.paymentReference ?? null}::text, ${NOW_UTC}, ${NOW_UTC})
        RETURNING created_at, updated_at),
      l AS (${insertLines(session.id, lineItems)})
      SELECT ${iso(sql`created_at`)} AS "createdAt", ${iso(sql`updated_at`)} AS "updatedAt" FROM s`);
    if (!row) throw new Error(`checkout session ${session.id} was not written`);
    return {
      id: session.id,
      merchantId: session.merchantId,
      status: 'open',
      clientSecret: session.clientSecret,
      paymentReference: session.paymentReference ?? null,
      ...columns,
      shippingAddress: session.shippingAddress,
      customer: session.customer,
      ...session.buyer,
      fulfillmentOptionId,
      protocolState: session.protocolState ?? null,
      createdAt: new Date(row.createdAt),
      updatedAt: new Date(row.updatedAt),
      lineItems,
      order: null,
    };
  }

  /** Rewrites the fields and totals of a locked session; `lines`, when given, replace every line. */
  async update(tx: Tx, locked: Session, fields: SessionFields, lines?: readonly CartLine[]): Promise<Session> {
    const columns = totalsColumns(fields);
    const fulfillmentOptionId = fields.fulfillmentOptionId === undefined ? locked.fulfillmentOptionId : fields.fulfillmentOptionId;
    const protocolState = fields.protocolState === undefined ? locked.protocolState : fields.protocolState;
    const shippingAddress = fields.shippingAddress ?? locked.shippingAddress;
    const customer = fields.customer ?? locked.customer;
    const [row] = await tx.query<{ updatedAt: string }>(sql`
      UPDATE checkout_sessions SET currency = ${columns.currency}, payment_method = ${columns.paymentMethod}, shipping_method = ${columns.shippingMethod},
        shipping_amount = ${columns.shippingAmount}, tax_rate = ${columns.taxRate}, tax_amount = ${columns.taxAmount}, subtotal = ${columns.subtotal},
        total = ${columns.total}, fulfillment_option_id = ${fulfillmentOptionId}, shipping_options = ${amountsJson(columns.shippingOptions)}::jsonb, protocol_state = ${jsonText(protocolState)}::json,
        shipping_address = ${jsonText(shippingAddress)}::jsonb, customer = ${jsonText(customer)}::jsonb,
        discount_codes = ${JSON.stringify(columns.discountCodes)}::jsonb, discount_amount = ${columns.discountAmount}, discounts = ${amountsJson(columns.discounts)}::jsonb,
        customer_id = ${fields.buyer.customerId}, shipping_address_id = ${fields.buyer.shippingAddressId}, saved_addresses = ${jsonText(fields.buyer.savedAddresses)}::jsonb, updated_at = ${NOW_UTC}
      WHERE id = ${locked.id} RETURNING ${iso(sql`updated_at`)} AS "updatedAt"`);
    const updated: Session = { ...locked, ...columns, ...fields.buyer, fulfillmentOptionId, protocolState, shippingAddress, customer, updatedAt: new Date(row!.updatedAt) };
    if (!lines) {
      // The same cart: only the lines' discounts may have changed.
      const lineItems = locked.lineItems.map((line, i) => ({ ...line, discount: fields.totals.lineDiscounts[i] ?? 0n }));
      if (lineItems.some((line, i) => line.discount !== locked.lineItems[i]!.discount)) await tx.execute(updateLineDiscounts(locked.id, lineItems));
      return { ...updated, lineItems };
    }
    const lineItems = lineRows(lines, fields.totals.lineDiscounts);
    await tx.execute(sql`DELETE FROM line_items WHERE session_id = ${locked.id}`);
    await tx.execute(insertLines(locked.id, lineItems));
    return { ...updated, lineItems };
  }

  /** Sets the status of a locked session. */
  async setStatus(tx: Tx, locked: Session, status: SessionStatus): Promise<Session> {
    const [row] = await tx.query<{ updatedAt: string }>(sql`
      UPDATE checkout_sessions SET status = ${status}::"CheckoutStatus", updated_at = ${NOW_UTC}
      WHERE id = ${locked.id} RETURNING ${iso(sql`updated_at`)} AS "updatedAt"`);
    return { ...locked, status, updatedAt: new Date(row!.updatedAt) };
  }

  async setProtocolState(tx: Tx, id: string, state: ProtocolState): Promise<void> {
    await tx.execute(sql`UPDATE checkout_sessions SET protocol_state = ${JSON.stringify(state)}::json, updated_at = ${NOW_UTC} WHERE id = ${id}`);
  }

  /**
   * The SKUs of an open cart that could not be taken now: under policy `deny` with fewer units
   * than asked, or gone from the catalog. A read, not a reservation: `complete` decides.
   */
  async shortages(tx: Tx | undefined, merchantId: string, takes: readonly (StockTake & { lines: number[] })[]): Promise<Shortage[]> {
    if (takes.length === 0) return [];
    const stock = await this.catalog.stockLevels(merchantId, takes.map((take) => take.sku), takes.map((take) => take.productId), tx);
    return shortagesOf(takes, stock);
  }

  /**
   * The whole of a completion's writes in one statement: the stock of every take (completion-sql.ts),
   * the order, the session marked `completed`, the `order.created` event with its deliveries, and
   * NOTIFY catalog_changed (heard when the transaction commits) that the products' stock changed —
   * all at `now`, the transaction's time. Answers the session as it now is, with its order, or the
   * first take that could not be filled: then the caller throws, and the transaction rolls back.
   */
  async complete<T extends StockTake>(
    tx: Tx,
    locked: Session,
    order: NewOrder,
    takes: readonly T[],
    now: Date,
    codes: readonly string[] = [],
    buyer: CompletionBuyer = { email: null, customerId: locked.customerId, shippingAddressId: locked.shippingAddressId },
    payment?: Statement,
  ): Promise<Completion<T>> {
    const { email, customerId, shippingAddressId } = buyer;
    const completed: Session = {
      ...locked,
      customerId,
      shippingAddressId,
      status: 'completed',
      updatedAt: now,
      order: { id: order.id, status: 'created', currency: order.currency, total: order.total, createdAt: now },
    };
    const products = [...new Set(takes.map((take) => take.productId))];
    const notice = products.length ? catalogEvents(this.db).notice({ merchantId: order.merchantId, ids: products, kind: 'stock' }) : null;
    const outbox = outboxEntry({ merchantId: order.merchantId, type: 'order.created', object: toCheckoutSession(completed) });
    const [row] = await tx.query<{ taken: number[]; redeemed: string[]; held: boolean }>(
      completionStatement({ order, sessionId: locked.id, takes, now, notice, outbox, codes, email, customerId, shippingAddressId, payment }),
    );
    const taken = new Set(row?.taken ?? []);
    const redeemed = new Set(row?.redeemed ?? []);
    const unredeemed = codes.filter((code) => !redeemed.has(code));
    const short = takes.findIndex((_, index) => !taken.has(index));
    const held = row?.held !== false;
    if (short === -1) return { completed, unredeemed, held };
    return { completed, unredeemed, held, failed: { take: takes[short]!, result: await this.shortfall(tx, order.merchantId, takes[short]!) } };
  }

  /** After the commit: this process's catalog read model reads the products' stock again before the caller answers. */
  stockTaken(merchantId: string, productIds: readonly string[]): Promise<void> {
    return catalogEvents(this.db).changed({ merchantId, ids: [...productIds], kind: 'stock' });
  }

  /** Why a take that the completion statement could not fill was refused: units left, or gone from the catalog. */
  private async shortfall(tx: Tx, merchantId: string, take: StockTake): Promise<Exclude<StockResult, { kind: 'taken' }>> {
    const left = await this.catalog.unitsLeft(tx, merchantId, take.productId, take.sku);
    return left === undefined ? { kind: 'gone' } : { kind: 'short', available: Math.max(0, left) };
  }
}
