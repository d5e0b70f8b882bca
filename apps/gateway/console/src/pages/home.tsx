/**
 * A merchant at a glance, from one read (GET /admin/merchants/{id}/overview), refreshed on its
 * own: today's orders and revenue per currency, orders over the last 14 days, payments needing
 * attention, failing webhook endpoints, catalog imports running.
 */
import { Link } from 'wouter';
import { call, enc, getMerchantOverview } from '../api';
import { money, when } from '../format';
import { useLoad } from '../use-load';
import { LiveNote, Loading } from '../ui';
import { OrdersChart } from './orders-chart';

const EVERY = 15_000;

export function Home({ merchantId }: { merchantId: string }) {
  const overview = useLoad(() => call(getMerchantOverview({ path: { merchant_id: merchantId } })), merchantId, { every: EVERY });
  const m = enc(merchantId);
  return (
    <>
      <h1>Home</h1>
      <LiveNote at={overview.loadedAt} every={EVERY} />
      <Loading loaded={overview}>
        {(o) => {
          const payments = o.payments_needing_attention;
          return (
            <>
              <div className="cards">
                <section className="card" aria-label="Today">
                  <h2>Today (UTC)</h2>
                  {o.today.currencies.length === 0 ? (
                    <p className="empty">No orders yet today.</p>
                  ) : (
                    o.today.currencies.map((c) => (
                      <p key={c.currency} data-currency={c.currency}>
                        <span className="figure">{money(c.revenue, c.currency)}</span>
                        <br />
                        <span className="muted">
                          {c.orders} order{c.orders === 1 ? '' : 's'} in {c.currency}
                        </span>
                      </p>
                    ))
                  )}
                </section>
                <section className={`card${payments.count > 0 ? ' alert' : ''}`} aria-label="Payments needing attention">
                  <h2>Payments needing attention</h2>
                  <p className="figure">{payments.count}</p>
                  {payments.count === 0 ? (
                    <p className="muted">None failed or stuck.</p>
                  ) : (
                    <ul>
                      {payments.items.map((p) => (
                        <li key={p.id}>
                          {p.kind} {money(p.amount, p.currency)} · <strong>{p.state.replace('_', ' ')}</strong>
                          {p.last_error ? ` · ${p.last_error}` : ''}
                          {p.order_id && (
                            <>
                              {' '}
                              · <Link href={`/m/${m}/orders/${enc(p.order_id)}`}>{p.order_id}</Link>
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
                <section className={`card${o.failing_webhook_endpoints.length > 0 ? ' alert' : ''}`} aria-label="Failing webhook endpoints">
                  <h2>Failing webhook endpoints</h2>
                  <p className="figure">{o.failing_webhook_endpoints.length}</p>
                  {o.failing_webhook_endpoints.length === 0 ? (
                    <p className="muted">Every endpoint answered its last delivery.</p>
                  ) : (
                    <ul>
                      {o.failing_webhook_endpoints.map((e) => (
                        <li key={e.id}>
                          <Link href={`/m/${m}/webhooks/${enc(e.id)}`}>{e.url}</Link>
                          <br />
                          <span className="muted">
                            {e.enabled ? '' : 'disabled · '}
                            {e.health?.last_failure ? `last failure ${when(e.health.last_failure.at)} (${e.health.last_failure.response_status ?? e.health.last_failure.error ?? 'no answer'})` : ''}
                          </span>
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
                <section className="card" aria-label="Imports running">
                  <h2>Catalog imports running</h2>
                  <p className="figure">{o.imports_running.length}</p>
                  {o.imports_running.length === 0 ? (
                    <p className="muted">None.</p>
                  ) : (
                    <ul>
                      {o.imports_running.map((i) => (
                        <li key={i.id}>
                          {i.id}: {i.imported.toLocaleString()} of {i.received.toLocaleString()} products
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
              </div>
              <section className="card" aria-label="Orders over the last 14 days">
                <h2>Orders, last 14 days</h2>
                <OrdersChart days={o.orders_by_day} />
              </section>
            </>
          );
        }}
      </Loading>
    </>
  );
}
