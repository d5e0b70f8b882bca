/** The cluster suite's merchant, catalog and plain HTTP calls (status, headers and body, whatever the status). */
import { catalogFile } from '../../support/fixtures.js';
import { SF_ADDRESS, stocked } from '../../support/checkout.js';
import { keyOf, type Cluster } from './cluster.js';

export const MERCHANT = 'cluster-shop';
export const PRODUCTS = [
  stocked('sofa', [{ sku: 'sofa-grey', quantity: 1_000_000, price: 499 }]),
  stocked('lamp', [{ sku: 'lamp-white', quantity: 1_000_000, price: 29.5 }]),
  stocked('rug', [{ sku: 'rug-wool', quantity: 1_000_000, price: 120 }]),
  stocked('scarce', [{ sku: 'scarce-1', quantity: 7, price: 75 }]),
];
export { SF_ADDRESS };

export interface Answer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function call(base: string, method: string, path: string, key: string, json?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'X-ACP-API-Key': key, ...(json === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** Through the operator CLI, as a team would: the catalog, a key with room to spare, the receiver's endpoint. */
export async function setUpShop(cluster: Cluster, receiverUrl: string): Promise<{ key: string }> {
  const created = await cluster.cli(['merchants', 'create', MERCHANT]); // a --merchant must exist
  if (created.code !== 0) throw new Error(`merchants create failed: ${created.stderr}`);
  const imported = await cluster.cli(['catalog', 'import', catalogFile(PRODUCTS), '--merchant', MERCHANT]);
  if (imported.code !== 0) throw new Error(`catalog import failed: ${imported.stderr}`);
  const { key } = keyOf(await cluster.cli(['keys', 'create', '--merchant', MERCHANT, '--env', 'production', '--tier', 'enterprise', '--rpm', '10000000', '--rpd', '100000000']));
  const endpoint = await cluster.cli(['webhooks', 'add-endpoint', '--merchant', MERCHANT, '--url', `${receiverUrl}/hooks`]);
  if (endpoint.code !== 0) throw new Error(`add-endpoint failed: ${endpoint.stderr}`);
  // Replicas that have served the merchant before, as in production: its search index is loaded (a first search builds it).
  await Promise.all(cluster.replicas.map((r) => call(r.url, 'GET', '/acp/products?q=sofa', key)));
  return { key };
}

/** Creates a session for one unit of `productId` (with an address, so it can be completed) and returns its id. */
export async function createSession(base: string, key: string, productId = 'sofa'): Promise<string> {
  const created = await call(base, 'POST', '/checkout_sessions', key, { items: [{ product_id: productId, quantity: 1 }], shipping_address: SF_ADDRESS });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.checkout_session.id as string;
}
