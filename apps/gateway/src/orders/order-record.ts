/**
 * An order as the orders' store reads it: the completed checkout session it came from (lines,
 * amounts, customer and address are frozen there at completion; `session.order` is the order's
 * own row) and when its status last changed. Hand-written, not Prisma's row.
 */
import type { Session, SessionOrder } from '../checkout/session.js';

export interface OrderRecord {
  session: Session & { order: SessionOrder };
  updatedAt: Date;
}

/** Where a listing stopped: the last order's `created_at` and `id` (orders are listed by both, descending). */
export interface OrderPosition {
  createdAt: Date;
  id: string;
}

/** What `GET /orders` asks of the store, already checked. */
export interface OrderQuery {
  status?: SessionOrder['status'];
  /** Strict bounds on created_at. */
  createdAfter?: Date;
  createdBefore?: Date;
  /** The buyer's e-mail on the session, compared ignoring case. */
  email?: string;
  /** Orders after this position (the previous page's last). */
  after?: OrderPosition;
  limit: number;
}
