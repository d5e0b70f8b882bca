/**
 * The merchant itself: its id, name and creation, and how it is paid — the Stripe connected
 * account its payments are direct charges on (GET/PUT /admin/merchants/{id}/payments), set or
 * disconnected by a full credential. Without one the merchant's checkouts offer no payment handler.
 */
import { useState } from 'react';
import { call, getMerchantPayments, listMerchants, setMerchantPayments, type AdminApiError, type GetMerchantPaymentsData } from '../api';
import { when } from '../format';
import { useLoad } from '../use-load';
import { ActionButton, ErrorNote, Loading } from '../ui';

function StripeAccountForm({ path, current, onSaved }: { path: GetMerchantPaymentsData['path']; current: string | null; onSaved: () => void }) {
  const [account, setAccount] = useState(current ?? '');
  const [error, setError] = useState<AdminApiError>();
  const [saved, setSaved] = useState(false);
  return (
    <form
      className="inline-form"
      aria-label="Connect a Stripe account"
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        setSaved(false);
        try {
          await call(setMerchantPayments({ path, body: { stripe_account_id: account.trim() } }));
          setSaved(true);
          onSaved();
        } catch (caught) {
          setError(caught as AdminApiError);
        }
      }}
    >
      <label htmlFor="stripe-account">Stripe connected account</label>
      <input id="stripe-account" value={account} onChange={(e) => setAccount(e.target.value)} placeholder="acct_…" pattern="acct_[A-Za-z0-9]{6,64}" required />
      <button type="submit">Connect</button>
      {current && <ActionButton label="Disconnect" variant="danger" confirm="Disconnect the Stripe account? New payments are refused until another is connected; payments taken stay on it." run={() => call(setMerchantPayments({ path, body: { stripe_account_id: null } }))} onDone={onSaved} />}
      {saved && (
        <span role="status" className="muted">
          Saved.
        </span>
      )}
      <ErrorNote error={error} />
    </form>
  );
}

export function MerchantSettings({ merchantId, canWrite }: { merchantId: string; canWrite: boolean }) {
  const merchants = useLoad(() => call(listMerchants({ query: { limit: 100 } })), 'merchants');
  const path = { merchant_id: merchantId };
  const payments = useLoad(() => call(getMerchantPayments({ path })), merchantId);
  const merchant = merchants.data?.items.find((m) => m.id === merchantId);
  return (
    <>
      <h1>Merchant</h1>
      <dl className="facts">
        <dt>Id</dt>
        <dd>
          <code>{merchantId}</code>
        </dd>
        <dt>Name</dt>
        <dd>{merchant?.name ?? '—'}</dd>
        <dt>Created</dt>
        <dd>{when(merchant?.created_at)}</dd>
      </dl>
      <h2>Payments</h2>
      {payments.error?.status === 404 ? (
        <p className="empty">This gateway does not offer payment accounts yet.</p>
      ) : (
        <Loading loaded={payments}>
          {(p) => (
            <>
              <p data-testid="stripe-account">
                {p.stripe_account_id ? (
                  <>
                    Payments are direct charges on the Stripe account <code>{p.stripe_account_id}</code>.
                  </>
                ) : (
                  'No Stripe account connected: with PAYMENT_PROVIDER=stripe this merchant cannot take payments.'
                )}
              </p>
              {canWrite && <StripeAccountForm key={p.stripe_account_id ?? ''} path={path} current={p.stripe_account_id} onSaved={payments.reload} />}
            </>
          )}
        </Loading>
      )}
    </>
  );
}
