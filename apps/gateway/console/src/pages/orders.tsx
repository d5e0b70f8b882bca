import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { call, enc, listOrders, type ListOrdersData, type Order } from '../api';
import { PagedTable, type Columns } from '../data-table';
import { money, when } from '../format';
import { useLoad } from '../use-load';

type Status = NonNullable<NonNullable<ListOrdersData['query']>['status']>;
const STATUSES: ('' | Status)[] = ['', 'created', 'partially_fulfilled', 'fulfilled', 'delivered', 'canceled', 'refunded'];

export function Orders({ merchantId }: { merchantId: string }) {
  const [, navigate] = useLocation();
  const [status, setStatus] = useState<'' | Status>('');
  const [trail, setTrail] = useState<string[]>([]);
  const [find, setFind] = useState('');
  const cursor = trail.at(-1);
  const orders = useLoad(() => call(listOrders({ path: { merchant_id: merchantId }, query: { limit: 20, cursor, status: status || undefined } })), `${merchantId}|${status}|${cursor}`, cursor ? {} : { every: 10_000 }); // the first page follows new orders and their states
  const columns: Columns<Order> = [
    { id: 'id', header: 'Order', cell: ({ row }) => <Link href={`/m/${enc(merchantId)}/orders/${enc(row.original.id)}`}>{row.original.id}</Link> },
    { accessorKey: 'status', header: 'Status' },
    { id: 'customer', header: 'Customer', cell: ({ row }) => row.original.customer?.email ?? '—' },
    { id: 'total', header: 'Total', cell: ({ row }) => money(row.original.amounts.total, row.original.currency) },
    { id: 'created', header: 'Placed', cell: ({ row }) => when(row.original.created_at) },
  ];
  return (
    <>
      <h1>Orders</h1>
      <div className="toolbar">
        <form
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            if (find.trim()) navigate(`/m/${enc(merchantId)}/orders/${enc(find.trim())}`);
          }}
        >
          <label htmlFor="find-order">Find an order</label>
          <input id="find-order" placeholder="ord_…" value={find} onChange={(e) => setFind(e.target.value)} />
          <button type="submit">Open</button>
        </form>
        <label>
          Status{' '}
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as '' | Status);
              setTrail([]);
            }}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s || 'any'}
              </option>
            ))}
          </select>
        </label>
      </div>
      <PagedTable loaded={orders} trail={trail} onMove={setTrail} caption="Orders" columns={columns} rowKey={(o) => o.id} empty="No orders yet." />
    </>
  );
}
