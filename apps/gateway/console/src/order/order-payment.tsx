/**
 * The order's payment (issue 36 adds `payment` to the Order: provider, reference, status,
 * authorized, captured and refunded amounts, disputes). Orders without one — and every order
 * before that lands — say so instead.
 */
import type { Order, PaymentOperation } from '../api';
import { money, when } from '../format';

/** Each movement of money asked of the provider, when the admin API lists them (issue 36). */
function Operations({ operations, currency }: { operations: PaymentOperation[]; currency: string }) {
  return (
    <ul className="operations" aria-label="Payment operations">
      {operations.map((op) => (
        <li key={op.id}>
          {op.kind} {money(op.amount, op.currency ?? currency)} · <strong>{op.state.replaceAll('_', ' ')}</strong> <span className="muted">{when(op.created_at)}</span>
          {op.last_error && <span className="error"> · {op.last_error}</span>}
        </li>
      ))}
    </ul>
  );
}

export function PaymentSection({ order, operations }: { order: Order; operations?: PaymentOperation[] | undefined }) {
  const p = order.payment;
  const cur = p?.currency ?? order.currency;
  return (
    <section aria-label="Payment">
      <h2>Payment</h2>
      {!p ? (
        <p className="empty">No payment is recorded for this order (no payment provider took part).</p>
      ) : (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd data-testid="payment-status">{p.status ?? '—'}</dd>
            <dt>Provider</dt>
            <dd>
              {p.provider ?? '—'}
              {p.reference && (
                <>
                  {' '}
                  <code>{p.reference}</code>
                </>
              )}
            </dd>
            <dt>Authorized</dt>
            <dd>{money(p.authorized_amount, cur)}</dd>
            <dt>Captured</dt>
            <dd>{money(p.captured_amount, cur)}</dd>
            <dt>Refunded</dt>
            <dd>{money(p.refunded_amount, cur)}</dd>
          </dl>
          {(p.disputes ?? []).length > 0 && (
            <>
              <h3>Disputes</h3>
              <ul>
                {p.disputes!.map((d) => (
                  <li key={d.id}>
                    {money(d.amount, cur)} · {d.reason ?? 'no reason given'} · <strong>{d.status}</strong> {d.created_at && <span className="muted">{when(d.created_at)}</span>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {operations && operations.length > 0 && (
        <>
          <h3>Payment operations</h3>
          <Operations operations={operations} currency={cur} />
        </>
      )}
    </section>
  );
}
