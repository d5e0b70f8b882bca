/** A webhook delivery with every attempt (time, status, latency, response or error) and Resend. */
import { api, enc, type Attempt, type Delivery } from './api';
import { DataTable, type Columns } from './data-table';
import { when } from './format';
import { ActionButton } from './ui';

const attemptColumns: Columns<Attempt> = [
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

export function DeliveryCard({ delivery, endpointLabel, onChanged, canWrite }: { delivery: Delivery; endpointLabel?: string; onChanged: () => void; canWrite: boolean }) {
  return (
    <section className="delivery" aria-label={`Delivery ${delivery.id}`} data-delivery={delivery.id}>
      <div className="delivery-head">
        <span className={`state state-${delivery.state}`}>{delivery.state}</span>
        <span>
          {delivery.event_type} → {endpointLabel ?? delivery.webhook_endpoint_id}
        </span>
        <span className="muted">
          {delivery.attempt_count} attempt{delivery.attempt_count === 1 ? '' : 's'}
          {delivery.next_attempt_at ? ` · next ${when(delivery.next_attempt_at)}` : ''}
        </span>
        {canWrite && <ActionButton label="Resend" run={() => api.post(`/admin/deliveries/${enc(delivery.id)}/resend`)} onDone={onChanged} />}
      </div>
      <DataTable caption={`Attempts of delivery ${delivery.id}`} columns={attemptColumns} rows={delivery.attempts} rowKey={(a) => String(a.number)} empty="Not attempted yet." />
    </section>
  );
}
