/** The merchant's discounts, shipping profile and customers, as the CLI's files hold them. */
import { useState } from 'react';
import {
  call,
  getCustomer,
  getShippingProfile,
  listCustomers,
  listDiscounts,
  removeCustomer,
  removeDiscountCode,
  removePromotion,
  removeShippingProfile,
  replaceShippingProfile,
  type AdminApiError,
  type Document,
} from '../api';
import { DataTable, PagedTable, type Columns } from '../data-table';
import { readable } from '../format';
import { useLoad } from '../use-load';
import { ActionButton, ErrorNote, Loading } from '../ui';

// Cells read as words, never JSON (a discount's targets, a customer's consent).
const text = readable;

/** "products: p_1, p_2" / "categories: Chairs" / "everything". */
function appliesTo(value: unknown): string {
  if (value === undefined || value === null || value === 'everything') return 'everything';
  return readable(value);
}

/** "marketing ✓ · analytics ✗": each consent the buyer gave or refused; "none recorded" when empty. */
function consentOf(value: unknown): string {
  const entries = Object.entries((value ?? {}) as Record<string, unknown>).filter(([, v]) => typeof v === 'boolean');
  return entries.length === 0 ? 'none recorded' : entries.map(([k, v]) => `${k.replaceAll('_', ' ')} ${v ? 'yes' : 'no'}`).join(' · ');
}

function discountValue(d: Document): string {
  if (d.kind === 'percentage') return `${text(d.percentage)} %`;
  if (d.kind === 'fixed' || d.kind === 'fixed_amount' || d.kind === 'amount') return text(d.amount ?? d.amounts);
  if (d.kind === 'free_shipping') return 'free shipping';
  return text(d.percentage ?? d.amount ?? d.amounts ?? '');
}

