/**
 * The merchant's own pages, which ACP documents link to: an order's `permalink_url` and the
 * product and variant `url`s of a product feed. `STOREFRONT_URL` is their base, e.g.
 * `https://shop.example` or, for several merchants, `https://{merchant_id}.shops.example`:
 *
 *   <base>/products/<product id>                 Product.url
 *   <base>/products/<product id>?variant=<sku>   Variant.url
 *   <base>/orders/<order id>                     Order.permalink_url
 *   <base>/checkouts/<session id>                UCP checkout `continue_url` (the buyer's handoff)
 *   <base>/policies/<policy>                     UCP checkout `links` (terms-of-service, privacy-policy, …)
 */
const MERCHANT = '{merchant_id}';

/**
 * Where permalinks point while STOREFRONT_URL is unset: a name under `.invalid`, which never
 * resolves (RFC 2606), so nobody mistakes it for a real page. ACP requires a permalink on every order.
 */
export const PLACEHOLDER_STOREFRONT = 'https://{merchant_id}.storefront.invalid';

export class StorefrontUrls {
  private readonly base: string;

  constructor(template: string, merchantId: string) {
    this.base = template.replaceAll(MERCHANT, encodeURIComponent(merchantId).toLowerCase()).replace(/\/+$/, '');
  }

  product(productId: string): string {
    return `${this.base}/products/${encodeURIComponent(productId)}`;
  }

  variant(productId: string, sku: string): string {
    return `${this.product(productId)}?variant=${encodeURIComponent(sku)}`;
  }

  order(orderId: string): string {
    return `${this.base}/orders/${encodeURIComponent(orderId)}`;
  }

  checkout(sessionId: string): string {
    return `${this.base}/checkouts/${encodeURIComponent(sessionId)}`;
  }

  policy(name: 'terms-of-service' | 'privacy-policy' | 'refund-policy' | 'shipping-policy'): string {
    return `${this.base}/policies/${name}`;
  }
}
