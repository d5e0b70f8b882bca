import { useState } from 'react';
import { api, enc, type AdminApiError, type ApiKey, type Page } from '../api';
import { PagedTable, type Columns } from '../data-table';
import { when } from '../format';
import { useLoad } from '../use-load';
import { ActionButton, ErrorNote, ShownOnce } from '../ui';

const SCOPES = ['*', 'catalog:read', 'checkout:read', 'checkout:write', 'orders:read', 'orders:write', 'webhooks:write'];

function CreateKey({ merchantId, onCreated }: { merchantId: string; onCreated: () => void }) {
  const [scopes, setScopes] = useState<string[]>(['*']);
  const [environment, setEnvironment] = useState('');
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<AdminApiError>();
  return (
    <form
      className="inline-form"
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        try {
          const created = await api.post<{ secret: string }>(`/admin/merchants/${enc(merchantId)}/keys`, { scopes, ...(environment ? { environment } : {}) });
          setSecret(created.secret);
          onCreated();
        } catch (caught) {
          setError(caught as AdminApiError);
        }
      }}
    >
      <fieldset>
        <legend>Scopes</legend>
        {SCOPES.map((scope) => (
          <label key={scope} className="check">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))} /> {scope === '*' ? 'all (*)' : scope}
          </label>
        ))}
      </fieldset>
      <label htmlFor="key-environment">Environment</label>
      <select id="key-environment" value={environment} onChange={(e) => setEnvironment(e.target.value)}>
        <option value="">the gateway's</option>
        <option value="development">development</option>
        <option value="sandbox">sandbox</option>
        <option value="production">production</option>
      </select>
      <button type="submit" disabled={scopes.length === 0}>
        Create key
      </button>
      <ErrorNote error={error} />
      <ShownOnce label="New key" secret={secret} />
    </form>
  );
}

export function Keys({ merchantId, canWrite }: { merchantId: string; canWrite: boolean }) {
  const [trail, setTrail] = useState<string[]>([]);
  const cursor = trail.at(-1);
  const keys = useLoad(() => api.get<Page<ApiKey>>(`/admin/merchants/${enc(merchantId)}/keys`, { limit: 20, cursor }), `${merchantId}|${cursor}`);
  const columns: Columns<ApiKey> = [
    { id: 'display', header: 'Key', cell: ({ row }) => <code>{row.original.display}</code> },
    { accessorKey: 'id', header: 'Id' },
    { id: 'scopes', header: 'Scopes', cell: ({ row }) => row.original.scopes.join(' ') },
    { accessorKey: 'tier', header: 'Tier' },
    { id: 'created', header: 'Created', cell: ({ row }) => when(row.original.created_at) },
    {
      id: 'state',
      header: 'State',
      cell: ({ row }) =>
        row.original.revoked_at ? (
          <span className="muted">revoked {when(row.original.revoked_at)}</span>
        ) : canWrite ? (
          <ActionButton label="Revoke" variant="danger" confirm={`Revoke ${row.original.display}? Requests with it are refused at once.`} run={() => api.post(`/admin/keys/${enc(row.original.id)}/revoke`)} onDone={keys.reload} />
        ) : (
          'active'
        ),
    },
  ];
  return (
    <>
      <h1>API keys</h1>
      {canWrite && <CreateKey merchantId={merchantId} onCreated={keys.reload} />}
      <PagedTable loaded={keys} trail={trail} onMove={setTrail} caption="API keys" columns={columns} rowKey={(k) => k.id} empty="No API keys." />
    </>
  );
}
