/**
 * The only code that reads and writes checkout sessions, their line items and
 * orders, and that takes stock out of the catalog. Every write runs on the
 * transaction client the service hands in, and answers with what the database
 * returned inside that transaction (read-your-writes).
 */
import type { Address, Customer } from '../contract-types.js';
import type { Prisma } from '../db/database.js';
import { Prisma as PrismaNamespace, Prisma as SQL } from '../generated/prisma/client.js';
import type { Tx } from '../db/transaction.js';
import type { CheckoutSession as SessionRow, CheckoutStatus, LineItem as LineItemRow } from '../generated/prisma/client.js';
import { catalogChanged, changeSource, encodeChange } from '../catalog/catalog-events.js';
import { NOW_UTC } from '../db/sql-time.js';
import { outboxEntry } from '../webhooks/outbox.js';
import { completionStatement } from './completion-sql.js';
import type { CartLine, CatalogProduct } from './line-resolver.js';
import { lineSubtotal, type Totals } from './pricing/pricing.js';
import { toCheckoutSession, type SessionWithRelations } from './session-mapper.js';

/** Interactive transactions: wait at most 10 s for a connection, run at most 15 s. */
const TRANSACTION_OPTIONS = { timeout: 15_000, maxWait: 10_000 } as const;

const WITH_RELATIONS = { lineItems: { orderBy: { position: 'asc' } }, order: true } as const;

/** What an agent protocol keeps with a session beyond the domain's fields (opaque to the domain). */
export type ProtocolState = Record<string, unknown>;

export interface SessionFields {
  currency: string;
  shippingAddress: Address | null;
  customer: Customer | null;
  paymentMethod: string;
  totals: Totals;
  fulfillmentOptionId?: string | null;
  protocolState?: ProtocolState | null;
}

/** Stock short for one SKU of an open cart: the lines it comes from, what they ask, what is left (`null`: gone from the catalog). */
export interface Shortage {
  lines: number[];
  sku: string;
  requested: number;
  available: number | null;
}

export interface NewSession extends SessionFields {
  id: string;
  merchantId: string;
  clientSecret: string;
  lines: readonly CartLine[];
}

/** Stock to take: one line (or several lines of the same SKU, summed). */
export interface StockTake {
  productId: string;
  sku: string;
  quantity: number;
}

/** What became of a completion: the session completed, unless a take failed (then nothing may commit). */
export interface Completion<T extends StockTake> {
  completed: SessionWithRelations;
  failed?: { take: T; result: Exclude<StockResult, { kind: 'taken' }> };
}

/** `taken`; `short` of stock under policy `deny` (`available` units left); or `gone` from the catalog. */
export type StockResult = { kind: 'taken' } | { kind: 'short'; available: number } | { kind: 'gone' };

export interface NewOrder {
  id: string;
  merchantId: string;
  sessionId: string;
  currency: string;
  total: bigint;
}

function totalsColumns(fields: SessionFields) {
  const { totals } = fields;
  return {
    currency: fields.currency,
    paymentMethod: fields.paymentMethod,
    shippingMethod: totals.shippingMethod,
    shippingAmount: totals.shipping,
    taxRate: totals.taxRate,
    taxAmount: totals.tax,
    subtotal: totals.subtotal,
    total: totals.total,
    ...(fields.fulfillmentOptionId !== undefined ? { fulfillmentOptionId: fields.fulfillmentOptionId } : {}),
    ...(fields.protocolState !== undefined ? { protocolState: fields.protocolState === null ? PrismaNamespace.DbNull : (fields.protocolState as PrismaNamespace.InputJsonObject) } : {}),
  };
}

function lineRows(sessionId: string, lines: readonly CartLine[]) {
  return lines.map((line, position) => ({
    sessionId,
    position,
    productId: line.productId,
    variantSku: line.variantSku,
    quantity: line.quantity,
    title: line.title,
    unitAmount: line.unitAmount,
    subtotal: lineSubtotal(line),
    requiresShipping: line.requiresShipping,
    taxable: line.taxable,
  }));
}

/** A line as JSON (amounts as text: a JSON number would not hold every bigint). */
const LINE_JSON = SQL.sql`json_build_object('sessionId', l.session_id, 'position', l.position, 'productId', l.product_id, 'variantSku', l.variant_sku,
  'quantity', l.quantity, 'title', l.title, 'unitAmount', l.unit_amount::text, 'subtotal', l.subtotal::text,
  'requiresShipping', l.requires_shipping, 'taxable', l.taxable)`;

