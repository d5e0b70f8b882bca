/**
 * The catalog as its search sees it: a query shows what it was understood as (the words searched,
 * price bounds, preference, attributes) and each result's score; without one, every product by
 * title — one page at a time, so a catalog of 50,000 products loads 25 rows, never all of them.
 */
import { useState } from 'react';
import { Link } from 'wouter';
import { stockOf } from '../catalog/stock';
import { readable } from '../format';
import { call, enc, getCatalogImport, importCatalog, searchMerchantProducts, type AdminApiError, type CatalogImport, type ImportCatalogData, type Product, type QueryUnderstanding } from '../api';
import { DataTable, type Columns } from '../data-table';
import { money } from '../format';
import { useLoad } from '../use-load';
import { ErrorNote, Loading } from '../ui';

const PAGE_SIZE = 25;

function Understanding({ understood }: { understood: QueryUnderstanding }) {
  const facts: [string, string][] = [];
  facts.push(['Searched words', understood.text ? `“${understood.text}”` : '(none)']);
  if (understood.min_price !== undefined) facts.push(['Minimum price', String(understood.min_price)]);
  if (understood.max_price !== undefined) facts.push(['Maximum price', String(understood.max_price)]);
  if (understood.price_preference) facts.push(['Price preference', understood.price_preference === 'low' ? 'cheaper first' : 'dearer first']);
  // `category` is not (yet) a field of the contract's QueryUnderstanding: shown when the gateway sends it.
  const fields: Record<string, unknown> = understood;
  if (typeof fields.category === 'string') facts.push(['Category', fields.category]);
  for (const attribute of understood.attributes ?? []) facts.push([`Attribute ${attribute.name}`, attribute.value]);
  for (const [name, value] of Object.entries(understood)) {
    if (!['text', 'min_price', 'max_price', 'price_preference', 'category', 'attributes'].includes(name) && value !== undefined) facts.push([name, readable(value)]);
  }
  return (
    <section className="understanding" aria-label="Query understanding">
      <h2>Understood as</h2>
      <dl className="facts">
        {facts.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Uploads a catalog file through the admin API and follows the import until it ends. */
function ImportCatalog({ merchantId, onImported }: { merchantId: string; onImported: () => void }) {
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState<CatalogImport>();
  const [error, setError] = useState<AdminApiError>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="inline-form"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!file) return;
        setBusy(true);
        setError(undefined);
        setProgress(undefined);
        try {
          const type = /\.json$/i.test(file.name) ? 'application/json' : 'application/x-ndjson';
          // The file is the body as it is (NDJSON or a JSON array of products), not serialized again.
          const body = file as unknown as ImportCatalogData['body'];
          let current = await call(importCatalog({ path: { merchant_id: merchantId }, body, bodySerializer: null, headers: { 'Content-Type': type } }));
          setProgress(current);
          while (current.state === 'running') {
            await new Promise((resolve) => setTimeout(resolve, 500));
            current = await call(getCatalogImport({ path: { import_id: current.id } }));
            setProgress(current);
          }
          if (current.state === 'succeeded') onImported();
        } catch (caught) {
          setError(caught as AdminApiError);
        } finally {
          setBusy(false);
        }
      }}
    >
      <label htmlFor="catalog-file">Import a catalog (NDJSON or a JSON array, up to 1 MiB; larger: <code>gateway catalog import</code>)</label>
      <input id="catalog-file" type="file" accept=".ndjson,.jsonl,.json,application/json,application/x-ndjson" onChange={(e) => setFile(e.target.files?.[0])} />
      <button type="submit" disabled={!file || busy}>
        {busy ? 'Importing…' : 'Import'}
      </button>
      <ErrorNote error={error} />
      {progress && (
        <p role="status" className="muted">
          Import {progress.id}: {progress.state} — {progress.imported.toLocaleString()} of {progress.received.toLocaleString()} products
          {progress.errors.map((e) => ` · ${e.line === null ? '' : `line ${e.line}: `}${e.message}`).join('')}
        </p>
      )}
    </form>
  );
}

export function Catalog({ merchantId, canWrite }: { merchantId: string; canWrite: boolean }) {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const answer = useLoad(() => call(searchMerchantProducts({ path: { merchant_id: merchantId }, query: { q: q || undefined, page, page_size: PAGE_SIZE } })), `${merchantId}|${q}|${page}`);
  const columns: Columns<Product> = [
    { id: 'title', header: 'Product', cell: ({ row }) => <Link href={`/m/${enc(merchantId)}/catalog/${enc(row.original.id)}`}>{row.original.title}</Link> },
    { id: 'id', header: 'Id', cell: ({ row }) => <code>{row.original.id}</code> },
    { id: 'category', header: 'Category', cell: ({ row }) => row.original.category || '—' },
    { id: 'price', header: 'Price', cell: ({ row }) => money(row.original.price, row.original.currency) },
    { id: 'stock', header: 'Stock', cell: ({ row }) => <span data-testid="stock">{stockOf(row.original)}</span> },
    { id: 'variants', header: 'Variants', cell: ({ row }) => String(row.original.variants?.length ?? 0) },
    ...(q ? [{ id: 'score', header: 'Score', cell: ({ row }: { row: { original: Product } }) => <span className="score">{row.original.similarity_score?.toFixed(3) ?? '—'}</span> }] : []),
  ];
  return (
    <>
      <h1>Catalog</h1>
      {canWrite && <ImportCatalog merchantId={merchantId} onImported={answer.reload} />}
      <form
        role="search"
        className="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          setQ(typed.trim());
          setPage(1);
        }}
      >
        <label htmlFor="catalog-q">Search</label>
        <input id="catalog-q" type="search" placeholder="something to keep my coffee hot under $30" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={500} />
        <button type="submit">Search</button>
      </form>
      <Loading loaded={answer}>
        {(data) => {
          const pages = Math.max(1, Math.ceil(data.total / PAGE_SIZE));
          return (
            <>
              {data.query_understanding && <Understanding understood={data.query_understanding} />}
              <p className="muted" role="status">
                {data.total.toLocaleString()} product{data.total === 1 ? '' : 's'}
                {q ? ` match “${q}”` : ''}
              </p>
              <DataTable caption="Products" columns={columns} rows={data.items} rowKey={(p) => p.id} empty="No products." />
              <nav className="pager" aria-label="Pages">
                <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  ← Previous
                </button>
                <span>
                  Page {page} of {pages.toLocaleString()}
                </span>
                <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  Next →
                </button>
              </nav>
            </>
          );
        }}
      </Loading>
    </>
  );
}
