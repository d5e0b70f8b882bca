/**
 * What the UCP profile keeps with a checkout session (its `protocol_state`, opaque to the domain):
 * the release and platform it was created by, the capabilities negotiated then, the platform's
 * order webhook URL (ucp/webhooks delivers order events there), the ids the platform named each
 * line's item by, the destinations it gave (echoed back with their ids), the buyer as it sent it
 * (names and consent), and the last payment problem until the next change.
 */
import type { UcpVersion } from '../ucp-version.js';

export interface UcpDestination {
  id: string;
  [field: string]: unknown;
}

export interface UcpState {
  protocol: 'ucp';
  version: UcpVersion;
  agent_profile: string;
  order_webhook_url?: string;
  /** The capabilities and extensions both sides support, by name (response `ucp.capabilities`). */
  capabilities: string[];
  item_ids: string[];
  destinations?: UcpDestination[];
  /** The platform-given destination the session ships to (a saved address is the session's shippingAddressId). */
  selected_destination_id?: string;
  buyer?: Record<string, unknown>;
  payment_problem?: PaymentProblem;
  /** The instrument a completion paid with, without its credential (shown on the completed session). */
  instrument?: Record<string, unknown>;
}

/** Why the last completion did not pay: declined (`payment_failed`), or 3-D Secure the buyer must do (`requires_3ds`, an escalation). */
export interface PaymentProblem {
  code: 'payment_failed' | 'requires_3ds';
  content: string;
}

export function ucpStateOf(value: unknown): UcpState {
  const state = value as Partial<UcpState> | null;
  if (state?.protocol !== 'ucp') throw new Error('not a UCP checkout session');
  return state as UcpState;
}

export const isUcpState = (value: unknown): value is UcpState => (value as { protocol?: unknown } | null)?.protocol === 'ucp';
