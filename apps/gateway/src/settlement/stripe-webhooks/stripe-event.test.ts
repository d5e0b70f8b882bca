import { describe, expect, it } from 'vitest';
import { paymentEventOf, type StripeEventLike } from './stripe-event.js';

const event = (type: string, object: Record<string, unknown>, account: string | null = 'acct_1'): StripeEventLike => ({ id: 'evt_1', type, created: 1_764_000_000, account, data: { object } });
const intent = { id: 'pi_1', object: 'payment_intent', metadata: { merchant_id: 'shop', session_id: 'cs_1' }, currency: 'usd' };

describe('paymentEventOf', () => {
  it.each([
    ['payment_intent.succeeded', { ...intent, amount_received: 4200 }, { kind: 'captured', amount: 4200n }],
    ['payment_intent.payment_failed', { ...intent, last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' } }, { kind: 'failed', reason: 'insufficient_funds' }],
    ['payment_intent.canceled', { ...intent, cancellation_reason: 'abandoned' }, { kind: 'canceled', reason: 'abandoned' }],
  ])('%s names the payment by its metadata and reference', (type, object, fact) => {
    expect(paymentEventOf(event(type, object))).toMatchObject({ id: 'evt_1', provider: 'stripe', type, target: { reference: 'pi_1', merchantId: 'shop', sessionId: 'cs_1', account: 'acct_1' }, fact });
  });

  it("charge.refunded carries the charge's refunded total and its newest refund", () => {
    const charge = { id: 'ch_1', payment_intent: 'pi_1', amount_refunded: 700, currency: 'usd', refunds: { data: [{ id: 're_old', created: 1 }, { id: 're_new', created: 2 }] } };
    expect(paymentEventOf(event('charge.refunded', charge))).toMatchObject({ target: { reference: 'pi_1', merchantId: null }, fact: { kind: 'refunded', amount: 700n, refundId: 're_new' } });
    const withoutList = { ...charge, refunds: undefined, payment_intent: { id: 'pi_1' } }; // API 2022-11-15 and later; an expanded intent
    expect(paymentEventOf(event('charge.refunded', withoutList))).toMatchObject({ target: { reference: 'pi_1' }, fact: { refundId: null } });
  });

  it.each(['charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.closed'])('%s is the dispute as it stands; only created opens it', (type) => {
    const dispute = { id: 'dp_1', amount: 4200, currency: 'usd', reason: 'fraudulent', status: 'needs_response', payment_intent: 'pi_1', created: 1_763_999_000 };
    expect(paymentEventOf(event(type, dispute, null))).toMatchObject({
      target: { reference: 'pi_1', account: null },
      fact: { kind: 'disputed', opened: type === 'charge.dispute.created', dispute: { id: 'dp_1', amount: 4200n, status: 'needs_response', createdAt: new Date(1_763_999_000_000) } },
    });
  });

  it('is null for the types the gateway does not handle', () => {
    expect(paymentEventOf(event('customer.created', { id: 'cus_1' }))).toBeNull();
  });
});
