/** `GET /orders`'s query, as the contract names it, checked and read into the store's OrderQuery. */
import { InvalidRequestError } from '../kernel/errors.js';
import { decodeCursor } from './order-cursor.js';
import type { OrderQuery, OrderStatus } from './order-record.js';

/** The filters and page of `GET /orders`, as the contract names them (limit's default already filled in). */
export interface OrderListParams {
  status?: OrderStatus;
  created_after?: string;
  created_before?: string;
  email?: string;
  customer_id?: string;
  limit: number;
  cursor?: string;
}

export const MAX_ORDERS_PAGE = 100;

/** An RFC 3339 instant, or 400 naming the parameter (the edge checks the form; this, that the date exists). */
function instant(text: string | undefined, param: string): Date | undefined {
  if (text === undefined) return undefined;
  const date = new Date(text);
  const day = /^(\d{4})-(\d\d)-(\d\d)/.exec(text);
  const real = day && new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))).toISOString().startsWith(day[0]);
  // PostgreSQL has no year 0: an instant before year 1 (UTC) is refused like any impossible date.
  if (Number.isNaN(date.getTime()) || !real || date.getUTCFullYear() < 1) throw new InvalidRequestError(`${param} must be an RFC 3339 date-time with a zone, like 2026-11-02T00:00:00Z`, param);
  return date;
}

export function orderQuery(params: OrderListParams): OrderQuery {
  const { limit } = params;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ORDERS_PAGE) throw new InvalidRequestError(`limit must be an integer from 1 to ${MAX_ORDERS_PAGE}`, 'limit');
  const createdAfter = instant(params.created_after, 'created_after');
  const createdBefore = instant(params.created_before, 'created_before');
  if (createdAfter && createdBefore && createdAfter >= createdBefore) throw new InvalidRequestError('created_after must be earlier than created_before', 'created_after');
  return {
    limit,
    ...(params.status ? { status: params.status } : {}),
    ...(createdAfter ? { createdAfter } : {}),
    ...(createdBefore ? { createdBefore } : {}),
    ...(params.email !== undefined ? { email: params.email } : {}),
    ...(params.customer_id !== undefined ? { customerId: params.customer_id } : {}),
    ...(params.cursor !== undefined ? { after: decodeCursor(params.cursor) } : {}),
  };
}
