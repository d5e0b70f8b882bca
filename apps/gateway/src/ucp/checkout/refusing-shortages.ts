/**
 * A release with no envelope for an outcome (releases/: `checkout.shortageAtCreation`, 2026-01-11):
 * a create asking more than the stock holds is refused in the transaction that would create the
 * session (its first shortage), which rolls it back.
 */
import type { SessionRecord } from '../../checkout/session-record.js';
import type { BeforeCommit } from '../../db/transaction.js';
import { UcpError } from '../ucp-error.js';

/** Refuses, in the transaction that would create it, a session asking more than the stock holds (its first shortage). */
export function refusingShortages(next: BeforeCommit<SessionRecord> | undefined): BeforeCommit<SessionRecord> {
  return async (tx, record) => {
    const [short] = record.shortages;
    if (short) {
      const content = short.available === null ? `Item ${short.sku} is no longer sold` : `Only ${short.available} of item ${short.sku} left; ${short.requested} requested`;
      throw new UcpError('out_of_stock', content, 200, {}, { path: `$.line_items[${short.lines[0]!}]` });
    }
    await next?.(tx, record);
  };
}