function decodeLines(text: string): LineItemRow[] {
  return (JSON.parse(text) as (Omit<LineItemRow, 'unitAmount' | 'subtotal'> & { unitAmount: string; subtotal: string })[]).map((line) => ({
    ...line,
    unitAmount: BigInt(line.unitAmount),
    subtotal: BigInt(line.subtotal),
  }));
}

export class CheckoutStore {
  constructor(private readonly prisma: Prisma) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work, TRANSACTION_OPTIONS);
  }

  /** The merchant's products among `ids`, with what checkout needs of their variants. */
  async catalogProducts(merchantId: string, ids: readonly string[], db: Tx | Prisma = this.prisma): Promise<Map<string, CatalogProduct>> {
    const rows = await db.product.findMany({
      where: { merchantId, id: { in: [...new Set(ids)] } },
      select: {
        id: true, title: true, price: true, currency: true,
        variants: { orderBy: { position: 'asc' }, select: { sku: true, price: true, currency: true, requiresShipping: true, taxable: true } },
      },
    });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The product of each SKU among `skus` that is one of the merchant's variants. */
  async skuOwners(merchantId: string, skus: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.prisma.variant.findMany({ where: { merchantId, sku: { in: [...new Set(skus)] } }, select: { sku: true, productId: true } });
    return new Map(rows.map((row) => [row.sku, row.productId]));
  }

  find(merchantId: string, id: string): Promise<SessionWithRelations | null> {
    return this.prisma.checkoutSession.findFirst({ where: { id, merchantId }, include: WITH_RELATIONS });
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
  async lock(tx: Tx, merchantId: string, id: string): Promise<{ row: SessionWithRelations; now: Date } | null> {
    const [found] = await tx.$queryRaw<(SessionRow & { now: Date; lockedVersion: string; seenVersion: string | null; lines: string })[]>`
      SELECT s.id, s.merchant_id AS "merchantId", s.status::text AS status, s.currency, s.shipping_address AS "shippingAddress", s.customer,
             s.payment_method AS "paymentMethod", s.client_secret AS "clientSecret", s.shipping_method AS "shippingMethod",
             s.shipping_amount AS "shippingAmount", s.tax_rate AS "taxRate", s.tax_amount AS "taxAmount", s.subtotal, s.total,
             s.fulfillment_option_id AS "fulfillmentOptionId", s.protocol_state AS "protocolState", s.created_at AS "createdAt", s.updated_at AS "updatedAt",
             date_trunc('milliseconds', now()) AS now,
             s.xmin::text AS "lockedVersion",
             (SELECT seen.xmin::text FROM checkout_sessions AS seen WHERE seen.id = s.id) AS "seenVersion",
             (SELECT coalesce(json_agg(${LINE_JSON} ORDER BY l.position), '[]')::text FROM line_items AS l WHERE l.session_id = s.id) AS lines
      FROM checkout_sessions AS s WHERE s.id = ${id} AND s.merchant_id = ${merchantId} FOR UPDATE OF s`;
    if (!found) return null;
    const { now, lockedVersion, seenVersion, lines, ...row } = found;
    const lineItems = lockedVersion === seenVersion ? decodeLines(lines) : await this.lines(tx, id);
    return { row: { ...row, lineItems, order: null }, now: new Date(now) };
  }

  private lines(tx: Tx, sessionId: string): Promise<LineItemRow[]> {
    return tx.$queryRaw<LineItemRow[]>`
      SELECT session_id AS "sessionId", position, product_id AS "productId", variant_sku AS "variantSku", quantity, title,
             unit_amount AS "unitAmount", subtotal, requires_shipping AS "requiresShipping", taxable
      FROM line_items WHERE session_id = ${sessionId} ORDER BY position`;
  }

  /**
   * Writes a new session and its lines in one statement (the lines from one JSON parameter), atomic
   * on its own or part of the caller's transaction; the answer is the rows as written, with the
   * database's timestamps.
   */
  async insert(session: NewSession, tx?: Tx): Promise<SessionWithRelations> {
    const columns = totalsColumns(session);
    const lineItems = lineRows(session.id, session.lines);
    const lines = JSON.stringify(lineItems, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    const address = session.shippingAddress ? JSON.stringify(session.shippingAddress) : null;
    const customer = session.customer ? JSON.stringify(session.customer) : null;
    const fulfillmentOptionId = session.fulfillmentOptionId ?? null;
    const protocolState = session.protocolState ? JSON.stringify(session.protocolState) : null;
    const [row] = await (tx ?? this.prisma).$queryRaw<{ createdAt: Date; updatedAt: Date }[]>`
      WITH s AS (
        INSERT INTO checkout_sessions (id, merchant_id, status, currency, shipping_address, customer, payment_method, client_secret,
                                       shipping_method, shipping_amount, tax_rate, tax_amount, subtotal, total,
                                       fulfillment_option_id, protocol_state, created_at, updated_at)
        VALUES (${session.id}, ${session.merchantId}, 'open'::"CheckoutStatus", ${columns.currency}, ${address}::jsonb, ${customer}::jsonb,
                ${columns.paymentMethod}, ${session.clientSecret}, ${columns.shippingMethod}, ${columns.shippingAmount}, ${columns.taxRate},
                ${columns.taxAmount}, ${columns.subtotal}, ${columns.total}, ${fulfillmentOptionId}, ${protocolState}::json, ${NOW_UTC}, ${NOW_UTC})
        RETURNING created_at, updated_at),
      l AS (
        INSERT INTO line_items (session_id, position, product_id, variant_sku, quantity, title, unit_amount, subtotal, requires_shipping, taxable)
        SELECT r."sessionId", r.position, r."productId", r."variantSku", r.quantity, r.title, r."unitAmount", r.subtotal, r."requiresShipping", r.taxable
        FROM jsonb_to_recordset(${lines}::jsonb) AS r("sessionId" text, position int, "productId" text, "variantSku" text, quantity int,
          title text, "unitAmount" bigint, subtotal bigint, "requiresShipping" boolean, taxable boolean))
      SELECT created_at AS "createdAt", updated_at AS "updatedAt" FROM s`;
    if (!row) throw new Error(`checkout session ${session.id} was not written`);
    return {
      id: session.id,
      merchantId: session.merchantId,
      status: 'open',
      clientSecret: session.clientSecret,
      currency: columns.currency,
      paymentMethod: columns.paymentMethod,
      shippingMethod: columns.shippingMethod,
      shippingAmount: columns.shippingAmount,
      taxRate: columns.taxRate,
      taxAmount: columns.taxAmount,
      subtotal: columns.subtotal,
      total: columns.total,
      shippingAddress: session.shippingAddress as SessionRow['shippingAddress'],
      customer: session.customer as SessionRow['customer'],
      fulfillmentOptionId,
      protocolState: (session.protocolState ?? null) as SessionRow['protocolState'],
      createdAt: new Date(row.createdAt),
      updatedAt: new Date(row.updatedAt),
      lineItems,
      order: null,
    };
  }

  /** Rewrites the fields and totals of a locked session; `lines`, when given, replace every line. */
  async update(tx: Tx, locked: SessionWithRelations, fields: SessionFields, lines?: readonly CartLine[]): Promise<SessionWithRelations> {
    const row = await tx.checkoutSession.update({
      where: { id: locked.id },
      data: {
        ...totalsColumns(fields),
        ...(fields.shippingAddress ? { shippingAddress: fields.shippingAddress } : {}),
        ...(fields.customer ? { customer: fields.customer } : {}),
      },
    });
    if (!lines) return { ...row, lineItems: locked.lineItems, order: locked.order };
    await tx.lineItem.deleteMany({ where: { sessionId: locked.id } });
    const lineItems = await tx.lineItem.createManyAndReturn({ data: lineRows(locked.id, lines) });
    return { ...row, lineItems, order: locked.order };
  }

  /** Sets the status of a locked session. */
  async setStatus(tx: Tx, locked: SessionWithRelations, status: CheckoutStatus): Promise<SessionWithRelations> {
    const row = await tx.checkoutSession.update({ where: { id: locked.id }, data: { status } });
    return { ...row, lineItems: locked.lineItems, order: locked.order };
  }

  async setProtocolState(tx: Tx, id: string, state: ProtocolState): Promise<void> {
    await tx.checkoutSession.update({ where: { id }, data: { protocolState: state as PrismaNamespace.InputJsonObject } });
  }

  /**
   * The SKUs of an open cart that could not be taken now: under policy `deny` with fewer units
   * than asked, or gone from the catalog. A read, not a reservation: `complete` decides.
   */
  async shortages(db: Tx | Prisma | undefined, merchantId: string, takes: readonly (StockTake & { lines: number[] })[]): Promise<Shortage[]> {
    if (takes.length === 0) return [];
    const client = db ?? this.prisma;
    const skus = takes.map((take) => take.sku);
    const [variants, bare] = await Promise.all([
      client.variant.findMany({ where: { merchantId, sku: { in: skus } }, select: { sku: true, productId: true, quantity: true, policy: true } }),
      client.product.findMany({ where: { merchantId, id: { in: takes.map((take) => take.productId) }, variants: { none: {} } }, select: { id: true, quantity: true, policy: true } }),
    ]);
    const shortages: Shortage[] = [];
    for (const take of takes) {
      const stock = variants.find((v) => v.sku === take.sku && v.productId === take.productId) ?? (take.sku === take.productId ? bare.find((p) => p.id === take.productId) : undefined);
      if (!stock) shortages.push({ lines: take.lines, sku: take.sku, requested: take.quantity, available: null });
      else if (stock.policy === 'deny' && stock.quantity < take.quantity) {
        shortages.push({ lines: take.lines, sku: take.sku, requested: take.quantity, available: Math.max(0, stock.quantity) });
      }
    }
    return shortages;
  }

  /**
   * The whole of a completion's writes in one statement: the stock of every take (completion-sql.ts),
   * the order, the session marked `completed`, the `order.created` event with its deliveries, and
   * NOTIFY catalog_changed (heard when the transaction commits) that the products' stock changed —
   * all at `now`, the transaction's time. Answers the session as it now is, with its order, or the
   * first take that could not be filled: then the caller throws, and the transaction rolls back.
   */
  async complete<T extends StockTake>(tx: Tx, locked: SessionWithRelations, order: NewOrder, takes: readonly T[], now: Date): Promise<Completion<T>> {
    const completed: SessionWithRelations = {
      ...locked,
      status: 'completed',
      updatedAt: now,
      order: { id: order.id, merchantId: order.merchantId, checkoutSessionId: order.sessionId, status: 'created', currency: order.currency, total: order.total, createdAt: now },
    };
    const products = [...new Set(takes.map((take) => take.productId))];
    const notice = products.length ? encodeChange(changeSource(this.prisma), { merchantId: order.merchantId, ids: products, kind: 'stock' }) : null;
    const outbox = outboxEntry({ merchantId: order.merchantId, type: 'order.created', object: toCheckoutSession(completed) });
    const [row] = await tx.$queryRaw<{ taken: number[] }[]>(completionStatement({ order, sessionId: locked.id, takes, now, notice, outbox }));
    const taken = new Set(row?.taken ?? []);
    const short = takes.findIndex((_, index) => !taken.has(index));
    if (short === -1) return { completed };
    return { completed, failed: { take: takes[short]!, result: await this.shortfall(tx, order.merchantId, takes[short]!) } };
  }

  /** After the commit: this process's catalog read model reads the products' stock again before the caller answers. */
  stockTaken(merchantId: string, productIds: readonly string[]): Promise<void> {
    return catalogChanged(this.prisma, { merchantId, ids: [...productIds], kind: 'stock' });
  }

  /** Why a take that the completion statement could not fill was refused: units left, or gone from the catalog. */
  private async shortfall(tx: Tx, merchantId: string, take: StockTake): Promise<Exclude<StockResult, { kind: 'taken' }>> {
    const { productId, sku } = take;
    const [variant] = await tx.$queryRaw<{ quantity: number }[]>`
      SELECT quantity FROM variants WHERE merchant_id = ${merchantId} AND product_id = ${productId} AND sku = ${sku}`;
    if (variant) return { kind: 'short', available: Math.max(0, variant.quantity) };
    if (sku !== productId) return { kind: 'gone' };
    const [product] = await tx.$queryRaw<{ quantity: number }[]>`
      SELECT quantity FROM products WHERE merchant_id = ${merchantId} AND id = ${productId}
        AND NOT EXISTS (SELECT 1 FROM variants v WHERE v.merchant_id = ${merchantId} AND v.product_id = ${productId})`;
    return product ? { kind: 'short', available: Math.max(0, product.quantity) } : { kind: 'gone' };
  }
}
