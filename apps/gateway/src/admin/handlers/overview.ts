import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { AdminServices } from '../admin-services.js';
import { catalogImportWire, endpointWire, healthWire } from '../wire.js';
import { existingMerchant } from './existing-merchant.js';

/** The console's home in one read: the orders' and payments' figures (merchant-overview.ts), failing endpoints, running imports. */
export function overviewOperations(admin: Pick<AdminServices, 'overview' | 'deliveries' | 'catalogImports' | 'merchants'>): OperationHandlers {
  return {
    getMerchantOverview: async (req, res) => {
      const merchantId = await existingMerchant(req, admin.merchants);
      const [activity, health, endpoints] = await Promise.all([
        admin.overview.activity(merchantId),
        admin.deliveries.health(merchantId),
        // A merchant has a handful of endpoints; 100 is the most one page of the admin API holds.
        admin.deliveries.endpoints(merchantId, { position: undefined, take: 100 }),
      ]);
      const failing = endpoints.filter((e) => e.disabledAt !== null || health(e.id).failingNow);
      const p = activity.payments;
      res.json({
        merchant_id: merchantId,
        generated_at: new Date().toISOString(),
        today: { since: activity.since, currencies: activity.today },
        orders_by_day: activity.ordersByDay,
        payments_needing_attention: {
          count: p.count,
          items: p.items.map((i) => ({ id: i.id, order_id: i.orderId, kind: i.kind, state: i.state, provider: i.provider, amount: i.amount, currency: i.currency, last_error: i.lastError, created_at: i.createdAt })),
        },
        failing_webhook_endpoints: failing.map((e) => ({ ...endpointWire(e), health: healthWire(health(e.id)) })),
        imports_running: admin.catalogImports.running(merchantId).map(catalogImportWire),
      });
    },
  };
}
