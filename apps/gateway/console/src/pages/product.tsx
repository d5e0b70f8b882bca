import { Link } from 'wouter';
import { enc } from '../api';
import { ProductDetail } from '../catalog/product-detail';

/** A product's own page under the catalog (/m/:merchant/catalog/:product). */
export function ProductPage({ merchantId, productId, canWrite }: { merchantId: string; productId: string; canWrite: boolean }) {
  return (
    <>
      <p>
        <Link href={`/m/${enc(merchantId)}/catalog`}>← Catalog</Link>
      </p>
      <h1>Product</h1>
      <ProductDetail merchantId={merchantId} productId={productId} canWrite={canWrite} />
    </>
  );
}
