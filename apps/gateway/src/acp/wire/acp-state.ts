/**
 * What the ACP profile keeps with a session (the domain's `protocolState`): the agent's item
 * ids per line, buyer and fulfillment contact as the agent sent them, the negotiated
 * interventions and extensions, and the last payment problem until the session changes or completes.
 */
import type { AuthenticationMetadata } from '../../payments/payment-provider.js';
import type { AcpBuyer, AcpFulfillmentDetails } from './acp-types.js';

export interface AcpPaymentProblem {
  code: 'payment_declined' | 'requires_3ds';
  message: string;
  authentication_metadata?: AuthenticationMetadata;
}

export interface AcpState {
  protocol: 'acp';
  /** The agent's item id of each line, by position. */
  item_ids: string[];
  buyer?: AcpBuyer;
  fulfillment_details?: AcpFulfillmentDetails;
  /** Interventions both sides support (the intersection), fixed at creation. */
  interventions: string[];
  /** Extensions active for the session (`discount`: wire/discounts.ts); absent in sessions written before any was supported. */
  extensions?: string[];
  payment_problem?: AcpPaymentProblem;
}

export function acpStateOf(raw: unknown): AcpState {
  const state = raw as Partial<AcpState> | null;
  if (state?.protocol === 'acp') return state as AcpState;
  return { protocol: 'acp', item_ids: [], interventions: [] }; // a session made through our own API
}
