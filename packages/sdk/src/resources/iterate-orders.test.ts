import { describe, expect, it } from 'vitest';
import type { Order, OrderList } from '../generated/types.gen.js';
import { order } from '../testing/fixtures.js';
import { iterateOrders } from './iterate-orders.js';
import type { OrderListParams } from './order-list-params.js';

/** `total` orders (o0 newest) served page by page behind cursors `c<index>`, recording the queries. */
function orders(total: number, ids: (from: number, size: number) => string[] = (from, size) => range(from, Math.min(from + size, total))) {
  const queries: OrderListParams[] = [];
  const list = async (query: OrderListParams): Promise<OrderList> => {
    queries.push(query);
    const from = query.cursor === undefined ? 0 : Number(query.cursor.slice(1));
    const items = ids(from, query.limit!).map((id) => order({ id }));
    const next = from + items.length;
    const hasMore = next < total;
    return { items, has_more: hasMore, next_cursor: hasMore ? `c${next}` : null };
  };
  return { list, queries };
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => `o${from + i}`);

async function collect(iterable: AsyncIterable<Order>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of iterable) ids.push(item.id);
  return ids;
}

describe('iterateOrders', () => {
  it('follows next_cursor, 100 a page by default, until has_more is false', async () => {
    const { list, queries } = orders(250);
    expect(await collect(iterateOrders(list, { status: 'created' }))).toEqual(range(0, 250));
    expect(queries).toEqual([
      { status: 'created', limit: 100 },
      { status: 'created', limit: 100, cursor: 'c100' },
      { status: 'created', limit: 100, cursor: 'c200' },
    ]);
  });

  it('stops after `limit` orders, without asking for more pages', async () => {
    const { list, queries } = orders(10_000);
    expect(await collect(iterateOrders(list, { limit: 20 }, { limit: 45 }))).toEqual(range(0, 45));
    expect(queries.map((q) => q.cursor)).toEqual([undefined, 'c20', 'c40']);
  });

  it('caps at 1000 orders by default', async () => {
    const { list } = orders(5_000);
    expect(await collect(iterateOrders(list, {}))).toHaveLength(1000);
  });

  it('walks everything with limit Infinity', async () => {
    const { list } = orders(1_234);
    expect(await collect(iterateOrders(list, {}, { limit: Infinity }))).toHaveLength(1_234);
  });

  it('asks for nothing with limit 0', async () => {
    const { list, queries } = orders(10);
    expect(await collect(iterateOrders(list, {}, { limit: 0 }))).toEqual([]);
    expect(queries).toEqual([]);
  });

  it('starts at the given cursor', async () => {
    const { list } = orders(30);
    expect(await collect(iterateOrders(list, { cursor: 'c10', limit: 10 }))).toEqual(range(10, 30));
  });

  it('stops when has_more is false even on a full page', async () => {
    const { list, queries } = orders(20);
    expect(await collect(iterateOrders(list, { limit: 10 }))).toEqual(range(0, 20));
    expect(queries).toHaveLength(2);
  });

  it('stops when the server hands back the cursor it was given (no endless loop)', async () => {
    const queries: OrderListParams[] = [];
    const list = async (query: OrderListParams): Promise<OrderList> => {
      queries.push(query);
      return { items: [order({ id: `o${queries.length}` })], has_more: true, next_cursor: 'same' };
    };
    expect(await collect(iterateOrders(list, {}))).toEqual(['o1', 'o2']);
    expect(queries).toHaveLength(2);
  });

  it('skips an order that a later page shows again', async () => {
    const { list } = orders(4, (from) => (from === 0 ? ['a', 'b'] : ['b', 'c']));
    expect(await collect(iterateOrders(list, { limit: 2 }))).toEqual(['a', 'b', 'c']);
  });

  it('passes the request options to every page', async () => {
    const seen: unknown[] = [];
    const list = async (_query: OrderListParams, options: unknown): Promise<OrderList> => {
      seen.push(options);
      return { items: [], has_more: false, next_cursor: null };
    };
    await collect(iterateOrders(list, {}, { limit: 5, timeout: 1234 }));
    expect(seen).toEqual([{ timeout: 1234 }]);
  });

  it.each([[-1], [Number.NaN], ['10']])('refuses limit %o', async (limit) => {
    const { list } = orders(10);
    await expect(collect(iterateOrders(list, {}, { limit: limit as number }))).rejects.toThrow(TypeError);
  });
});
