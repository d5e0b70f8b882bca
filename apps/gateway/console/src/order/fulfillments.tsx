/** The order's fulfillments with their tracking, and the form that records one (carrier and tracking optional). */
import { useState } from 'react';
import { call, fulfilOrder, type AdminApiError, type CreateFulfillmentRequest, type FulfilOrderData, type Order } from '../api';
import { when } from '../format';
import { ErrorNote } from '../ui';

export function Fulfillments({ order }: { order: Order }) {
  return (
    <section aria-label="Fulfillments">
      <h2>Fulfillments</h2>
      {order.fulfillments.length === 0 ? (
        <p className="empty">Nothing shipped yet.</p>
      ) : (
        <ul>
          {order.fulfillments.map((f) => (
            <li key={f.id} data-fulfillment={f.id}>
              <strong>{f.status ?? 'shipped'}</strong> {when(f.created_at)} · {(f.lines ?? []).map((l) => `${l.quantity} of line ${l.line}`).join(', ')}
              <br />
              {f.carrier ?? 'no carrier'} ·{' '}
              {f.tracking_url ? (
                <a href={f.tracking_url} rel="noreferrer noopener" target="_blank">
                  {f.tracking_number ?? 'tracking'}
                </a>
              ) : (
                (f.tracking_number ?? 'no tracking number')
              )}
              {f.delivered_at && <span className="muted"> · delivered {when(f.delivered_at)}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function FulfilForm({ path, onDone, onClose }: { path: FulfilOrderData['path']; onDone: () => void; onClose: () => void }) {
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [url, setUrl] = useState('');
  const [error, setError] = useState<AdminApiError>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="panel-form"
      aria-label="Fulfil"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(undefined);
        try {
          const body: CreateFulfillmentRequest = { ...(carrier.trim() ? { carrier: carrier.trim() } : {}), ...(tracking.trim() ? { tracking_number: tracking.trim() } : {}), ...(url.trim() ? { tracking_url: url.trim() } : {}) };
          await call(fulfilOrder({ path, body }));
          onDone();
          onClose();
        } catch (caught) {
          setError(caught as AdminApiError);
        } finally {
          setBusy(false);
        }
      }}
    >
      <strong>Ship every unit still to ship</strong>
      <label className="row">
        Carrier <input value={carrier} maxLength={100} onChange={(e) => setCarrier(e.target.value)} placeholder="UPS" />
      </label>
      <label className="row">
        Tracking number <input value={tracking} maxLength={200} onChange={(e) => setTracking(e.target.value)} />
      </label>
      <label className="row">
        Tracking URL <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://…" style={{ flex: 1 }} />
      </label>
      <div className="row">
        <button type="submit" disabled={busy}>
          {busy ? 'Recording…' : 'Record fulfillment'}
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
