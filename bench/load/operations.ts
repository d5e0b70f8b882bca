/** The operations bench/load drives, as requests built from the ids the server prepared. */
export interface LoadIds {
  productId: string;
  sessionId: string;
  checkoutBody: string;
}

export interface LoadReady extends LoadIds {
  gateway: string;
  bare: string;
  key: string;
  database: string;
  rateLimits: string;
  /** Open sessions, each completed once by the completeCheckoutSession run. */
  openSessions: string[];
}

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: string;
}

export interface LoadOperation {
  name: string;
  request(ids: LoadIds): LoadRequest;
  /** Each request needs a fresh session: run once per open session instead of for a duration. */
  oncePerSession?: boolean;
}

export const OPERATIONS: LoadOperation[] = [
  { name: 'getProduct', request: ({ productId }) => ({ method: 'GET', path: `/acp/products/${productId}` }) },
  { name: 'searchProducts (filters)', request: () => ({ method: 'GET', path: '/acp/products?category=chairs&max_price=200&page_size=10' }) },
  { name: 'searchProducts (q, hybrid)', request: () => ({ method: 'GET', path: '/acp/products?q=oak%20desk%20with%20drawers&page_size=10' }) },
  { name: 'createCheckoutSession', request: ({ checkoutBody }) => ({ method: 'POST', path: '/checkout_sessions', body: checkoutBody }) },
  { name: 'getCheckoutSession', request: ({ sessionId }) => ({ method: 'GET', path: `/checkout_sessions/${sessionId}` }) },
  {
    name: 'updateCheckoutSession',
    request: ({ sessionId }) => ({ method: 'PATCH', path: `/checkout_sessions/${sessionId}`, body: JSON.stringify({ customer: { email: 'ada@example.com', name: 'Ada Lovelace' } }) }),
  },
  { name: 'completeCheckoutSession', request: ({ sessionId }) => ({ method: 'POST', path: `/checkout_sessions/${sessionId}/complete` }), oncePerSession: true },
  { name: 'emitWebhook', request: () => ({ method: 'POST', path: '/webhooks/emit', body: JSON.stringify({ event_type: 'order.created', payload: { order_id: 'ord_bench' } }) }) },
];
