/**
 * One product as the catalog serves it (GET /admin/merchants/{id}/products/{product_id}):
 * variants with their price and stock, attributes and tags — and, for a full credential, its
 * base price and each variant's price and units on hand edited in place (PATCH, written through
 * the catalog import so search and checkout see it at once).
 */
import { useState } from 'react';
import { call, getMerchantProduct, updateMerchantProduct, type AdminApiError, type GetMerchantProductData, type Product, type ProductEdit } from '../api';
import { money } from '../format';
import { useLoad } from '../use-load';
import { ErrorNote, Loading } from '../ui';
import { stockOf } from './stock';

function EditForm({ product, path, onSaved }: { product: Product; path: GetMerchantProductData['path']; onSaved: (p: Product) => void }) {
  const [price, setPrice] = useState(String(product.price));
  const [variants, setVariants] = useState(() => (product.variants ?? []).map((v) => ({ sku: v.sku, price: String(v.price), quantity: String(v.inventory?.quantity ?? 0) })));
  const [error, setError] = useState<AdminApiError>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (i: number, field: 'price' | 'quantity', value: string) => setVariants(variants.map((v, j) => (j === i ? { ...v, [field]: value } : v)));
  return (
    <form
      className="panel-form"
      aria-label="Edit prices and stock"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(undefined);
        setSaved(false);
        try {
          const body: ProductEdit = { price: Number(price), ...(variants.length ? { variants: variants.map((v) => ({ sku: v.sku, price: Number(v.price), quantity: Number(v.quantity) })) } : {}) };
          onSaved(await call(updateMerchantProduct({ path, body })));
          setSaved(true);
        } catch (caught) {
          setError(caught as AdminApiError);
        } finally {
          setBusy(false);
        }
      }}
    >
      <strong>Prices and stock</strong>
      <label className="row">
        Base price ({product.currency}) <input type="number" min={0} step="0.01" value={price} onChange={(e) => setPrice(e.target.value)} required />
      </label>
      {variants.map((v, i) => (
        <div className="row" key={v.sku} data-sku={v.sku}>
          <code>{v.sku}</code>
          <label className="row">
            Price <input type="number" min={0} step="0.01" value={v.price} onChange={(e) => set(i, 'price', e.target.value)} required aria-label={`Price of ${v.sku}`} />
          </label>
          <label className="row">
            Stock <input type="number" min={0} step={1} value={v.quantity} onChange={(e) => set(i, 'quantity', e.target.value)} required aria-label={`Stock of ${v.sku}`} />
          </label>
        </div>
      ))}
      <div className="row">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        {saved && (
          <span role="status" className="muted">
            Saved.
          </span>
        )}
      </div>
      <ErrorNote error={error} />
    </form>
  );
}

export function ProductDetail({ merchantId, productId, canWrite }: { merchantId: string; productId: string; canWrite: boolean }) {
  const path = { merchant_id: merchantId, product_id: productId };
  const loaded = useLoad(() => call(getMerchantProduct({ path })), `${merchantId}|${productId}`);
  const [fresh, setFresh] = useState<Product>();
  return (
    <Loading loaded={loaded}>
      {(first) => {
        const p = fresh ?? first;
        const stock = stockOf(p);
        return (
          <section aria-label={`Product ${p.title}`} className="product-detail">
            <h2>{p.title}</h2>
            <dl className="facts">
              <dt>Id</dt>
              <dd>
                <code>{p.id}</code>
              </dd>
              <dt>Price</dt>
              <dd>{money(p.price, p.currency)}</dd>
              <dt>Stock</dt>
              <dd data-testid="product-stock">{stock}</dd>
              {p.category && (
                <>
                  <dt>Category</dt>
                  <dd>{p.category}</dd>
                </>
              )}
              {p.vendor && (
                <>
                  <dt>Vendor</dt>
                  <dd>{p.vendor}</dd>
                </>
              )}
              {Object.entries(p.attributes ?? {}).map(([name, values]) => (
                <div key={name}>
                  <dt>{name}</dt>
                  <dd>{values.join(', ')}</dd>
                </div>
              ))}
              {(p.tags ?? []).length > 0 && (
                <>
                  <dt>Tags</dt>
                  <dd>
                    {p.tags!.map((t) => (
                      <span className="tag" key={t}>
                        {t}
                      </span>
                    ))}
                  </dd>
                </>
              )}
            </dl>
            {p.description && <p>{p.description}</p>}
            <h3>Variants</h3>
            {(p.variants ?? []).length === 0 ? (
              <p className="empty">No variants: the product is sold as itself.</p>
            ) : (
              <div className="table-scroll" role="region" aria-label="Variants" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">SKU</th>
                      <th scope="col">Options</th>
                      <th scope="col">Price</th>
                      <th scope="col">Stock</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.variants!.map((v) => (
                      <tr key={v.sku} data-sku={v.sku}>
                        <td data-label="SKU">
                          <code>{v.sku}</code>
                        </td>
                        <td data-label="Options">
                          {Object.entries(v.attributes ?? {})
                            .map(([k, value]) => `${k}: ${value}`)
                            .join(', ') || '—'}
                        </td>
                        <td data-label="Price">{money(v.price, v.currency)}</td>
                        <td data-label="Stock">{v.inventory ? `${v.inventory.quantity.toLocaleString()} · ${v.inventory.status.replaceAll('_', ' ')}${v.inventory.policy === 'continue' ? ' (backorders)' : ''}` : '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {canWrite && <EditForm key={p.id} product={p} path={path} onSaved={setFresh} />}
          </section>
        );
      }}
    </Loading>
  );
}
