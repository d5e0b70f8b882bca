/** A buyer's dispute (chargeback) of an order's payment, as the PSP reports it. Amounts in minor units. */
export interface DisputeRecord {
  /** The PSP's dispute id (Stripe: dp_…). */
  id: string;
  merchantId: string;
  orderId: string;
  amount: bigint;
  currency: string;
  /** The PSP's reason (fraudulent, product_not_received, …). */
  reason: string;
  /** The PSP's status (warning_needs_response, needs_response, under_review, won, lost, …). */
  status: string;
  /** When the buyer opened it. */
  createdAt: Date;
  /** When the PSP last reported a change (its event's time, so a late, older event never overwrites a newer one). */
  updatedAt: Date;
}
