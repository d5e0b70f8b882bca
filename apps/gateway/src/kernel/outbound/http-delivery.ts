/**
 * One webhook POST through the outbound client (outbound-client.ts): to the vetted address only,
 * within a deadline, redirects not followed (a 3xx is an answer like any other), no retry (the
 * outbox has its own schedule), and at most the excerpt's bytes of the response body read (the
 * rest is not waited for: the connection is closed). Resolves with the status and the body's
 * excerpt once the excerpt is read, the body ends or the deadline passes — whichever comes first;
 * rejects with DeliveryError when no answer came.
 */
import { exchange } from './outbound-client.js';
import { RESPONSE_EXCERPT_BYTES, responseExcerpt } from './response-excerpt.js';
import type { SafeTarget } from './safe-target.js';

export const DELIVERY_TIMEOUT_MS = 10_000;
const USER_AGENT = 'CommerceGateway-Webhooks/1.0';

export interface DeliveryRequest {
  target: SafeTarget;
  /** The exact bytes to send (the signature covers them). */
  body: string;
  /** Extra headers, e.g. X-Webhook-Signature. */
  headers: Record<string, string>;
  timeoutMs?: number;
  /** How much of the response body to read and keep (default RESPONSE_EXCERPT_BYTES). */
  excerptBytes?: number;
}

export interface DeliveryResponse {
  status: number;
  /** Until the status and headers came. */
  durationMs: number;
  /** The body's first `excerptBytes` as text (responseExcerpt()); what came before the deadline when the body was slow. */
  excerpt?: string;
}

/** Sends `body` as one POST; see the module comment. */
export type SendWebhook = (request: DeliveryRequest) => Promise<DeliveryResponse>;

export const postWebhook: SendWebhook = async ({ target, body, headers, timeoutMs = DELIVERY_TIMEOUT_MS, excerptBytes = RESPONSE_EXCERPT_BYTES }) => {
  const answer = await exchange(target, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT, ...headers },
    body,
    timeoutMs,
    maxResponseBytes: excerptBytes,
    read: 'excerpt',
  });
  return { status: answer.status, durationMs: answer.durationMs, excerpt: responseExcerpt(answer.body, excerptBytes) };
};
