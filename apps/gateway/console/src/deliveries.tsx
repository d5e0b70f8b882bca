/**
 * A webhook delivery with every attempt (time, status, latency, response or error) and Resend,
 * which follows the new attempt until it is made and says how it went. The state and the attempts
 * always agree: the count shown is of the attempts listed, and an attempt the worker is making
 * (counted, not yet recorded) is shown as in progress rather than "not attempted".
 */
import { useState } from 'react';
import { call, getDelivery, resendDelivery, type AdminApiError, type Delivery, type DeliveryAttempt } from './api';
import { DataTable, type Columns } from './data-table';
import { when } from './format';
import { ErrorNote } from './ui';

const attemptColumns: Columns<DeliveryAttempt> = [
  { accessorKey: 'number', header: '#' },
  { id: 'at', header: 'Time', cell: ({ row }) => when(row.original.attempted_at) },
  { id: 'status', header: 'Status', cell: ({ row }) => row.original.response_status ?? 'no answer' },
  { id: 'latency', header: 'Latency', cell: ({ row }) => `${row.original.latency_ms} ms` },
  {
    id: 'response',
    header: 'Response',
    cell: ({ row }) => {
      const text = row.original.error ?? row.original.response_excerpt ?? '';
      return text ? <code className="excerpt">{text}</code> : '—';
    },
  },
];

const ok = (a: DeliveryAttempt | undefined) => a?.response_status !== null && a?.response_status !== undefined && a.response_status >= 200 && a.response_status < 300;

/** What the delivery is doing, in words that agree with its attempts. */
export function progressOf(d: Delivery): string {
  const made = d.attempts.length;
  const inFlight = d.state === 'pending' && d.attempt_count > made;
  const parts = [`${made} attempt${made === 1 ? '' : 's'}`];
  if (inFlight) parts.push(`attempt ${made + 1} in progress`);
  else if (d.state === 'pending' && d.next_attempt_at) parts.push(`${made === 0 ? 'first attempt' : 'next retry'} ${when(d.next_attempt_at)}`);
  return parts.join(' · ');
}

function emptyAttempts(d: Delivery): string {
  if (d.state !== 'pending') return 'No attempt was made.';
  return d.attempt_count > 0 ? 'The first attempt is being made.' : 'Queued: the first attempt is due.';
}

function outcomeOf(attempt: DeliveryAttempt, delivery: Delivery): string {
  const answer = attempt.response_status === null ? (attempt.error ?? 'no answer') : `HTTP ${attempt.response_status}`;
  if (ok(attempt)) return `Resent: attempt ${attempt.number} delivered (${answer}, ${attempt.latency_ms} ms).`;
  return `Resent: attempt ${attempt.number} failed (${answer})${delivery.next_attempt_at ? `; next retry ${when(delivery.next_attempt_at)}` : ''}.`;
}

/** Resend, then read the delivery until its new attempt is recorded (up to 30 s): the outcome is shown, not assumed. */
function Resend({ delivery, onChanged }: { delivery: Delivery; onChanged: () => void }) {
  const [outcome, setOutcome] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AdminApiError>();
  return (
    <span className="action">
      <button
        type="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          setOutcome('Resending…');
          const before = delivery.attempts.length;
          try {
            const path = { delivery_id: delivery.id };
            await call(resendDelivery({ path }));
            const deadline = Date.now() + 30_000;
            let current = await call(getDelivery({ path }));
            while (current.attempts.length <= before && Date.now() < deadline) {
              setOutcome('Resent: waiting for the attempt…');
              await new Promise((resolve) => setTimeout(resolve, 700));
              current = await call(getDelivery({ path }));
            }
            const made = current.attempts.at(-1);
            setOutcome(current.attempts.length > before && made ? outcomeOf(made, current) : 'Resent: queued, no attempt made within 30 s (is the delivery worker running?).');
            onChanged();
          } catch (caught) {
            setOutcome(undefined);
            setError(caught as AdminApiError);
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? 'Resending…' : 'Resend'}
      </button>
      {outcome && (
        <small className="outcome" role="status">
          {outcome}
        </small>
      )}
      <ErrorNote error={error} />
    </span>
  );
}

export function DeliveryCard({ delivery, onChanged, canWrite }: { delivery: Delivery; onChanged: () => void; canWrite: boolean }) {
  return (
    <section className="delivery" aria-label={`Delivery ${delivery.id}`} data-delivery={delivery.id}>
      <div className="delivery-head">
        <span className={`state state-${delivery.state}`}>{delivery.state}</span>
        <span>
          {delivery.event_type} → <span title={delivery.webhook_endpoint_id}>{delivery.webhook_endpoint_url ?? delivery.webhook_endpoint_id}</span>
        </span>
        <span className="muted">{progressOf(delivery)}</span>
        {canWrite && <Resend delivery={delivery} onChanged={onChanged} />}
      </div>
      <DataTable caption={`Attempts of delivery ${delivery.id}`} columns={attemptColumns} rows={delivery.attempts} rowKey={(a) => String(a.number)} empty={emptyAttempts(delivery)} />
    </section>
  );
}
