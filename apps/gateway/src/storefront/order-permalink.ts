/**
 * Where a buyer sees an order: the ACP Order's `permalink_url`, the same in a completion's
 * answer and in every order webhook of that order.
 *
 *   ORDER_URL_TEMPLATE set   the template, `{order_id}` (and `{merchant_id}`) filled in
 *   else STOREFRONT_URL set  <storefront>/orders/<order id>
 *   else                     the placeholder storefront under `.invalid` (never resolves)
 */
import { PLACEHOLDER_STOREFRONT, StorefrontUrls } from './storefront-urls.js';

export interface PermalinkSettings {
  /** ORDER_URL_TEMPLATE: the merchant's order page, with `{order_id}`. */
  orderUrlTemplate?: string | undefined;
  /** STOREFRONT_URL: the merchant's storefront, may hold `{merchant_id}`. */
  storefrontUrl?: string | undefined;
}

export function orderPermalink(settings: PermalinkSettings, merchantId: string, orderId: string): string {
  if (settings.orderUrlTemplate) {
    return settings.orderUrlTemplate.replaceAll('{order_id}', encodeURIComponent(orderId)).replaceAll('{merchant_id}', encodeURIComponent(merchantId).toLowerCase());
  }
  return new StorefrontUrls(settings.storefrontUrl ?? PLACEHOLDER_STOREFRONT, merchantId).order(orderId);
}
