/**
 * The ACP status of a session and the messages that explain it (rfc.agentic_checkout.md):
 * `not_ready_for_payment` while the session still needs something (checkout/session-needs.ts: stock, an address, a fulfillment option), `authentication_required`
 * while a payment waits for 3-D Secure, `ready_for_payment` otherwise; `completed` and `canceled`
 * are final. Problems an agent can act on are `messages[]`, each with the JSONPath it is about.
 */
import { sessionNeeds, type SessionNeed } from '../../checkout/session-needs.js';
import type { SessionRecord } from '../../checkout/session-record.js';
import type { AcpState } from './acp-state.js';
import type * as Acp from '../generated/index.js';
import type { AcpMessage } from './acp-types.js';

export type AcpStatus = 'not_ready_for_payment' | 'authentication_required' | 'ready_for_payment' | 'completed' | 'canceled';

export interface StatusAndMessages {
  status: AcpStatus;
  messages: AcpMessage[];
}

const error = (code: Acp.MessageError['code'], param: string, content: string, resolution: Acp.MessageError['resolution']): AcpMessage => ({
  type: 'error', code, param, resolution, content_type: 'plain', content,
});

/** What the session still needs (the domain says), as the message an agent acts on. */
function needMessage(need: SessionNeed): AcpMessage {
  switch (need.kind) {
    case 'stock': {
      const { shortage } = need;
      const content =
        shortage.available === null
          ? `Item ${shortage.sku} is no longer sold; remove it from line_items`
          : `Only ${shortage.available} of item ${shortage.sku} left; ${shortage.requested} requested`;
      return error('out_of_stock', `$.line_items[${shortage.lines[0]!}]`, content, 'recoverable');
    }
    case 'shipping_address':
      return error('missing', '$.fulfillment_details.address', 'A shipping address is needed: send fulfillment_details.address', 'requires_buyer_input');
    case 'shipping_unavailable': {
      const where = need.region ? `${need.country}-${need.region}` : need.country;
      return error('region_restricted', '$.fulfillment_details.address.country', `The merchant does not ship to ${where}; send another fulfillment_details.address`, 'requires_buyer_input');
    }
    case 'fulfillment_option':
      return error('missing', '$.selected_fulfillment_options', `Choose a fulfillment option (${need.offered.join(', ')}) in selected_fulfillment_options`, 'recoverable');
  }
}

export function statusOf(record: SessionRecord, state: AcpState): StatusAndMessages {
  const { session } = record;
  if (session.status === 'completed') return { status: 'completed', messages: [] };
  if (session.status === 'canceled') {
    return { status: 'canceled', messages: [{ type: 'info', content_type: 'plain', content: 'Checkout session has been canceled.' }] };
  }
  const blocking = sessionNeeds(record).map(needMessage);
  const problem = state.payment_problem;
  if (problem?.code === 'requires_3ds') {
    const waiting = error('requires_3ds', '$.authentication_result', problem.message, 'requires_buyer_input');
    // The agent said at creation it cannot do 3-D Secure (capability negotiation): tell it this payment needs it.
    const unable = state.interventions.includes('3ds')
      ? []
      : [error('intervention_required', '$.capabilities.interventions', 'This payment requires 3-D Secure, which this agent did not declare it supports; pay with another instrument or hand the buyer over', 'requires_buyer_input')];
    return { status: 'authentication_required', messages: [...blocking, waiting, ...unable] };
  }
  const messages = problem ? [...blocking, error('payment_declined', '$.payment_data', problem.message, 'requires_buyer_input')] : blocking;
  return { status: blocking.length ? 'not_ready_for_payment' : 'ready_for_payment', messages };
}
