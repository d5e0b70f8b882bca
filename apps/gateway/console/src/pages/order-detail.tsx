import { Link } from 'wouter';
import { api, enc, type OrderDetail as Detail } from '../api';
import { DeliveryCard } from '../deliveries';
import { money, when } from '../format';
import { blockedActions } from '../order-actions';
import { useLoad } from '../use-load';
import { ActionButton, Loading } from '../ui';

interface Milestone {
  at: string;
  title: string;
  detail?: string;
}

/** What happened to the order (placed, fulfilled, refunded, canceled), oldest first. */
function milestones({ order }: Detail): Milestone[] {
  const list: Milestone[] = [{ at: order.created_at, title: 'Placed', detail: money(order.amounts.total, order.currency) }];
  for (const f of order.fulfillments) list.push({ at: f.created_at, title: 'Fulfilled', detail: [f.carrier, f.tracking_number].filter(Boolean).join(' ') || undefined });
  for (const r of order.refunds) list.push({ at: r.created_at, title: 'Refunded', detail: `${money(r.amount, order.currency)}${r.reason ? ` · ${r.reason}` : ''}` });
  if (order.canceled_at) list.push({ at: order.canceled_at, title: 'Canceled' });
  return list.sort((a, b) => a.at.localeCompare(b.at));
}

export function OrderDetail({ merchantId, orderId, canWrite }: { merchantId: string; orderId: string; canWrite: boolean }) {
  const base = `/admin/merchants/${enc(merchantId)}/orders/${enc(orderId)}`;
  const detail = useLoad(() => api.get<Detail>(base), `${merchantId}|${orderId}`);
  return (
    <>
      <p>
        <Link href={`/m/${enc(merchantId)}/orders`}>← Orders</Link>
      </p>
      <h1>Order {orderId}</h1>
      <Loading loaded={detail}>
        {(data) => (
          <>
            <dl className="facts">
              <dt>Status</dt>
              <dd data-testid="order-status">{data.order.status}</dd>
              <dt>Total</dt>
              <dd>{money(data.order.amounts.total, data.order.currency)}</dd>
              <dt>Refunded</dt>
              <dd>{money(data.order.refunded_amount, data.order.currency)}</dd>
              <dt>Customer</dt>
              <dd>{data.order.customer?.email ?? '—'}</dd>
              <dt>Items</dt>
              <dd>{data.order.line_items.map((line) => `${line.quantity} × ${line.title ?? line.product_id ?? line.id}`).join(', ')}</dd>
            </dl>
            {canWrite && (
              <div className="toolbar">
                <ActionButton label="Fulfil the rest" blocked={blockedActions(data.order).fulfil} run={() => api.post(`${base}/fulfillments`, {})} onDone={detail.reload} />
                <ActionButton label="Refund the rest" blocked={blockedActions(data.order).refund} confirm="Refund everything not yet refunded?" run={() => api.post(`${base}/refunds`, { reason: 'other' })} onDone={detail.reload} />
                <ActionButton label="Cancel" variant="danger" blocked={blockedActions(data.order).cancel} confirm="Cancel this order?" run={() => api.post(`${base}/cancel`)} onDone={detail.reload} />
              </div>
            )}
            <h2>Timeline</h2>
            <ol className="timeline">
              {milestones(data).map((m, i) => (
                <li key={`m${i}`}>
                  <time dateTime={m.at}>{when(m.at)}</time> <strong>{m.title}</strong> {m.detail && <span className="muted">{m.detail}</span>}
                </li>
              ))}
            </ol>
            <h2>Webhook events</h2>
            {data.events.length === 0 && <p className="empty">No webhook events for this order.</p>}
            <ol className="timeline events">
              {data.events.map((event) => (
                <li key={event.id} data-event={event.type}>
                  <time dateTime={event.created_at}>{when(event.created_at)}</time> <strong>{event.type}</strong> <code className="muted">{event.id}</code>
                  {event.deliveries.length === 0 ? (
                    <p className="empty">No endpoint was subscribed when it happened.</p>
                  ) : (
                    event.deliveries.map((delivery) => <DeliveryCard key={delivery.id} delivery={delivery} canWrite={canWrite} onChanged={detail.reload} />)
                  )}
                </li>
              ))}
            </ol>
            <button type="button" onClick={detail.reload}>
              Refresh
            </button>
          </>
        )}
      </Loading>
    </>
  );
}
