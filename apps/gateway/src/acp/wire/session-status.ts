/**
 * The ACP status of a session and the messages that explain it (rfc.agentic_checkout.md):
 * `not_ready_for_payment` while something is missing or out of stock, `authentication_required`
 * while a payment waits for 3-D Secure, `ready_for_payment` otherwise; `completed` and `canceled`
 * are final. Problems an agent can act on are `messages[]`, each with the JSONPath it is about.
 */
import type { SessionRecord } from '../../checkout/session-record.js';
import type { AcpState } from './acp-state.js';
import type { AcpMessage } from './acp-types.js';

export type AcpStatus = 'not_ready_for_payment' | 'authentication_required' | 'ready_for_payment' | 'completed' | 'canceled';

export interface StatusAndMessages {
  status: AcpStatus;
  messages: AcpMessage[];
}

const error = (code: string, param: string, content: string, resolution: AcpMessage['resolution']): AcpMessage => ({
  type: 'error', code, param, resolution, content_type: 'plain', content,
});

export function statusOf(record: SessionRecord, state: AcpState): StatusAndMessages {
  const { session } = record;
  if (session.status === 'completed') return { status: 'completed', messages: [] };
  if (session.status === 'canceled') {
    return { status: 'canceled', messages: [{ type: 'info', content_type: 'plain', content: 'Checkout session has been canceled.' }] };
  }
  const blocking: AcpMessage[] = [];
  for (const shortage of record.shortages) {
    const line = shortage.lines[0]!;
    const content =
      shortage.available === null
        ? `Item ${shortage.sku} is no longer sold; remove it from line_items`
        : `Only ${shortage.available} of item ${shortage.sku} left; ${shortage.requested} requested`;
    blocking.push(error('out_of_stock', `$.line_items[${line}]`, content, 'recoverable'));
  }
  const ships = session.lineItems.some((line) => line.requiresShipping);
  if (ships && session.shippingAddress === null) {
    blocking.push(error('missing', '$.fulfillment_details.address', 'A shipping address is needed: send fulfillment_details.address', 'requires_buyer_input'));
  }
  if (!session.fulfillmentOptionId) {
    const ids = record.fulfillmentOptions.map((option) => option.id).join(', ');
    blocking.push(error('missing', '$.selected_fulfillment_options', `Choose a fulfillment option (${ids}) in selected_fulfillment_options`, 'recoverable'));
  }
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
