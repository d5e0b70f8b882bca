/**
 * What the PSP reported of a payment, written to its payment operations: a capture or cancel the
 * worker was still trying is confirmed done; a capture, cancel or refund made at the PSP and not by
 * us (its dashboard, an authorization that expired) is recorded as a settled operation, so the
 * order's payment shows it and nothing ever asks the PSP to do it again. In the caller's
 * transaction, with the event's effects. The statements are the payments domain's, which owns the
 * table (payments/operations/payment-operation-store.ts); settlement names the part it uses.
 */
import type { PaymentOperationStore } from '../../payments/operations/payment-operation-store.js';

export type { MoveElsewhere, RefundElsewhere } from '../../payments/operations/payment-operation-store.js';

export type PspFactsStore = Pick<PaymentOperationStore, 'confirmMove' | 'recordMove' | 'recordRefund'>;
