/**
 * The order a checkout session became, as a port: the payment worker decides an authorization's
 * fate by it (captured when the order exists, else cancelled). orders/ sits above payments/ and
 * owns the orders table: its store implements this (order-store.ts), services.ts hands it in.
 */
export interface SessionOrders {
  /** The id of the session's order, or null when the session placed none. */
  orderOfSession(sessionId: string): Promise<string | null>;
}
