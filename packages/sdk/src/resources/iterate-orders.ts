import type { Order, OrderList } from '../generated/types.gen.js';
import type { RequestOptions } from '../http/transport.js';
import { DEFAULT_ITERATE_LIMIT, type IterateOptions } from './iterate-products.js';
import type { OrderListParams } from './order-list-params.js';

const DEFAULT_PAGE_SIZE = 100;

type List = (params: OrderListParams, options: RequestOptions) => Promise<OrderList>;

/**
 * Walks the pages of an order listing, newest first, from `params.cursor` (default: the first
 * page), following `next_cursor` until `has_more` is false. An order already yielded is skipped
 * if a later page shows it again.
 */
export async function* iterateOrders(list: List, params: OrderListParams, options: IterateOptions = {}): AsyncGenerator<Order, void, undefined> {
  const { limit = DEFAULT_ITERATE_LIMIT, ...requestOptions } = options;
  if (typeof limit !== 'number' || Number.isNaN(limit) || limit < 0) throw new TypeError(`limit must be a number ≥ 0 (or Infinity), got ${String(limit)}`);
  const { cursor: firstCursor, limit: pageSize = DEFAULT_PAGE_SIZE, ...filters } = params;
  const seen = new Set<string>();
  let cursor = firstCursor;
  while (seen.size < limit) {
    const result = await list({ ...filters, limit: pageSize, ...(cursor === undefined ? {} : { cursor }) }, requestOptions);
    for (const order of result.items) {
      if (seen.has(order.id)) continue;
      seen.add(order.id);
      yield order;
      if (seen.size >= limit) return;
    }
    if (!result.has_more || result.next_cursor === null || result.next_cursor === cursor) return;
    cursor = result.next_cursor;
  }
}
