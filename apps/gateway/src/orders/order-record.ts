/**
 * An order as the orders' store reads it: the completed checkout session it came from (lines,
 * amounts, customer and address are frozen there at completion; `session.order` is the order's
 * own row) and when its status last changed. Hand-written, not Prisma's row.
 */
import type { Session, SessionOrder } from '../checkout/session.js';
import type { Order } from '../contract/types.js';

/** The contract's order statuses (the session's own type still names the first four). */
export type OrderStatus = Order['status'];

export interface OrderRecord {
  session: Session & { order: SessionOrder };
  updatedAt: Date;
  /** When what was not fulfilled was canceled; null: not canceled. */
  canceledAt: Date | null;
  /** Oldest first. */
  fulfillments: FulfillmentRecord[];
  /** Oldest first. */
  refunds: RefundRecord[];
}

/** Units of one session line, by the line's `position`. */
export interface LineUnits {
  position: number;
  quantity: number;
}

export interface FulfillmentRecord {
  id: string;
  carrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  lines: LineUnits[];
  createdAt: Date;
  deliveredAt: Date | null;
}

export type RefundReason = 'requested_by_customer' | 'damaged' | 'not_received' | 'duplicate' | 'fraudulent' | 'canceled' | 'other';

export interface RefundRecord {
  id: string;
  /** Integer minor units of the order's currency. */
  amount: bigint;
  reason: RefundReason;
  note: string | null;
  /** Units that will not be fulfilled because of it. */
  lines: LineUnits[];
  /** The payment provider's reference of the refund; null until its payment operation succeeded. */
  reference: string | null;
  createdAt: Date;
}

/** Where a listing stopped: the last order's `created_at` and `id` (orders are listed by both, descending). */
export interface OrderPosition {
  createdAt: Date;
  id: string;
}

/** What `GET /orders` asks of the store, already checked. */
export interface OrderQuery {
  status?: OrderStatus;
  /** Strict bounds on created_at. */
  createdAfter?: Date;
  createdBefore?: Date;
  /** The buyer's e-mail on the session, compared ignoring case. */
  email?: string;
  /** The merchant's customer (the session's customer_id). */
  customerId?: string;
  /** Orders after this position (the previous page's last). */
  after?: OrderPosition;
  limit: number;
}
