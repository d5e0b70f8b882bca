/**
 * Checkout under concurrency, through real HTTP: no overselling, one winner per
 * session, no deadlocks, and all-or-nothing completion. On PostgreSQL when
 * TEST_DATABASE_URL is set (50 buyers for 10 units), else on PGlite (8 for 3).
 */
import pg from 'pg';
import { Prisma } from '../src/generated/prisma/client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutSession } from '../src/contract/types.js';
import { checkoutCalls, SF_ADDRESS, stocked, type CheckoutCalls, type Reply } from './support/checkout.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const BUYERS = onPostgres ? 50 : 8;
const UNITS = onPostgres ? 10 : 3;

let gateway: TestGateway;
let api: CheckoutCalls;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [
    stocked('scarce', [{ sku: 'scarce-1', price: 19.99, quantity: UNITS }]),
    stocked('left', [{ price: 10, quantity: 1000 }]),
    stocked('right', [{ price: 10, quantity: 1000 }]),
    stocked('single', [{ price: 10, quantity: 1000 }]),
    stocked('plenty', [{ price: 10, quantity: 1000 }]),
  ]);
  api = checkoutCalls(gateway.url, await gateway.createKey({ merchantIds: ['shop'] }));
});

afterAll(() => gateway?.close());

async function openSessions(count: number, items: unknown[] | ((i: number) => unknown[])): Promise<CheckoutSession[]> {
  const sessions: CheckoutSession[] = [];
  for (let i = 0; i < count; i++) {
    const reply = await api.create({ items: typeof items === 'function' ? items(i) : items, shipping_address: SF_ADDRESS });
    expect(reply.status).toBe(201);
    sessions.push(reply.body.checkout_session);
  }
  return sessions;
}

const byStatus = (replies: Reply[], status: number) => replies.filter((reply) => reply.status === status);

