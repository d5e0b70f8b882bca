/**
 * What customers needs of checkout for a data-subject request, as a port: checkout owns the
 * checkout sessions (and writes their orders at completion), and customers sits below checkout
 * (it may not import it). checkout/buyer-sessions-store.ts implements it; services.ts hands it in.
 */
import type { Tx } from '../db/transaction.js';

/** The buyer a request names: the email (normalized) and the merchant's customer of it, when there is one. */
export interface BuyerKey {
  email: string;
  customerId: string | null;
}

/** The sessions (locked) and orders of the buyer. */
export interface BuyerTrail {
  sessionIds: string[];
  orderIds: string[];
}

export interface BuyerOrder {
  id: string;
  checkout_session_id: string;
  status: string;
  currency: string;
  /** Minor units, as text. */
  total: string;
  created_at: string;
}

export interface BuyerSessions {
  /** Locks the merchant's sessions of the buyer (whichever protocol made them) and finds their orders. */
  trail(tx: Tx, merchantId: string, buyer: BuyerKey): Promise<BuyerTrail>;
  /** Takes the buyer's details out of these sessions (lines, totals, status and order stay); how many. */
  clearSessions(tx: Tx, merchantId: string, sessionIds: readonly string[]): Promise<number>;
  /** The merchant's orders of the buyer, newest first (amounts in minor units, as text). */
  orders(merchantId: string, buyer: BuyerKey, tx?: Tx): Promise<BuyerOrder[]>;
}
