/**
 * A finished checkout (completed or canceled) stays finished, at both releases. The specification
 * says two things that must be read together:
 * - checkout.md "Business": after a checkout reaches `completed` it is immutable; "Cancel Checkout":
 *   a checkout already canceled or completed cannot be canceled, the business SHOULD answer an error
 *   saying the operation is not allowed;
 * - "Complete Checkout" answers the checkout with its `order`, and Idempotency-Key only guards a
 *   retry that reuses its key — a platform that retries a completion with a new key (or completes a
 *   checkout the buyer abandoned meanwhile) must still learn where the checkout stands.
 *
 * What we chose: a request that would change a finished checkout — update, cancel — is refused with
 * the release's "not modifiable" error (`checkout_not_modifiable`: 2026-01-11 409 in its
 * `requires_escalation` shape, 2026-04-08 200 with its error envelope, ucp-error.ts); a completion
 * of a finished checkout changes nothing and is answered 200 with the session as it is — `completed`
 * with its order, or `canceled` without one — and no message (nothing the platform could fix).
 */
import type { SessionRecord } from '../../checkout/session-record.js';
import { UcpError } from '../ucp-error.js';

export const isFinished = (record: SessionRecord): boolean => record.session.status !== 'open';

/** The record while its checkout is open; else the release's "not modifiable" refusal. */
export function unlessFinished(record: SessionRecord, operation: 'updated' | 'canceled'): SessionRecord {
  if (!isFinished(record)) return record;
  const { id, status } = record.session;
  throw new UcpError('checkout_not_modifiable', `Checkout ${id} is ${status} and cannot be ${operation}`, 409, {}, { resource: true });
}
