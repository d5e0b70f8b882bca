/**
 * The admin API as the console calls it: same origin, the session cookie (HttpOnly, set by
 * POST /admin/console/session), `X-Console-Request: 1` on every write, and the admin API's one
 * error shape turned into an AdminApiError the pages show as it is worded.
 */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined>;

function withQuery(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function request<T>(method: string, path: string, options: { query?: Query; body?: unknown; credential?: string; file?: { data: Blob; type: string } } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-Console-Request'] = '1';
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.file) headers['Content-Type'] = options.file.type;
  if (options.credential) headers.Authorization = `Bearer ${options.credential}`;
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), { method, headers, credentials: 'same-origin', body: options.file ? options.file.data : options.body === undefined ? undefined : JSON.stringify(options.body) });
  } catch {
    throw new AdminApiError(0, 'network_error', 'The gateway cannot be reached; is it running?');
  }
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => undefined)) as { error?: { type?: string; message?: string; param?: string } } | undefined;
  if (!response.ok) {
    const error = body?.error;
    throw new AdminApiError(response.status, error?.type ?? 'internal_error', error?.message ?? `The gateway answered ${response.status}`, error?.param);
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body }),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, { body }),
  delete: <T>(path: string) => request<T>('DELETE', path),
  /** A file as the request's body (a catalog, a discounts file…). */
  upload: <T>(path: string, data: Blob, type: string) => request<T>('POST', path, { file: { data, type } }),
  signIn: (credential: string) => request<Session>('POST', '/admin/console/session', { credential }),
};

export const enc = encodeURIComponent;

// The admin contract's shapes the console reads (openapi/admin).
export interface Session {
  operator: { id: string; name: string; access: 'read' | 'full'; all_merchants: boolean; merchant_ids: string[] };
  expires_at: string | null;
}
export interface Page<T> {
  items: T[];
  has_more: boolean;
  next_cursor: string | null;
}
export interface Merchant {
  id: string;
  name: string;
  created_at: string;
}
export interface Attempt {
  number: number;
  attempted_at: string;
  response_status: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt?: string | null;
}
export interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  webhook_endpoint_id: string;
  merchant_id: string;
  state: 'pending' | 'succeeded' | 'failed' | 'abandoned';
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  attempts: Attempt[];
}
export interface Money {
  subtotal: number;
  discount?: number;
  tax: number;
  shipping: number;
  total: number;
}
export interface Order {
  id: string;
  status: string;
  currency: string;
  amounts: Money;
  customer: { email?: string; name?: string } | null;
  line_items: { id?: string; product_id?: string; title?: string; quantity: number }[];
  fulfillments: { id: string; created_at: string; carrier?: string | null; tracking_number?: string | null; lines?: { line: number; quantity: number }[] }[];
  refunds: { id: string; amount: number; created_at: string; reason?: string; lines?: { line: number; quantity: number }[] }[];
  refunded_amount: number;
  canceled_at: string | null;
  created_at: string;
}
export interface OrderDetail {
  order: Order;
  events: { id: string; type: string; created_at: string; deliveries: Delivery[] }[];
}
export interface WebhookEndpoint {
  id: string;
  merchant_id: string;
  url: string;
  protocol: 'gateway' | 'acp';
  enabled: boolean;
  disabled_at: string | null;
  created_at: string;
}
export interface ApiKey {
  id: string;
  display: string;
  environment: string;
  scopes: string[];
  tier: string;
  created_at: string;
  revoked_at: string | null;
}
export interface Product {
  id: string;
  title: string;
  category?: string;
  price: number;
  currency: string;
  availability?: string;
  similarity_score?: number;
}
export interface QueryUnderstanding {
  text?: string;
  min_price?: number;
  max_price?: number;
  price_preference?: 'low' | 'high';
  category?: string;
  attributes?: { name: string; value: string }[];
  [more: string]: unknown;
}
export interface ProductPage {
  items: Product[];
  page: number;
  page_size: number;
  total: number;
  query_understanding?: QueryUnderstanding;
}
export type Document = Record<string, unknown>;
export interface CatalogImport {
  id: string;
  state: 'running' | 'succeeded' | 'failed';
  received: number;
  imported: number;
  failed: number;
  errors: { line: number | null; message: string }[];
}
