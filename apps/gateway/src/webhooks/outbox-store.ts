/** The outbox's writes (outbox.ts): an event and its deliveries, in the unit of work of the change it reports. */
import type { WebhookEvent } from '../contract/types.js';
import type { Tx } from '../db/transaction.js';
import { sql } from '../db/statement.js';
import { outboxEntry, type NewEvent } from './outbox.js';

export class OutboxStore {
  /** Writes an event and its deliveries in one statement, in the caller's transaction. */
  async enqueue(tx: Tx, event: NewEvent): Promise<WebhookEvent> {
    const entry = outboxEntry(event);
    await tx.execute(sql`WITH ${entry.ctes} SELECT 1`);
    return entry.event;
  }
}
