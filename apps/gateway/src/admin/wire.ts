/** The admin API's bodies (the contract's schemas) from the stores' records: snake_case, ISO dates. */
import { KEY_PREFIX } from '../auth/api-key.js';
import type { KeyRecord } from '../auth/key-store.js';
import type { AuditEntry } from './audit-store.js';
import type { CatalogImportJob } from './catalog-imports.js';
import type { DeliveryView, EndpointView } from '../webhooks/delivery-log-store.js';
import type { EndpointHealth } from '../webhooks/endpoint-health-store.js';
import type { MerchantRow } from '../merchants/merchant-store.js';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export const merchantWire = (m: MerchantRow) => ({ id: m.id, name: m.name, created_at: m.createdAt.toISOString(), stripe_account_id: m.stripeAccountId });

export const keyWire = (k: KeyRecord) => ({
  id: k.id,
  name: k.name,
  display: `${KEY_PREFIX[k.environment]}…${k.last4}`,
  environment: k.environment,
  merchant_ids: k.merchantIds,
  scopes: k.scopes,
  tier: k.tier,
  rpm: k.rpm,
  rpd: k.rpd,
  signing: k.signingSecret !== null,
  signature_scheme: k.signingSecret === null ? null : k.signatureScheme,
  created_at: k.createdAt.toISOString(),
  revoked_at: iso(k.revokedAt),
});

export const endpointWire = (e: EndpointView) => ({
  id: e.id,
  merchant_id: e.merchantId,
  url: e.url,
  protocol: e.protocol,
  enabled: e.disabledAt === null,
  disabled_at: iso(e.disabledAt),
  created_at: e.createdAt.toISOString(),
  previous_secret_expires_at: iso(e.previousSecretExpiresAt),
});

export const healthWire = (h: EndpointHealth) => ({
  window_hours: 24,
  attempts: h.attempts,
  succeeded: h.succeeded,
  success_rate: h.successRate,
  mean_latency_ms: h.meanLatencyMs,
  p95_latency_ms: h.p95LatencyMs,
  failing: h.failingNow,
  last_failure: h.lastFailure && { at: h.lastFailure.at, response_status: h.lastFailure.responseStatus, error: h.lastFailure.error },
});

export const deliveryWire = (d: DeliveryView) => ({
  id: d.id,
  event_id: d.eventId,
  event_type: d.eventType,
  webhook_endpoint_id: d.endpointId,
  webhook_endpoint_url: d.endpointUrl,
  merchant_id: d.merchantId,
  state: d.state,
  attempt_count: d.attemptCount,
  next_attempt_at: iso(d.nextAttemptAt),
  created_at: d.createdAt.toISOString(),
  attempts: d.attempts.map((a) => ({ number: a.number, attempted_at: a.createdAt.toISOString(), response_status: a.responseStatus, latency_ms: a.durationMs, error: a.error, response_excerpt: a.responseExcerpt })),
});

export const auditWire = (a: AuditEntry) => ({
  id: a.id,
  operator_id: a.operatorId,
  operation: a.operation,
  method: a.method,
  path: a.path,
  target: a.target,
  merchant_id: a.merchantId,
  outcome: a.outcome,
  status: a.status,
  detail: a.detail,
  request_id: a.requestId,
  created_at: a.createdAt.toISOString(),
});

export const catalogImportWire = (j: CatalogImportJob) => ({
  id: j.id,
  merchant_id: j.merchantId,
  state: j.state,
  received: j.received,
  imported: j.imported,
  failed: j.failed,
  unembedded: j.unembedded,
  errors: j.errors.map((e) => ({ line: e.line, message: e.message })),
  started_at: j.startedAt.toISOString(),
  finished_at: iso(j.finishedAt),
});
