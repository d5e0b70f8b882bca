/**
 * One order as an operator works it: buyer and address, lines, amounts with each discount, the
 * payment, fulfillments with tracking, the timeline and the webhook events with their deliveries
 * — refreshed on its own — and the actions its state allows (fulfil with tracking, refund by
 * amount or by lines with a reason, cancel asked in the page), the others disabled with the reason.
 */
import { useState } from 'react';
import { Link } from 'wouter';
import { call, cancelOrder, enc, getOrder, type OrderDetail as Detail } from '../api';
import { DeliveryCard } from '../deliveries';
import { money, when } from '../format';
import { FulfilForm, Fulfillments } from '../order/fulfillments';
import { Amounts, Buyer, Lines } from '../order/order-summary';
import { PaymentSection } from '../order/order-payment';
import { RefundForm } from '../order/refund-form';
import { blockedActions } from '../order-actions';
import { useLoad } from '../use-load';
import { ActionButton, LiveNote, Loading } from '../ui';

const EVERY = 5_000;

interface Milestone {
  at: string;
  title: string;
  detail?: string;
}

/** What happened to the order (placed, fulfilled, delivered, refunded, canceled), oldest first. */
function milestones({ order }: Detail): Milestone[] {
  const list: Milestone[] = [{ at: order.created_at, title: 'Placed', detail: money(order.amounts.total, order.currency) }];
  for (const f of order.fulfillments) {
    list.push({ at: f.created_at, title: 'Fulfilled', detail: [f.carrier, f.tracking_number].filter(Boolean).join(' ') || undefined });
    if (f.delivered_at) list.push({ at: f.delivered_at, title: 'Delivered', detail: f.carrier ?? undefined });
  }
  for (const r of order.refunds) list.push({ at: r.created_at, title: 'Refunded', detail: `${money(r.amount, order.currency)}${r.reason ? ` · ${r.reason.replaceAll('_', ' ')}` : ''}${r.note ? ` · “${r.note}”` : ''}` });
  if (order.canceled_at) list.push({ at: order.canceled_at, title: 'Canceled' });
  return list.sort((a, b) => a.at.localeCompare(b.at));
}

export function OrderDetail({ merchantId, orderId, canWrite }: { merchantId: string; orderId: string; canWrite: boolean }) {
  const path = { merchant_id: merchantId, order_id: orderId };
  const detail = useLoad(() => call(getOrder({ path })), `${merchantId}|${orderId}`, { every: EVERY });
  const [form, setForm] = useState<'fulfil' | 'refund'>();
  return (
    <>
      <p>
        <Link href={`/m/${enc(merchantId)}/orders`}>← Orders</Link>
      </p>
      <h1>Order {orderId}</h1>
      <LiveNote at={detail.loadedAt} every={EVERY} />
      <Loading loaded={detail}>
        {(data) => {
          const order = data.order;
          const blocked = blockedActions(order);
          return (
            <>
              <dl className="facts">
                <dt>Status</dt>
                <dd data-testid="order-status">{order.status}</dd>
                <dt>Placed</dt>
                <dd>{when(order.created_at)}</dd>
                <dt>Total</dt>
                <dd>{money(order.amounts.total, order.currency)}</dd>
              </dl>
              {canWrite && (
                <div className="toolbar">
                  <ActionButton label="Fulfil…" blocked={blocked.fulfil} run={async () => setForm('fulfil')} />
                  <ActionButton label="Refund…" blocked={blocked.refund} run={async () => setForm('refund')} />
                  <ActionButton label="Cancel" variant="danger" blocked={blocked.cancel} confirm="Cancel what is not yet shipped? Its money is refunded." run={() => call(cancelOrder({ path }))} onDone={detail.reload} />
                </div>
              )}
              {form === 'fulfil' && !blocked.fulfil && <FulfilForm path={path} onDone={detail.reload} onClose={() => setForm(undefined)} />}
              {form === 'refund' && !blocked.refund && <RefundForm order={order} path={path} onDone={detail.reload} onClose={() => setForm(undefined)} />}
              <div className="order-grid">
                <Buyer order={order} />
                <Amounts order={order} />
                <PaymentSection order={order} operations={data.payment_operations} />
                <Fulfillments order={order} />
              </div>
              <h2>Items</h2>
              <Lines order={order} />
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
          );
        }}
      </Loading>
    </>
  );
}
