/** A storefront template (STOREFRONT_URL, `--base-url`) is valid when it is an absolute http(s) URL, without query or fragment, once `{merchant_id}` is filled in. */
export function isStorefrontTemplate(template: string): boolean {
  try {
    const url = new URL(template.replaceAll('{merchant_id}', 'merchant'));
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash;
  } catch {
    return false;
  }
}
