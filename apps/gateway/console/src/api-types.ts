/** The admin contract's shapes the console reads (openapi/admin), as the pages use them. */
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
  webhook_endpoint_url?: string;
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
export interface Address {
  name?: string;
  line1?: string;
  line2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
  phone?: string;
}
export interface LineQuantity {
  line: number;
  quantity: number;
}
export interface AppliedDiscount {
  type: 'code' | 'promotion';
  code?: string;
  promotion_id?: string;
  title: string;
  applies_to: 'items' | 'shipping';
  amount: number;
}
/**
 * The order's payment as the payments work adds it to the contract (issue 36); absent on orders
 * without one and before that lands, so every field is read as optional.
 */
export interface Payment {
  provider?: string;
  reference?: string | null;
  status?: string;
  currency?: string;
  authorized_amount?: number;
  captured_amount?: number;
  refunded_amount?: number;
  disputes?: { id: string; amount?: number; reason?: string; status?: string; created_at?: string }[];
}
export interface Order {
  id: string;
  status: string;
  currency: string;
  amounts: Money;
  customer: { email?: string; name?: string; phone?: string; consent?: Record<string, boolean | undefined> } | null;
  customer_id?: string | null;
  shipping_address?: Address | null;
  shipping?: { method: string; amount: number };
  tax?: { rate?: number; amount: number };
  discounts?: { applied?: AppliedDiscount[] };
  line_items: { id?: string; product_id?: string; variant_sku?: string; title?: string; quantity: number; unit_price?: number; subtotal?: number; discount?: number }[];
  fulfillments: { id: string; created_at: string; status?: string; carrier?: string | null; tracking_number?: string | null; tracking_url?: string | null; delivered_at?: string | null; lines?: LineQuantity[] }[];
  refunds: { id: string; amount: number; created_at: string; reason?: string; note?: string | null; lines?: LineQuantity[] }[];
  refunded_amount: number;
  canceled_at: string | null;
  created_at: string;
  payment?: Payment | null;
}
/** A movement of money asked of the PSP, as the admin order detail lists them once issue 36 adds them. */
export interface PaymentOperation {
  id: string;
  kind: string;
  state: string;
  amount: number;
  currency?: string;
  reference?: string | null;
  attempts?: number;
  last_error?: string | null;
  created_at: string;
}
export interface OrderDetail {
  order: Order;
  payment_operations?: PaymentOperation[];
  events: { id: string; type: string; created_at: string; deliveries: Delivery[] }[];
}
export interface EndpointHealth {
  window_hours: number;
  attempts: number;
  succeeded: number;
  success_rate: number | null;
  mean_latency_ms: number | null;
  p95_latency_ms: number | null;
  failing: boolean;
  last_failure: { at: string; response_status: number | null; error: string | null } | null;
}
export interface WebhookEndpoint {
  id: string;
  merchant_id: string;
  url: string;
  protocol: 'gateway' | 'acp';
  enabled: boolean;
  disabled_at: string | null;
  created_at: string;
  health?: EndpointHealth;
}
export interface Overview {
  merchant_id: string;
  generated_at: string;
  today: { since: string; currencies: { currency: string; orders: number; revenue: number }[] };
  orders_by_day: { date: string; orders: number }[];
  payments_needing_attention: { count: number; items: { id: string; order_id: string | null; kind: string; state: string; provider: string; amount: number; currency: string; last_error: string | null; created_at: string }[] };
  failing_webhook_endpoints: WebhookEndpoint[];
  imports_running: CatalogImport[];
}
export interface ApiKey {
  id: string;
  name?: string | null;
  display: string;
  environment: string;
  scopes: string[];
  tier: string;
  rpm: number;
  rpd: number;
  created_at: string;
  revoked_at: string | null;
}
export interface Inventory {
  status: 'in_stock' | 'limited' | 'out_of_stock';
  quantity: number;
  policy: 'deny' | 'continue';
}
export interface Variant {
  sku: string;
  title?: string;
  price: number;
  currency: string;
  attributes?: Record<string, string>;
  inventory?: Inventory;
}
export interface Product {
  id: string;
  title: string;
  description?: string;
  vendor?: string;
  category?: string;
  price: number;
  currency: string;
  availability?: Inventory;
  tags?: string[];
  attributes?: Record<string, string[]>;
  variants?: Variant[];
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
