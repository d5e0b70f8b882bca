/** The event types Commerce Gateway sends (SPEC "Events"). */
export type WebhookEventType =
  | 'order.created'
  | 'order.updated'
  | 'order.fulfilled'
  | 'order.canceled'
  | 'order.refunded'
  | 'order.disputed';

/** The body of every delivery: `{ id, type, created, data: { object } }`. */
export interface WebhookEvent<T = unknown> {
  /** `evt_…`; the same on every retry of one event — deduplicate on it. */
  id: string;
  type: WebhookEventType;
  /** ISO 8601. */
  created: string;
  data: { object: T };
}

/**
 * The raw request body exactly as received: a string, a Buffer / Uint8Array (any ArrayBuffer
 * view) or an ArrayBuffer. Never the parsed JSON.
 */
export type WebhookPayload = string | ArrayBuffer | ArrayBufferView;

/** One signing secret, or several during a rotation (old and new). */
export type WebhookSecret = string | readonly string[];

/** The `X-Webhook-Signature` value as frameworks hand it over (`req.headers[…]`, `headers.get(…)`). */
export type SignatureHeaderValue = string | readonly string[] | null | undefined;

export interface SignOptions {
  /** Unix time in seconds to sign with; defaults to now. */
  timestamp?: number;
}

export interface VerifyOptions {
  /** Largest accepted distance, in seconds, between the header's `t` and now, either way. Default 300. */
  tolerance?: number;
  /** The clock, in milliseconds since the epoch (like `Date.now`). Inject it in tests. */
  now?: () => number;
}

export interface TestHeaderOptions extends SignOptions {
  payload: WebhookPayload;
  secret: WebhookSecret;
}
