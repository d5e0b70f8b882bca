/** The order's buyer, shipping address, lines and amounts (subtotal, each discount by its code, shipping, tax, total). */
import type { Address, Order } from '../api';
import { money } from '../format';
import { fulfilledUnits, refundedUnits } from '../order-actions';

function AddressBlock({ address }: { address: Address }) {
  const cityLine = [address.postal_code, address.city, address.state].filter(Boolean).join(' ');
  return (
    <address>
      {[address.name, address.line1, address.line2, cityLine, address.country].filter(Boolean).map((part, i) => (
        <span key={i}>
          {part}
          <br />
        </span>
      ))}
    </address>
  );
}

export function Buyer({ order }: { order: Order }) {
  const c = order.customer;
  return (
    <section aria-label="Buyer">
      <h2>Buyer</h2>
      {c ? (
        <p>
          {c.name && (
            <>
              {c.name}
              <br />
            </>
          )}
          {c.email ?? 'no email'}
          {c.phone && (
            <>
              <br />
              {c.phone}
            </>
          )}
        </p>
      ) : (
        <p className="empty">No buyer details were given.</p>
      )}
      <h2>Shipping address</h2>
      {order.shipping_address ? <AddressBlock address={order.shipping_address} /> : <p className="empty">Nothing to ship to.</p>}
    </section>
  );
}

export function Amounts({ order }: { order: Order }) {
  const cur = order.currency;
  const applied = order.discounts?.applied ?? [];
  return (
    <section aria-label="Amounts">
      <h2>Amounts</h2>
      <table className="amounts">
        <tbody>
          <tr>
            <td>Subtotal</td>
            <td>{money(order.amounts.subtotal, cur)}</td>
          </tr>
          {applied.map((d) => (
            <tr key={`${d.type}:${d.code ?? d.promotion_id ?? d.title}`} data-discount={d.code ?? d.promotion_id}>
              <td>
                {d.type === 'code' ? (
                  <>
                    Code <code>{d.code}</code>
                  </>
                ) : (
                  <>Promotion “{d.title}”</>
                )}
                {d.applies_to === 'shipping' ? ' (free shipping)' : ''}
              </td>
              <td>{d.applies_to === 'shipping' ? 'shipping free' : `− ${money(d.amount, cur)}`}</td>
            </tr>
          ))}
          <tr>
            <td>Shipping{order.shipping && order.shipping.method !== 'none' ? ` (${order.shipping.method})` : ''}</td>
            <td>{money(order.amounts.shipping, cur)}</td>
          </tr>
          <tr>
            <td>Tax{order.tax?.rate !== undefined ? ` (${(order.tax.rate * 100).toFixed(2).replace(/\.?0+$/, '')} %)` : ''}</td>
            <td>{money(order.amounts.tax, cur)}</td>
          </tr>
          <tr className="total">
            <td>Total</td>
            <td>{money(order.amounts.total, cur)}</td>
          </tr>
          {order.refunded_amount > 0 && (
            <tr>
              <td>Refunded</td>
              <td>− {money(order.refunded_amount, cur)}</td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

export function Lines({ order }: { order: Order }) {
  return (
    <div className="table-scroll" role="region" aria-label="Items" tabIndex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Item</th>
            <th scope="col">Unit price</th>
            <th scope="col">Ordered</th>
            <th scope="col">Fulfilled</th>
            <th scope="col">Refunded</th>
            <th scope="col">Subtotal</th>
          </tr>
        </thead>
        <tbody>
          {order.line_items.map((item, i) => (
            <tr key={i}>
              <td data-label="#">{i + 1}</td>
              <td data-label="Item">
                {item.title ?? item.product_id}
                {item.variant_sku && <span className="muted"> · {item.variant_sku}</span>}
              </td>
              <td data-label="Unit price">{money(item.unit_price, order.currency)}</td>
              <td data-label="Ordered">{item.quantity}</td>
              <td data-label="Fulfilled">{fulfilledUnits(order, i + 1)}</td>
              <td data-label="Refunded">{refundedUnits(order, i + 1)}</td>
              <td data-label="Subtotal">
                {money(item.subtotal, order.currency)}
                {item.discount ? <span className="muted"> (− {money(item.discount, order.currency)})</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
