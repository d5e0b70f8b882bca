/**
 * The baseline: the SQL statements the gateway issues for one create and one
 * complete (as Prisma sends them, minus its column lists), sent directly with
 * `pg`, with no HTTP, validation, pricing providers or ORM in between.
 */
import { randomBytes } from 'node:crypto';

/** The parts of `pg` the bench uses (pg is a dependency of the gateway, not of the repository root). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
}
export interface PoolClient extends Queryable {
  release(): void;
}
export interface Pool extends Queryable {
  connect(): Promise<PoolClient>;
  end(): Promise<void>;
}
export interface PgModule {
  Pool: new (options: { connectionString: string; max: number }) => Pool;
  Client: new (options: { connectionString: string }) => Queryable & { connect(): Promise<void>; end(): Promise<void> };
}

export interface CartItem {
  productId: string;
  quantity: number;
}

const id = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url').slice(0, 24)}`;

async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** POST /checkout_sessions: read the catalog, then insert the session and its lines in one transaction. */
export async function createSession(pool: Pool, merchantId: string, items: CartItem[]): Promise<string> {
  const ids = items.map((item) => item.productId);
  const products = await pool.query('SELECT merchant_id, id, title, price, currency FROM products WHERE merchant_id = $1 AND id = ANY($2)', [merchantId, ids]);
  const variants = await pool.query(
    'SELECT merchant_id, sku, price, currency, requires_shipping, taxable, product_id FROM variants WHERE merchant_id = $1 AND product_id = ANY($2) ORDER BY position',
    [merchantId, ids],
  );
  const lines = items.map((item) => {
    const variant = variants.rows.find((v) => v.product_id === item.productId)!;
    const title = products.rows.find((p) => p.id === item.productId)!.title as string;
    const unit = Math.round(variant.price * 100);
    return { ...item, sku: variant.sku as string, title, unit, subtotal: unit * item.quantity };
  });
  const subtotal = lines.reduce((sum, line) => sum + line.subtotal, 0);
  const tax = Math.round(subtotal * 0.0725);
  const shipping = subtotal >= 5000 ? 0 : 500;
  const sessionId = id('cs');
  const address = { line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
  await inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO checkout_sessions (id, merchant_id, status, currency, shipping_address, payment_method, client_secret, shipping_method,
         shipping_amount, tax_rate, tax_amount, subtotal, total, created_at, updated_at)
       VALUES ($1, $2, 'open', 'USD', $3, 'demo_card', $4, 'standard', $5, 0.0725, $6, $7, $8, now(), now()) RETURNING *`,
      [sessionId, merchantId, address, `${sessionId}_secret_${id('x')}`, shipping, tax, subtotal, subtotal + tax + shipping],
    );
    const values = lines.map((_, i) => `($1, ${i}, $${2 + i * 6}, $${3 + i * 6}, $${4 + i * 6}, $${5 + i * 6}, $${6 + i * 6}, $${7 + i * 6}, true, true)`);
    await client.query(
      `INSERT INTO line_items (session_id, position, product_id, variant_sku, quantity, title, unit_amount, subtotal, requires_shipping, taxable)
       VALUES ${values.join(', ')} RETURNING *`,
      [sessionId, ...lines.flatMap((line) => [line.productId, line.sku, line.quantity, line.title, line.unit, line.subtotal])],
    );
  });
  return sessionId;
}

/** POST …/complete: lock, read, take stock per line, create the order, complete, queue the event. */
export async function completeSession(pool: Pool, merchantId: string, sessionId: string): Promise<void> {
  await inTransaction(pool, async (client) => {
    const session = (await client.query('SELECT * FROM checkout_sessions WHERE id = $1 AND merchant_id = $2 FOR UPDATE', [sessionId, merchantId])).rows[0]!;
    if (session.status !== 'open') throw new Error(`baseline: session ${sessionId} is ${session.status}`);
    const lines = (await client.query('SELECT * FROM line_items WHERE session_id = $1 ORDER BY position', [sessionId])).rows;
    const takes = [...lines].sort((a, b) => (a.variant_sku < b.variant_sku ? -1 : 1));
    for (const line of takes) {
      const taken = await client.query(
        `UPDATE variants SET quantity = GREATEST(quantity - $1, 0)
         WHERE merchant_id = $2 AND product_id = $3 AND sku = $4 AND (policy = 'continue' OR quantity >= $1)`,
        [line.quantity, merchantId, line.product_id, line.variant_sku],
      );
      if (taken.rowCount !== 1) throw new Error(`baseline: not enough stock for ${line.variant_sku}`);
    }
    const order = (await client.query(
      `INSERT INTO orders (id, merchant_id, checkout_session_id, status, currency, total, created_at)
       VALUES ($1, $2, $3, 'created', $4, $5, now()) RETURNING *`,
      [id('ord'), merchantId, sessionId, session.currency, session.total],
    )).rows[0];
    const completed = (await client.query(`UPDATE checkout_sessions SET status = 'completed', updated_at = now() WHERE id = $1 RETURNING *`, [sessionId])).rows[0];
    const object = { ...completed, line_items: lines, order };
    const eventId = id('evt');
    const payload = JSON.stringify({ id: eventId, type: 'order.created', created: new Date().toISOString(), data: { object } });
    await client.query(`INSERT INTO webhook_events (id, merchant_id, type, payload, created_at) VALUES ($1, $2, 'order.created', $3, now()) RETURNING *`, [eventId, merchantId, payload]);
    await client.query('SELECT id FROM webhook_endpoints WHERE merchant_id = $1 AND disabled_at IS NULL', [merchantId]);
  });
}
