/**
 * What the admin API and `gateway operators …` need beyond the shared services: operator
 * credentials, the audit log, and the admin's reads of merchants, endpoints and deliveries.
 */
import type { Logger } from 'pino';
import type { CatalogService } from '../catalog/catalog-service.js';
import type { CatalogImportService } from '../catalog/import/catalog-import-service.js';
import type { Database } from '../db/database.js';
import type { MerchantPaymentAccounts } from '../merchants/merchant-payment-accounts.js';
import type { MerchantService } from '../merchants/merchant-service.js';
import type { OrderStore } from '../orders/order-store.js';
import type { PaymentOperationStore } from '../payments/operations/payment-operation-store.js';
import type { ReconciliationService } from '../settlement/reconciliation/reconciliation-service.js';
import type { EndpointUrlPolicy } from '../webhooks/endpoint-url.js';
import { DeliveryLog } from '../webhooks/delivery-log.js';
import { DeliveryLogStore } from '../webhooks/delivery-log-store.js';
import { EndpointHealthStore } from '../webhooks/endpoint-health-store.js';
import { WebhookEndpointService } from '../webhooks/endpoint-service.js';
import { WebhookStore } from '../webhooks/webhook-store.js';
import { AuditLog } from './audit-log.js';
import type { CommerceServices } from './handlers/commerce.js';
import { AuditStore } from './audit-store.js';
import { ConsoleSessionStore } from './console-session-store.js';
import { ConsoleSessions } from './console-sessions.js';
import { CatalogImports } from './catalog-imports.js';
import { MerchantOverview } from './merchant-overview.js';
import { OperatorService } from './operator-service.js';
import { ProductEdits } from './product-edits.js';
import { OperatorStore } from './operator-store.js';

export interface AdminServices {
  operators: OperatorService;
  /** The console's sign-ins (console-sessions.ts). */
  consoleSessions: ConsoleSessions;
  audit: AuditLog;
  /** The merchants' own service (merchants/): the admin API lists, creates and checks merchants through it. */
  merchants: MerchantService;
  /** Each merchant's Stripe connected account (the service the CLI's `merchants payments` runs). */
  paymentAccounts: MerchantPaymentAccounts;
  /** Webhook endpoints, their health and deliveries as operators read them, and a resend (webhooks/delivery-log.ts). */
  deliveries: DeliveryLog;
  /** The console home's order and payment figures. */
  overview: MerchantOverview;
  /** The same service `gateway webhooks …` runs. */
  webhookEndpoints: WebhookEndpointService;
  /** The customers, discounts and shipping services the merchant's CLI commands run. */
  commerce: CommerceServices;
  /** What a new webhook endpoint's URL must be (https in production, no private address unless allowed). */
  endpointUrls: EndpointUrlPolicy;
  /** Catalog imports, as `gateway catalog import` runs them, followed in this process (catalog-imports.ts). */
  catalogImports: CatalogImports;
  /** The catalog the merchant API searches, and whose search index `gateway catalog reindex` rebuilds. */
  catalog: CatalogService;
  /** A product's prices and stock changed by an operator, through the catalog import. */
  productEdits: ProductEdits;
  /** Payments compared with the payment provider, drift repaired (`gateway payments reconcile`). */
  reconciliation: ReconciliationService;
}

/** What the admin services share with the rest of the gateway (services.ts builds them). */
export interface SharedServices {
  commerce: CommerceServices;
  imports: CatalogImportService;
  catalog: CatalogService;
  endpointUrls: EndpointUrlPolicy;
  paymentAccounts: MerchantPaymentAccounts;
  reconciliation: ReconciliationService;
  merchants: MerchantService;
  /** Where the console home's figures come from: the orders' and the payment operations' own stores. */
  figures: { orders: OrderStore; payments: PaymentOperationStore };
}

export function buildAdminServices(db: Database, { commerce, imports, catalog, endpointUrls, paymentAccounts, reconciliation, merchants, figures }: SharedServices, logger?: Logger): AdminServices {
  const operators = new OperatorService(new OperatorStore(db), merchants);
  // Endpoints and deliveries change through one store, webhooks' own: the CLI's service and the admin's resend share it.
  const webhookStore = new WebhookStore(db);
  return {
    operators,
    consoleSessions: new ConsoleSessions(new ConsoleSessionStore(db), operators),
    audit: new AuditLog(new AuditStore(db), logger),
    merchants,
    paymentAccounts,
    deliveries: new DeliveryLog(new DeliveryLogStore(db), webhookStore, new EndpointHealthStore(db)),
    overview: new MerchantOverview(figures.orders, figures.payments),
    webhookEndpoints: new WebhookEndpointService(webhookStore),
    commerce,
    endpointUrls,
    catalogImports: new CatalogImports(imports, logger),
    catalog,
    productEdits: new ProductEdits(catalog, imports),
    reconciliation,
  };
}
