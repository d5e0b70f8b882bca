/**
 * The buyer a completion records, in one place for every protocol that completes a session (our
 * API, ACP, UCP, and MCP's tools over them): whoever sold, the buyer is the session's customer, known
 * by the normalized email — the identity per-customer discount limits count by, recorded with the
 * order's redemptions (completion-sql.ts).
 *
 * The buyer is remembered first, in the completion's transaction (CustomerDirectory.remember: the
 * customer upserted, the address saved). That upsert holds the customer's row until the transaction
 * ends, so concurrent completions by one email — through any protocol — run their completion
 * statements one after the other, each reading (READ COMMITTED: a new snapshot per statement) the
 * uses the one before it committed; a per-customer limit is then used no more than it allows.
 */
import type { Tx } from '../db/transaction.js';
import { normalizeEmail } from '../customers/customer.js';
import type { CompletionBuyer } from './checkout-store.js';
import type { CustomerDirectory } from './session-customer.js';
import type { Session } from './session.js';

export async function completionBuyer(directory: CustomerDirectory | undefined, tx: Tx, merchantId: string, row: Session): Promise<CompletionBuyer> {
  const email = row.customer?.email ? normalizeEmail(row.customer.email) || null : null;
  if (!email || !directory) return { email, customerId: row.customerId, shippingAddressId: row.shippingAddressId };
  const remembered = await directory.remember(tx, merchantId, row.customer!, row.shippingAddress);
  return { email, customerId: remembered.customerId, shippingAddressId: remembered.addressId };
}