export function Discounts({ merchantId, canWrite }: { merchantId: string; canWrite: boolean }) {
  const discounts = useLoad(() => call(listDiscounts({ path: { merchant_id: merchantId } })), merchantId);
  const remove = (d: Document) =>
    d.type === 'code' ? call(removeDiscountCode({ path: { merchant_id: merchantId, code: text(d.code) } })) : call(removePromotion({ path: { merchant_id: merchantId, promotion_id: text(d.id) } }));
  const columns: Columns<Document> = [
    { id: 'name', header: 'Code or promotion', cell: ({ row }) => <code>{text(row.original.code ?? row.original.id)}</code> },
    { id: 'type', header: 'Type', cell: ({ row }) => text(row.original.type) },
    { id: 'kind', header: 'Kind', cell: ({ row }) => text(row.original.kind) },
    { id: 'value', header: 'Value', cell: ({ row }) => discountValue(row.original) },
    { id: 'applies', header: 'Applies to', cell: ({ row }) => appliesTo(row.original.applies_to) },
    { id: 'combinable', header: 'Combinable', cell: ({ row }) => (row.original.combinable === false ? 'no' : 'yes') },
    ...(canWrite
      ? [
          {
            id: 'actions',
            header: 'Actions',
            cell: ({ row }: { row: { original: Document } }) => (
              <ActionButton label="Remove" variant="danger" confirm={`Remove ${text(row.original.code ?? row.original.id)}? Orders keep the discounts they were given.`} run={() => remove(row.original)} onDone={discounts.reload} />
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <h1>Discounts</h1>
      <Loading loaded={discounts}>{(page) => <DataTable caption="Discounts" columns={columns} rows={page.items} rowKey={(d) => text(d.code ?? d.id)} empty="No discount codes or promotions." />}</Loading>
    </>
  );
}

export function Shipping({ merchantId, canWrite }: { merchantId: string; canWrite: boolean }) {
  const path = { merchant_id: merchantId };
  const profile = useLoad(() => call(getShippingProfile({ path })), merchantId);
  const [draft, setDraft] = useState<string>();
  const [error, setError] = useState<AdminApiError>();
  return (
    <>
      <h1>Shipping profile</h1>
      {profile.error?.status === 404 ? (
        <p className="empty">{profile.error.message}</p>
      ) : (
        <Loading loaded={profile}>
          {(data) =>
            draft === undefined ? (
              <>
                <pre className="document" tabIndex={0} aria-label="Shipping profile">
                  {JSON.stringify(data, null, 2)}
                </pre>
                {canWrite && (
                  <div className="toolbar">
                    <button type="button" onClick={() => setDraft(JSON.stringify(data, null, 2))}>
                      Edit
                    </button>
                    <ActionButton label="Remove" variant="danger" confirm="Remove the shipping profile? The merchant ships at the flat rate of the settings again." run={() => call(removeShippingProfile({ path }))} onDone={profile.reload} />
                  </div>
                )}
              </>
            ) : (
              <form
                onSubmit={async (event) => {
                  event.preventDefault();
                  setError(undefined);
                  let parsed: Document;
                  try {
                    parsed = JSON.parse(draft);
                  } catch (caught) {
                    setError({ message: `Not JSON: ${(caught as Error).message}` } as AdminApiError);
                    return;
                  }
                  try {
                    await call(replaceShippingProfile({ path, body: parsed }));
                    setDraft(undefined);
                    profile.reload();
                  } catch (caught) {
                    setError(caught as AdminApiError);
                  }
                }}
              >
                <label htmlFor="shipping-json">Profile (JSON, the file `shipping import` reads)</label>
                <textarea id="shipping-json" rows={18} value={draft} onChange={(e) => setDraft(e.target.value)} spellCheck={false} />
                <button type="submit">Save</button>
                <button type="button" onClick={() => setDraft(undefined)}>
                  Cancel
                </button>
                <ErrorNote error={error} />
              </form>
            )
          }
        </Loading>
      )}
    </>
  );
}

export function Customers({ merchantId, canWrite }: { merchantId: string; canWrite: boolean }) {
  const [trail, setTrail] = useState<string[]>([]);
  const [shown, setShown] = useState<{ id: string; email: string }>();
  const cursor = trail.at(-1);
  const customers = useLoad(() => call(listCustomers({ path: { merchant_id: merchantId }, query: { limit: 20, cursor } })), `${merchantId}|${cursor}`);
  const columns: Columns<Document> = [
    { id: 'email', header: 'Email', cell: ({ row }) => text(row.original.email) },
    { id: 'name', header: 'Name', cell: ({ row }) => text(row.original.name) },
    { id: 'addresses', header: 'Addresses', cell: ({ row }) => String((row.original.addresses as unknown[] | undefined)?.length ?? 0) },
    { id: 'consent', header: 'Consent', cell: ({ row }) => consentOf(row.original.consent) },
    {
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => {
        // Customers are addressed by id: no email in a URL (request logs, the audit log).
        const email = String(row.original.email);
        const id = String(row.original.id);
        return (
          <span className="actions">
            <button type="button" onClick={() => setShown({ id, email })}>
              Show
            </button>
            {canWrite && <ActionButton label="Erase" variant="danger" confirm={`Erase ${email}? Their personal data is removed from the customer and their orders, whichever protocol they bought through.`} run={() => call(removeCustomer({ path: { merchant_id: merchantId, customer_id: id } }))} onDone={customers.reload} />}
          </span>
        );
      },
    },
  ];
  return (
    <>
      <h1>Customers</h1>
      <PagedTable loaded={customers} trail={trail} onMove={setTrail} caption="Customers" columns={columns} rowKey={(c) => String(c.id)} empty="No saved customers." />
      {shown && <CustomerExport merchantId={merchantId} customer={shown} />}
    </>
  );
}

function CustomerExport({ merchantId, customer: { id, email } }: { merchantId: string; customer: { id: string; email: string } }) {
  const data = useLoad(() => call(getCustomer({ path: { merchant_id: merchantId, customer_id: id } })), `${merchantId}|${id}`);
  return (
    <section aria-label={`What is held about ${email}`}>
      <h2>{email}</h2>
      <Loading loaded={data}>
        {(doc) => (
          <pre className="document" tabIndex={0}>
            {JSON.stringify(doc, null, 2)}
          </pre>
        )}
      </Loading>
    </section>
  );
}
