/**
 * What the admin API and `gateway operators …` need beyond the shared services: operator
 * credentials, the audit log, and the admin's reads of merchants, endpoints and deliveries.
 */
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { WebhookEndpointService } from '../webhooks/endpoint-service.js';
import { WebhookStore } from '../webhooks/webhook-store.js';
import { AuditLog } from './audit-log.js';
import type { CommerceServices } from './handlers/commerce.js';
import { AuditStore } from './audit-store.js';
import { ConsoleSessionStore } from './console-session-store.js';
import { ConsoleSessions } from './console-sessions.js';
import { DeliveryStore } from './delivery-store.js';
import { MerchantStore } from './merchant-store.js';
import { OperatorService } from './operator-service.js';
import { OperatorStore } from './operator-store.js';

export interface AdminServices {
  operators: OperatorService;
  /** The console's sign-ins (console-sessions.ts). */
  consoleSessions: ConsoleSessions;
  audit: AuditLog;
  merchants: MerchantStore;
  deliveries: DeliveryStore;
  /** The same service `gateway webhooks …` runs. */
  webhookEndpoints: WebhookEndpointService;
  /** The customers, discounts and shipping services the merchant's CLI commands run. */
  commerce: CommerceServices;
}

export function buildAdminServices(db: Database, commerce: CommerceServices, logger?: Logger): AdminServices {
  const operators = new OperatorService(new OperatorStore(db));
  return {
    operators,
    consoleSessions: new ConsoleSessions(new ConsoleSessionStore(db), operators),
    audit: new AuditLog(new AuditStore(db), logger),
    merchants: new MerchantStore(db),
    deliveries: new DeliveryStore(db),
    webhookEndpoints: new WebhookEndpointService(new WebhookStore(db)),
    commerce,
  };
}
