/**
 * Which orders were placed through UCP: an order whose checkout session's `protocol_state` is a
 * UCP one (`{"protocol": "ucp", "version", "agent_profile", "order_webhook_url"?}`, written by UCP
 * checkout). The only database access of UCP's order operations.
 */
import type { Database } from '../../db/database.js';
import { sql } from '../../db/statement.js';

export interface UcpPlacement {
  orderId: string;
  merchantId: string;
  /** The UCP release of the checkout that placed the order. */
  version: string;
  /** The platform's profile URL (UCP-Agent) at checkout. */
  agentProfile: string | null;
}

export class UcpOrderStore {
  constructor(private readonly db: Pick<Database, 'sql'>) {}

  /** The order's UCP placement, whatever its merchant; null for an unknown order or one not placed through UCP. */
  async placement(orderId: string): Promise<UcpPlacement | null> {
    const [row] = await this.db.sql.query<{ merchant_id: string; version: string; agent_profile: string | null }>(sql`
      SELECT o.merchant_id, s.protocol_state->>'version' AS version, s.protocol_state->>'agent_profile' AS agent_profile
      FROM orders AS o JOIN checkout_sessions AS s ON s.id = o.checkout_session_id
      WHERE o.id = ${orderId} AND s.protocol_state->>'protocol' = 'ucp'`);
    return row ? { orderId, merchantId: row.merchant_id, version: row.version, agentProfile: row.agent_profile } : null;
  }
}
