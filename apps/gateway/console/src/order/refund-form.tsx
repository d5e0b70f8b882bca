/**
 * A refund as the CLI allows it (`gateway orders refund`): an amount, or units of lines (the
 * amount then computed by the gateway from what they were paid), with a reason and a note.
 * Lines offer at most their units still to ship; the amount at most what is left to refund.
 */
import { useState } from 'react';
import { call, refundOrder, type AdminApiError, type CreateRefundRequest, type Order, type RefundOrderData } from '../api';
import { money } from '../format';
import { openUnits, refundableAmount } from '../order-actions';
import { ErrorNote } from '../ui';

const REASONS = ['requested_by_customer', 'damaged', 'not_received', 'duplicate', 'fraudulent', 'other'] as const;

export function RefundForm({ order, path, onDone, onClose }: { order: Order; path: RefundOrderData['path']; onDone: () => void; onClose: () => void }) {
  const [by, setBy] = useState<'amount' | 'lines'>('amount');
  const [amount, setAmount] = useState('');
  const [units, setUnits] = useState<Record<number, number>>({});
  const [reason, setReason] = useState<(typeof REASONS)[number]>('requested_by_customer');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AdminApiError>();
  const left = refundableAmount(order);
  const lines = Object.entries(units)
    .filter(([, quantity]) => quantity > 0)
    .map(([line, quantity]) => ({ line: Number(line), quantity }));
  const ready = by === 'amount' ? Number(amount) > 0 && Number(amount) <= left : lines.length > 0;
  return (
    <form
      className="panel-form"
      aria-label="Refund"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(undefined);
        try {
          const body: CreateRefundRequest = { reason, ...(note.trim() ? { note: note.trim() } : {}), ...(by === 'amount' ? { amount: Number(amount) } : { lines }) };
          await call(refundOrder({ path, body }));
          onDone();
          onClose();
        } catch (caught) {
          setError(caught as AdminApiError);
        } finally {
          setBusy(false);
        }
      }}
    >
      <strong>Refund — up to {money(left, order.currency)} left</strong>
      <fieldset>
        <legend>Refund by</legend>
        <label className="check">
          <input type="radio" name="refund-by" checked={by === 'amount'} onChange={() => setBy('amount')} /> an amount
        </label>
        <label className="check">
          <input type="radio" name="refund-by" checked={by === 'lines'} onChange={() => setBy('lines')} /> items not shipped
        </label>
      </fieldset>
      {by === 'amount' ? (
        <label className="row">
          Amount ({order.currency})
          <input type="number" inputMode="decimal" min="0.01" step="0.01" max={left} required value={amount} onChange={(e) => setAmount(e.target.value)} aria-describedby="refund-amount-hint" />
          <small id="refund-amount-hint" className="muted">
            at most {money(left, order.currency)}
          </small>
        </label>
      ) : (
        <div>
          {order.line_items.map((item, i) => {
            const most = openUnits(order, i + 1);
            return (
              <label key={i} className="row">
                <input type="number" min={0} max={most} step={1} disabled={most === 0} value={units[i + 1] ?? 0} onChange={(e) => setUnits({ ...units, [i + 1]: Math.min(most, Math.max(0, Math.floor(Number(e.target.value) || 0))) })} aria-label={`Units of line ${i + 1} to refund`} />
                of {most} · {item.title ?? item.product_id}
              </label>
            );
          })}
          <small className="muted">The gateway computes the amount from what these units were paid (their discount and tax included).</small>
        </div>
      )}
      <label className="row">
        Reason
        <select value={reason} onChange={(e) => setReason(e.target.value as (typeof REASONS)[number])}>
          {REASONS.map((r) => (
            <option key={r} value={r}>
              {r.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      <label className="row">
        Note
        <input value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} placeholder="optional, kept with the refund" style={{ flex: 1 }} />
      </label>
      <div className="row">
        <button type="submit" disabled={!ready || busy}>
          {busy ? 'Refunding…' : 'Refund'}
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
