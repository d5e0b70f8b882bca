/** Orders after checkout: the only code here that touches Prisma. */
import type { Prisma } from '../db/database.js';
import type { Tx } from '../db/transaction.js';
import type { SessionWithRelations } from '../checkout/session-mapper.js';

export type OrderStatus = 'created' | 'fulfilled' | 'canceled' | 'refunded';

export class OrderStore {
  constructor(private readonly prisma: Prisma) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }

  /** Moves the order to `to` only from one of `from` (a compare-and-set); false when it was not there. */
  async changeStatus(tx: Tx, merchantId: string, orderId: string, from: readonly OrderStatus[], to: OrderStatus): Promise<boolean> {
    const { count } = await tx.order.updateMany({ where: { id: orderId, merchantId, status: { in: [...from] } }, data: { status: to } });
    return count === 1;
  }

  async currentStatus(tx: Tx, merchantId: string, orderId: string): Promise<OrderStatus | null> {
    const row = await tx.order.findFirst({ where: { id: orderId, merchantId }, select: { status: true } });
    return row?.status ?? null;
  }

  /** The order's checkout session with its lines and the order, as the outbox events carry it. */
  async sessionOf(tx: Tx, merchantId: string, orderId: string): Promise<SessionWithRelations> {
    const order = await tx.order.findFirstOrThrow({ where: { id: orderId, merchantId } });
    const session = await tx.checkoutSession.findUniqueOrThrow({ where: { id: order.checkoutSessionId }, include: { lineItems: true } });
    return { ...session, order };
  }
}
