/**
 * The only code that touches `payment_provider_events`: the ids of the PSP's webhook events
 * already handled. An event's id is recorded in the same transaction as its effects, so a
 * duplicate delivery (Stripe delivers at least once, and retries for days) changes nothing, and
 * an event whose handling failed is handled again on Stripe's retry.
 */
import { sql } from '../../db/statement.js';
import type { Tx } from '../../db/transaction.js';

export interface ProviderEvent {
  /** The PSP's event id (Stripe: evt_…). */
  id: string;
  /** The provider that sent it (stripe). */
  provider: string;
  /** Its type (payment_intent.succeeded, …), for the operator reading the table. */
  type: string;
}

export class ProviderEventStore {
  /**
   * Claims the event for this transaction: true when it was not handled before. A concurrent
   * delivery of the same event waits on the row until this transaction ends, then gets false.
   */
  async claim(tx: Tx, event: ProviderEvent): Promise<boolean> {
    const inserted = await tx.execute(sql`
      INSERT INTO payment_provider_events (id, provider, type) VALUES (${event.id}, ${event.provider}, ${event.type})
      ON CONFLICT (id) DO NOTHING`);
    return inserted === 1;
  }
}
