import {
  cancelCheckoutSession,
  completeCheckoutSession,
  createCheckoutSession,
  getCheckoutSession,
  updateCheckoutSession,
} from '../generated/sdk.gen.js';
import type {
  CheckoutSession,
  CheckoutSessionResponse,
  CreateCheckoutSessionRequest,
  UpdateCheckoutSessionRequest,
} from '../generated/types.gen.js';
import { zCheckoutSessionResponse } from '../generated/zod.gen.js';
import type { Call, GeneratedOperation, RequestOptions, Transport } from '../http/transport.js';
import { requireId } from './require-id.js';

/**
 * Carts and their checkout (`/checkout_sessions`). Every method resolves to the session itself
 * (the `checkout_session` of the contract's response). Writes carry an Idempotency-Key.
 *
 *   const session = await gw.checkoutSessions.create({ items: [{ product_id: 'chair-1', quantity: 2 }] });
 *   await gw.checkoutSessions.update(session.id, { shipping_address: { country: 'US', state: 'CA' } });
 *   const done = await gw.checkoutSessions.complete(session.id); // done.order.id
 */
export class CheckoutSessions {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Creates an `open` session (POST /checkout_sessions → 201). */
  async create(params: CreateCheckoutSessionRequest, options?: RequestOptions): Promise<CheckoutSession> {
    return this.#session({ operation: 'createCheckoutSession', method: 'POST', send: createCheckoutSession as GeneratedOperation, body: params }, options);
  }

  /** The session's current state, in any status (GET /checkout_sessions/{id}). */
  async retrieve(sessionId: string, options?: RequestOptions): Promise<CheckoutSession> {
    const path = { session_id: requireId(sessionId, 'sessionId') };
    return this.#session({ operation: 'getCheckoutSession', method: 'GET', send: getCheckoutSession as GeneratedOperation, path }, options);
  }

  /** Changes an open session; `items`, when given, replace the whole cart (PATCH /checkout_sessions/{id}). */
  async update(sessionId: string, params: UpdateCheckoutSessionRequest, options?: RequestOptions): Promise<CheckoutSession> {
    const path = { session_id: requireId(sessionId, 'sessionId') };
    return this.#session({ operation: 'updateCheckoutSession', method: 'PATCH', send: updateCheckoutSession as GeneratedOperation, path, body: params }, options);
  }

  /** Places the order: status `completed`, with `order` (POST /checkout_sessions/{id}/complete). */
  async complete(sessionId: string, options?: RequestOptions): Promise<CheckoutSession> {
    const path = { session_id: requireId(sessionId, 'sessionId') };
    return this.#session({ operation: 'completeCheckoutSession', method: 'POST', send: completeCheckoutSession as GeneratedOperation, path }, options);
  }

  /** Cancels an open session (POST /checkout_sessions/{id}/cancel). */
  async cancel(sessionId: string, options?: RequestOptions): Promise<CheckoutSession> {
    const path = { session_id: requireId(sessionId, 'sessionId') };
    return this.#session({ operation: 'cancelCheckoutSession', method: 'POST', send: cancelCheckoutSession as GeneratedOperation, path }, options);
  }

  async #session(call: Omit<Call, 'schema'>, options: RequestOptions | undefined): Promise<CheckoutSession> {
    const data = await this.#transport.call<CheckoutSessionResponse>({ ...call, schema: zCheckoutSessionResponse }, options);
    return data.checkout_session;
  }
}
