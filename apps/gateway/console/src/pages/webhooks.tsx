import { useState } from 'react';
import { Link } from 'wouter';
import {
  call,
  createWebhookEndpoint,
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  enc,
  getWebhookEndpoint,
  listEndpointDeliveries,
  listWebhookEndpoints,
  removeWebhookEndpoint,
  rotateWebhookEndpointSecret,
  type AdminApiError,
  type EndpointHealth,
  type WebhookEndpoint,
} from '../api';
import { PagedTable, type Columns } from '../data-table';
import { DeliveryCard } from '../deliveries';
import { when } from '../format';
import { useLoad } from '../use-load';
import { ActionButton, CursorPager, ErrorNote, LiveNote, Loading, ShownOnce } from '../ui';

const EVERY = 10_000;

const percent = (rate: number) => `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)} %`;

/** The 24-hour success rate, coloured when it is not all well; "no traffic" when nothing was attempted. */
function SuccessRate({ health }: { health: EndpointHealth | undefined }) {
  if (!health || health.success_rate === null) return <span className="muted">no attempts in 24 h</span>;
  return (
    <span className={health.failing ? 'rate-bad' : 'rate-ok'}>
      {percent(health.success_rate)} <span className="muted">of {health.attempts}</span>
      {health.failing ? ' · failing' : ''}
    </span>
  );
}

const latency = (h: EndpointHealth | undefined) => (h?.mean_latency_ms === null || h?.mean_latency_ms === undefined ? '—' : `${h.mean_latency_ms} ms avg · ${h.p95_latency_ms} ms p95`);

function lastFailure(h: EndpointHealth | undefined): string {
  const f = h?.last_failure;
  if (!f) return 'never';
  return `${when(f.at)} · ${f.response_status === null ? (f.error ?? 'no answer') : `HTTP ${f.response_status}`}`;
}

function AddEndpoint({ merchantId, onAdded }: { merchantId: string; onAdded: () => void }) {
  const [url, setUrl] = useState('');
  const [protocol, setProtocol] = useState<'gateway' | 'acp'>('gateway');
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<AdminApiError>();
  return (
    <form
      className="inline-form"
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        try {
          const created = await call(createWebhookEndpoint({ path: { merchant_id: merchantId }, body: { url: url.trim(), protocol } }));
          setSecret(created.secret);
          setUrl('');
          onAdded();
        } catch (caught) {
          setError(caught as AdminApiError);
        }
      }}
    >
      <label htmlFor="endpoint-url">Endpoint URL</label>
      <input id="endpoint-url" type="url" required placeholder="https://example.com/webhooks" value={url} onChange={(e) => setUrl(e.target.value)} />
      <label htmlFor="endpoint-protocol">Protocol</label>
      <select id="endpoint-protocol" value={protocol} onChange={(e) => setProtocol(e.target.value as 'gateway' | 'acp')}>
        <option value="gateway">gateway</option>
        <option value="acp">acp</option>
      </select>
      <button type="submit">Add endpoint</button>
      <ErrorNote error={error} />
      <ShownOnce label="Signing secret" secret={secret} />
    </form>
  );
}

