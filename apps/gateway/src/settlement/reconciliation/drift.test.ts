import { describe, expect, it } from 'vitest';
import type { PaymentState } from '../../payments/payment-provider.js';
import { driftOf, type DriftKind, type RepairAction } from './drift.js';
import type { ReconciledPayment } from './reconciliation-store.js';

const NOW = new Date('2026-12-04T12:00:00Z');
const recorded = { captured: false, capturePending: false, canceled: false, cancelPending: false };
const order = { id: 'ord_1', total: 10_000n, refunded: 0n, canceled: false, status: 'created' };
const payment = (changes: Partial<ReconciledPayment> = {}): ReconciledPayment => ({
  merchantId: 'shop', sessionId: 'cs_1', reference: 'pi_1', sessionStatus: 'completed', sessionUpdatedAt: new Date('2026-12-04T08:00:00Z'), currency: 'USD', order, recorded, ...changes,
});
const psp = (status: PaymentState['status'], amounts: Partial<Pick<PaymentState, 'authorized' | 'captured' | 'refunded'>> = {}): PaymentState => ({
  reference: 'pi_1', status, authorized: 0n, captured: 0n, refunded: 0n, currency: 'USD', ...amounts,
});

describe('driftOf', () => {
  it.each<[string, ReconciledPayment, PaymentState | null, DriftKind | null, RepairAction | null, bigint?]>([
    ['an order captured in full, nothing refunded', payment({ recorded: { ...recorded, captured: true } }), psp('captured', { authorized: 10_000n, captured: 10_000n }), null, null],
    ['an order authorized and never captured', payment(), psp('authorized', { authorized: 10_000n }), 'authorized_not_captured', 'capture', 10_000n],
    ['an order whose capture the worker is still trying', payment({ recorded: { ...recorded, capturePending: true } }), psp('authorized', { authorized: 10_000n }), null, null],
    ['a canceled order still authorized', payment({ order: { ...order, canceled: true, status: 'canceled' } }), psp('authorized', { authorized: 10_000n }), 'cancel_missing', 'cancel', 10_000n],
    ['a session without order, authorized, canceled', payment({ order: null, sessionStatus: 'canceled' }), psp('authorized', { authorized: 5_000n }), 'authorized_without_order', 'cancel', 5_000n],
    ['a session without order, authorized, still open a minute ago', payment({ order: null, sessionStatus: 'open', sessionUpdatedAt: new Date(NOW.getTime() - 60_000) }), psp('authorized', { authorized: 5_000n }), null, null],
    ['a session without order, authorized, open for hours', payment({ order: null, sessionStatus: 'open' }), psp('authorized', { authorized: 5_000n }), 'authorized_without_order', 'cancel', 5_000n],
    ['a session without order, captured', payment({ order: null, sessionStatus: 'canceled' }), psp('captured', { captured: 5_000n, refunded: 1_000n }), 'captured_without_order', 'refund', 4_000n],
    ['a captured amount other than the total', payment(), psp('captured', { captured: 9_000n }), 'captured_amount_differs', null],
    ['more refunded at the PSP than by us', payment({ order: { ...order, refunded: 1_000n } }), psp('captured', { captured: 10_000n, refunded: 3_500n }), 'refunded_elsewhere', 'record_refund', 2_500n],
    ['our refund not at the PSP', payment({ order: { ...order, refunded: 1_000n } }), psp('captured', { captured: 10_000n }), 'refund_not_at_psp', null],
    ['an order whose authorization the PSP released', payment(), psp('canceled'), 'not_paid_at_psp', null],
    ['a payment the PSP does not know', payment(), null, 'unknown_at_psp', null],
  ])('%s', (_name, ours, theirs, kind, action, amount) => {
    const drift = driftOf(ours, theirs, { now: NOW });
    expect(drift?.kind ?? null).toBe(kind);
    expect(drift?.repair?.action ?? null).toBe(action);
    if (amount !== undefined) expect(drift?.repair?.amount).toBe(amount);
  });
});
