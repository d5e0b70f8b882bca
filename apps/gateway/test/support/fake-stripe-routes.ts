/**
 * The Stripe API paths the double answers from its own state (PaymentIntents: create, retrieve,
 * update, confirm, capture, cancel; refunds), each answer laid over stripe-mock's fixture for the
 * request so that it has the fixture's shape. Other paths get the fixture as it is.
 */
import { missing, type Answer, type FakeIntent, type FakeIntents } from './fake-stripe-intents.js';

export type Move = 'capture' | 'cancel' | 'refund' | 'confirm' | 'create';

export function route(state: FakeIntents, method: string, path: string, params: Record<string, unknown>, account: string | undefined, fixture: Answer, moves: { move: Move; intent: string }[]): Answer {
  const shaped = (fields: Record<string, unknown>): Answer => ({ status: 200, body: { ...fixture.body, ...fields } });
  const intentShaped = (intent: FakeIntent): Answer => {
    const view = state.view(intent);
    const charges = { object: 'list', data: intent.charge ? [state.chargeView(intent)] : [], has_more: false, url: `/v1/charges?payment_intent=${intent.id}` };
    return shaped({ ...view, charges });
  };
  const done = (move: Move, intent: FakeIntent, refused: Answer | undefined): Answer => {
    if (refused && refused.status !== 402) return refused;
    moves.push({ move, intent: intent.id });
    return refused ?? intentShaped(intent);
  };

  if (method === 'POST' && path === '/v1/payment_intents') {
    const created = state.create(params, account);
    moves.push({ move: 'create', intent: created.id });
    if (params.payment_method) created.payment_method = String(params.payment_method);
    if (params.confirm !== 'true') return intentShaped(created);
    const token = (params.payment_method_data as Record<string, unknown> | undefined)?.shared_payment_granted_token;
    return done('confirm', created, state.confirm(created, (token as string | undefined) ?? (params.payment_method as string | undefined), params.return_url as string | undefined));
  }
  if (method === 'POST' && path === '/v1/refunds') {
    const refund = state.refund(params);
    if ('status' in refund && typeof refund.status === 'number') return refund as Answer;
    const made = refund as { id: string; payment_intent: string };
    moves.push({ move: 'refund', intent: made.payment_intent });
    return shaped({ ...made, object: 'refund' });
  }
  const match = /^\/v1\/payment_intents\/([^/]+)(?:\/(confirm|capture|cancel))?$/.exec(path);
  if (!match) return fixture;
  const found = state.intents.get(match[1]!);
  if (!found || found.account !== account) return missing('payment_intent', match[1]!);
  if (method === 'GET' && !match[2]) return intentShaped(found);
  if (method !== 'POST') return fixture;
  switch (match[2]) {
    case undefined:
      return state.update(found, params) ?? intentShaped(found);
    case 'confirm': {
      const token = (params.payment_method_data as Record<string, unknown> | undefined)?.shared_payment_granted_token;
      const methodId = (token as string | undefined) ?? (params.payment_method as string | undefined) ?? found.payment_method ?? undefined;
      return done('confirm', found, state.confirm(found, methodId, params.return_url as string | undefined));
    }
    case 'capture':
      return done('capture', found, state.capture(found, params));
    default:
      return done('cancel', found, state.cancel(found, params));
  }
}