export function Webhooks({ merchantId, canWrite }: { merchantId: string; canWrite: boolean }) {
  const [trail, setTrail] = useState<string[]>([]);
  const cursor = trail.at(-1);
  const endpoints = useLoad(() => call(listWebhookEndpoints({ path: { merchant_id: merchantId }, query: { limit: 20, cursor } })), `${merchantId}|${cursor}`, { every: EVERY });
  const at = (id: string) => ({ path: { endpoint_id: id } });
  const columns: Columns<WebhookEndpoint> = [
    { id: 'url', header: 'URL', cell: ({ row }) => <Link href={`/m/${enc(merchantId)}/webhooks/${enc(row.original.id)}`}>{row.original.url}</Link> },
    { accessorKey: 'protocol', header: 'Protocol' },
    { id: 'state', header: 'State', cell: ({ row }) => (row.original.enabled ? 'enabled' : `disabled ${when(row.original.disabled_at)}`) },
    { id: 'success', header: 'Success (24 h)', cell: ({ row }) => <SuccessRate health={row.original.health} /> },
    { id: 'latency', header: 'Latency (24 h)', cell: ({ row }) => latency(row.original.health) },
    { id: 'failure', header: 'Last failure', cell: ({ row }) => lastFailure(row.original.health) },
    {
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) =>
        canWrite ? (
          <span className="actions">
            {row.original.enabled ? (
              <ActionButton label="Disable" run={() => call(disableWebhookEndpoint(at(row.original.id)))} onDone={endpoints.reload} />
            ) : (
              <ActionButton label="Enable" run={() => call(enableWebhookEndpoint(at(row.original.id)))} onDone={endpoints.reload} />
            )}
            <ActionButton label="Remove" variant="danger" confirm={`Remove ${row.original.url}?`} run={() => call(removeWebhookEndpoint(at(row.original.id)))} onDone={endpoints.reload} />
          </span>
        ) : null,
    },
  ];
  return (
    <>
      <h1>Webhook endpoints</h1>
      <LiveNote at={endpoints.loadedAt} every={EVERY} />
      {canWrite && <AddEndpoint merchantId={merchantId} onAdded={endpoints.reload} />}
      <PagedTable loaded={endpoints} trail={trail} onMove={setTrail} caption="Webhook endpoints" columns={columns} rowKey={(e) => e.id} empty="No webhook endpoints." />
    </>
  );
}

/** One endpoint's delivery log, newest first, each delivery with its attempts and Resend. */
export function EndpointDeliveries({ merchantId, endpointId, canWrite }: { merchantId: string; endpointId: string; canWrite: boolean }) {
  const [trail, setTrail] = useState<string[]>([]);
  const [secret, setSecret] = useState<string>();
  const cursor = trail.at(-1);
  // The first page follows new deliveries on its own; an older page stays as it was read.
  const path = { endpoint_id: endpointId };
  const deliveries = useLoad(() => call(listEndpointDeliveries({ path, query: { limit: 20, cursor } })), `${endpointId}|${cursor}`, cursor ? {} : { every: EVERY });
  const endpoint = useLoad(() => call(getWebhookEndpoint({ path })), endpointId, { every: EVERY });
  return (
    <>
      <p>
        <Link href={`/m/${enc(merchantId)}/webhooks`}>← Webhook endpoints</Link>
      </p>
      <h1>Delivery log</h1>
      <Loading loaded={endpoint}>
        {(e) => (
          <dl className="facts" aria-label="Endpoint">
            <dt>Endpoint</dt>
            <dd>
              <code>{e.url}</code> <span className="muted">({e.protocol}, {e.enabled ? 'enabled' : 'disabled'}, {e.id})</span>
            </dd>
            <dt>Success (24 h)</dt>
            <dd data-testid="success-rate">
              <SuccessRate health={e.health} />
            </dd>
            <dt>Latency (24 h)</dt>
            <dd>{latency(e.health)}</dd>
            <dt>Last failure</dt>
            <dd>{lastFailure(e.health)}</dd>
          </dl>
        )}
      </Loading>
      <LiveNote at={deliveries.loadedAt} every={EVERY} />
      <div className="toolbar">
        {canWrite && (
          <ActionButton
            label="Rotate secret"
            confirm="Rotate the signing secret? The old one keeps signing for 24 hours."
            run={async () => setSecret((await call(rotateWebhookEndpointSecret({ path, body: {} }))).secret)}
          />
        )}
        <button type="button" onClick={deliveries.reload}>
          Refresh
        </button>
      </div>
      <ShownOnce label="New signing secret" secret={secret} />
      <Loading loaded={deliveries}>
        {(page) => (
          <>
            {page.items.length === 0 && <p className="empty">No deliveries yet.</p>}
            {page.items.map((delivery) => (
              <DeliveryCard
                key={delivery.id}
                delivery={delivery}
                canWrite={canWrite}
                onChanged={() => {
                  deliveries.reload();
                  endpoint.reload();
                }}
              />
            ))}
            <CursorPager hasMore={page.has_more} nextCursor={page.next_cursor} trail={trail} onMove={setTrail} />
          </>
        )}
      </Loading>
    </>
  );
}