describe('concurrent completion', () => {
  it(`sells exactly ${UNITS} units to ${BUYERS} buyers completing at once, and refuses the rest clearly`, async () => {
    const sessions = await openSessions(BUYERS, [{ product_id: 'scarce' }]);
    const replies = await Promise.all(sessions.map((session) => api.complete(session.id)));

    expect(replies.map((r) => r.status).sort()).toEqual([...Array(UNITS).fill(200), ...Array(BUYERS - UNITS).fill(400)]);
    for (const refused of byStatus(replies, 400)) {
      expect(refused.body).toEqual({
        code: 'invalid_request',
        param: 'line_items[0].quantity',
        detail: 'Not enough stock for line_items[0] (sku scarce-1, Title of scarce): 1 requested, 0 available',
      });
    }
    const product = (await api.product('scarce')).body;
    expect(product.variants[0]!.inventory).toEqual({ status: 'out_of_stock', quantity: 0, policy: 'deny' });
    expect(product.availability).toMatchObject({ status: 'out_of_stock', quantity: 0 });

    const winners = byStatus(replies, 200).map((r) => r.body.checkout_session);
    const prisma = gateway.db.prisma;
    const orders = await prisma.order.findMany({ where: { checkoutSessionId: { in: sessions.map((s) => s.id) } } });
    expect(orders.map((o) => o.checkoutSessionId).sort()).toEqual(winners.map((s) => s.id).sort());
    expect(new Set(winners.map((s) => s.order!.id)).size).toBe(UNITS);
    const events = await prisma.webhookEvent.findMany({ where: { type: 'order.created' } });
    const eventSessions = events.map((e) => (e.payload as { data: { object: CheckoutSession } }).data.object.id);
    expect(eventSessions.filter((id) => sessions.some((s) => s.id === id))).toHaveLength(UNITS);
    const stillOpen = await prisma.checkoutSession.count({ where: { id: { in: sessions.map((s) => s.id) }, status: 'open' } });
    expect(stillOpen).toBe(BUYERS - UNITS);
  });

  it('lets only one of many concurrent completions of the same session win; the others get 405', async () => {
    const [session] = await openSessions(1, [{ product_id: 'single', quantity: 7 }]);
    const replies = await Promise.all(Array.from({ length: 10 }, () => api.complete(session!.id)));
    expect(byStatus(replies, 200)).toHaveLength(1);
    expect(byStatus(replies, 405)).toHaveLength(9);
    expect(await gateway.db.prisma.order.count({ where: { checkoutSessionId: session!.id } })).toBe(1);
    expect((await api.product('single')).body.variants[0]!.inventory.quantity).toBe(993);
  });

  it('lets either cancel or complete win a race on one session, never both', async () => {
    const sessions = await openSessions(6, [{ product_id: 'plenty', quantity: 2 }]);
    const before = (await api.product('plenty')).body.variants[0]!.inventory.quantity;
    const races = await Promise.all(sessions.map((s) => Promise.all([api.complete(s.id), api.cancel(s.id)])));
    let completed = 0;
    for (const [complete, cancel] of races) {
      expect([complete.status, cancel.status].sort()).toEqual([200, 405]);
      if (complete.status === 200) completed++;
    }
    const orders = await gateway.db.prisma.order.count({ where: { checkoutSessionId: { in: sessions.map((s) => s.id) } } });
    expect(orders).toBe(completed);
    expect((await api.product('plenty')).body.variants[0]!.inventory.quantity).toBe(before - 2 * completed);
  });

  it('orders the session that was completed, even when a PATCH races it', async () => {
    const sessions = await openSessions(6, [{ product_id: 'plenty', quantity: 1 }]);
    const before = (await api.product('plenty')).body.variants[0]!.inventory.quantity;
    const races = await Promise.all(sessions.map((s) => Promise.all([api.complete(s.id), api.update(s.id, { items: [{ product_id: 'plenty', quantity: 3 }] })])));
    let taken = 0;
    for (const [complete, update] of races) {
      expect(complete.status).toBe(200);
      expect([200, 405]).toContain(update.status);
      const ordered = complete.body.checkout_session;
      taken += ordered.line_items[0]!.quantity;
      expect(ordered.line_items[0]!.quantity).toBe(update.status === 200 ? 3 : 1);
    }
    expect((await api.product('plenty')).body.variants[0]!.inventory.quantity).toBe(before - taken);
  });

  it.runIf(onPostgres)('completes the cart as changed by a transaction whose lock it waited for, not as it was when it began', async () => {
    const [session] = await openSessions(1, [{ product_id: 'plenty', quantity: 1 }]);
    const before = (await api.product('plenty')).body.variants[0]!.inventory.quantity;
    const other = new pg.Client({ connectionString: gateway.db.url });
    await other.connect();
    try {
      // Another writer (as a PATCH does) holds the session's lock and changes its lines and its row.
      await other.query('BEGIN');
      await other.query('SELECT id FROM checkout_sessions WHERE id = $1 FOR UPDATE', [session!.id]);
      await other.query('UPDATE line_items SET quantity = 3, subtotal = unit_amount * 3 WHERE session_id = $1', [session!.id]);
      await other.query('UPDATE checkout_sessions SET updated_at = now() WHERE id = $1', [session!.id]);
      const completing = api.complete(session!.id);
      // Until the completion waits for that lock…
      // (In a transaction pg_stat_activity is one snapshot, taken at its first read: cleared, each poll sees it anew.)
      await expect
        .poll(
          async () => {
            await other.query('SELECT pg_stat_clear_snapshot()');
            return (await other.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))')).rows[0].n;
          },
          { interval: 10, message: 'the completion never waited for the lock' },
        )
        .toBeGreaterThan(0);
      await other.query('COMMIT');
      const completed = await completing;
      expect(completed.status).toBe(200);
      expect(completed.body.checkout_session.line_items[0]!.quantity).toBe(3);
      expect((await api.product('plenty')).body.variants[0]!.inventory.quantity).toBe(before - 3);
    } finally {
      await other.end();
    }
  });

  it('never deadlocks when carts hold the same SKUs in opposite orders', async () => {
    const sessions = await openSessions(onPostgres ? 30 : 8, (i) =>
      i % 2 ? [{ product_id: 'left' }, { product_id: 'right' }] : [{ product_id: 'right' }, { product_id: 'left' }],
    );
    const replies = await Promise.all(sessions.map((s) => api.complete(s.id)));
    expect(replies.map((r) => r.status)).toEqual(sessions.map(() => 200));
    const left = (await api.product('left')).body.variants[0]!.inventory.quantity;
    const right = (await api.product('right')).body.variants[0]!.inventory.quantity;
    expect([left, right]).toEqual([1000 - sessions.length, 1000 - sessions.length]);
  });
});

describe('all or nothing', () => {
  it('rolls back stock, order, event and status when the transaction fails just before it commits', async () => {
    const [session] = await openSessions(1, [{ product_id: 'single', quantity: 2 }, { product_id: 'plenty', quantity: 1 }]);
    const prisma = gateway.db.prisma;
    const stock = async () => (await prisma.variant.findMany({ where: { productId: { in: ['single', 'plenty'] } }, orderBy: { sku: 'asc' } })).map((v) => v.quantity);
    const before = { stock: await stock(), events: await prisma.webhookEvent.count() };

    let seenInside: { status?: string; orders?: number } = {};
    const failing = gateway.services.checkout.complete('shop', session!.id, async (tx, result) => {
      const [row] = await tx.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM orders WHERE checkout_session_id = ${session!.id}`);
      seenInside = { status: result.status, orders: row!.n };
      throw new Error('crash before commit');
    });
    await expect(failing).rejects.toThrow('crash before commit');

    expect(seenInside).toEqual({ status: 'completed', orders: 1 }); // the hook ran inside the transaction, after the writes
    expect(await stock()).toEqual(before.stock);
    expect(await prisma.webhookEvent.count()).toBe(before.events);
    expect(await prisma.order.count({ where: { checkoutSessionId: session!.id } })).toBe(0);
    expect((await api.get(session!.id)).body.checkout_session.status).toBe('open');
    expect((await api.complete(session!.id)).status).toBe(200); // and it can still be completed
  });
});
