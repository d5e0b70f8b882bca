import { useState } from 'react';
import { call, createApiKey, listApiKeys, revokeApiKey, type AdminApiError, type ApiKey, type CreateApiKeyRequest } from '../api';
import { PagedTable, type Columns } from '../data-table';
import { when } from '../format';
import { useLoad } from '../use-load';
import { ActionButton, ErrorNote, ShownOnce } from '../ui';

type Scope = NonNullable<CreateApiKeyRequest['scopes']>[number];
type Choice<K extends keyof CreateApiKeyRequest> = NonNullable<CreateApiKeyRequest[K]> | '';
const SCOPES: Scope[] = ['*', 'catalog:read', 'checkout:read', 'checkout:write', 'orders:read', 'orders:write', 'webhooks:write'];

/** The tiers' default limits (src/auth/tiers.ts): what a key without its own rpm/rpd gets. Enterprise sets its own. */
const TIER_DEFAULTS: Record<string, { rpm: number; rpd: number } | undefined> = { sandbox: { rpm: 60, rpd: 1_000 }, production: { rpm: 600, rpd: 100_000 } };

/** "600/min · 100,000/day (tier default)" */
export function limitsOf(key: Pick<ApiKey, 'tier' | 'rpm' | 'rpd'>): string {
  const base = TIER_DEFAULTS[key.tier] ?? TIER_DEFAULTS.production!;
  const own = key.rpm !== null || key.rpd !== null;
  return `${(key.rpm ?? base.rpm).toLocaleString()}/min · ${(key.rpd ?? base.rpd).toLocaleString()}/day${own ? '' : ' (tier default)'}`;
}

function CreateKey({ merchantId, onCreated, created }: { merchantId: string; onCreated: (id: string) => void; created: ApiKey | undefined }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['*']);
  const [environment, setEnvironment] = useState<Choice<'environment'>>('');
  const [tier, setTier] = useState<Choice<'tier'>>('');
  const [rpm, setRpm] = useState('');
  const [rpd, setRpd] = useState('');
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<AdminApiError>();
  return (
    <form
      className="inline-form"
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        try {
          const limits = { ...(tier ? { tier } : {}), ...(rpm ? { rpm: Number(rpm) } : {}), ...(rpd ? { rpd: Number(rpd) } : {}) };
          const body: CreateApiKeyRequest = { ...(name.trim() ? { name: name.trim() } : {}), scopes, ...(environment ? { environment } : {}), ...limits };
          const made = await call(createApiKey({ path: { merchant_id: merchantId }, body }));
          setSecret(made.secret);
          onCreated(made.api_key.id);
        } catch (caught) {
          setError(caught as AdminApiError);
        }
      }}
    >
      <label htmlFor="key-name">Name</label>
      <input id="key-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="what it is for: storefront, ChatGPT agent…" />
      <fieldset>
        <legend>Scopes</legend>
        {SCOPES.map((scope) => (
          <label key={scope} className="check">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))} /> {scope === '*' ? 'all (*)' : scope}
          </label>
        ))}
      </fieldset>
      <label htmlFor="key-environment">Environment</label>
      <select id="key-environment" value={environment} onChange={(e) => setEnvironment(e.target.value as Choice<'environment'>)}>
        <option value="">the gateway's</option>
        <option value="development">development</option>
        <option value="sandbox">sandbox</option>
        <option value="production">production</option>
      </select>
      <label htmlFor="key-tier">Tier</label>
      <select id="key-tier" value={tier} onChange={(e) => setTier(e.target.value as Choice<'tier'>)}>
        <option value="">by environment (production → production, else sandbox)</option>
        <option value="sandbox">sandbox (60/min, 1,000/day)</option>
        <option value="production">production (600/min, 100,000/day)</option>
        <option value="enterprise">enterprise (its own limits)</option>
      </select>
      <label htmlFor="key-rpm">Requests/min</label>
      <input id="key-rpm" type="number" min={1} max={100000000} value={rpm} onChange={(e) => setRpm(e.target.value)} placeholder="tier's" required={tier === 'enterprise'} style={{ width: '8rem' }} />
      <label htmlFor="key-rpd">Requests/day</label>
      <input id="key-rpd" type="number" min={1} max={1000000000} value={rpd} onChange={(e) => setRpd(e.target.value)} placeholder="tier's" required={tier === 'enterprise'} style={{ width: '9rem' }} />
      <button type="submit" disabled={scopes.length === 0}>
        Create key
      </button>
      <ErrorNote error={error} />
      {/* The secret goes once the key it belongs to is revoked: it no longer opens anything. */}
      {created && !created.revoked_at && (
        <>
          <ShownOnce label={`New key ${created.name ? `“${created.name}” ` : ''}${created.display} (${created.tier}, ${limitsOf(created)})`} secret={secret} />
        </>
      )}
    </form>
  );
}

export function Keys({ merchantId, canWrite }: { merchantId: string; canWrite: boolean }) {
  const [trail, setTrail] = useState<string[]>([]);
  const cursor = trail.at(-1);
  const keys = useLoad(() => call(listApiKeys({ path: { merchant_id: merchantId }, query: { limit: 20, cursor } })), `${merchantId}|${cursor}`);
  const [createdId, setCreatedId] = useState<string>();
  const created = keys.data?.items.find((k) => k.id === createdId);
  const columns: Columns<ApiKey> = [
    { id: 'name', header: 'Name', cell: ({ row }) => row.original.name ?? <span className="muted">unnamed</span> },
    { id: 'display', header: 'Key', cell: ({ row }) => <code>{row.original.display}</code> },
    { accessorKey: 'id', header: 'Id' },
    { id: 'scopes', header: 'Scopes', cell: ({ row }) => row.original.scopes.join(' ') },
    { accessorKey: 'tier', header: 'Tier' },
    { id: 'limits', header: 'Limits', cell: ({ row }) => limitsOf(row.original) },
    { id: 'created', header: 'Created', cell: ({ row }) => when(row.original.created_at) },
    {
      id: 'state',
      header: 'State',
      cell: ({ row }) =>
        row.original.revoked_at ? (
          <span className="muted">revoked {when(row.original.revoked_at)}</span>
        ) : canWrite ? (
          <ActionButton label="Revoke" variant="danger" confirm={`Revoke ${row.original.display}? Requests with it are refused at once.`} run={() => call(revokeApiKey({ path: { key_id: row.original.id } }))} onDone={keys.reload} />
        ) : (
          'active'
        ),
    },
  ];
  return (
    <>
      <h1>API keys</h1>
      {canWrite && (
        <CreateKey
          merchantId={merchantId}
          created={created}
          onCreated={(id) => {
            setCreatedId(id);
            keys.reload();
          }}
        />
      )}
      <PagedTable loaded={keys} trail={trail} onMove={setTrail} caption="API keys" columns={columns} rowKey={(k) => k.id} empty="No API keys." />
    </>
  );
}
