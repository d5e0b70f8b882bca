-- Idempotency keys are scoped by the contract's operation and its path parameters, not by the raw
-- path (which told POST /checkout_sessions from POST /checkout_sessions/ and ran it twice). Records
-- kept from before are carried over under their operation, so a retry across the upgrade is still
-- answered from them. The holder column names the process running an in-flight request.
DROP INDEX "idempotency_records_merchant_id_api_key_id_method_path_key_key";

ALTER TABLE "idempotency_records" ADD COLUMN "holder" TEXT, ADD COLUMN "operation" TEXT, ADD COLUMN "params" TEXT;

UPDATE "idempotency_records" SET
  "operation" = CASE
    WHEN "method" = 'POST' AND "path" ~ '^/checkout_sessions/?$' THEN 'createCheckoutSession'
    WHEN "method" = 'PATCH' AND "path" ~ '^/checkout_sessions/[^/]+/?$' THEN 'updateCheckoutSession'
    WHEN "method" = 'POST' AND "path" ~ '^/checkout_sessions/[^/]+/complete/?$' THEN 'completeCheckoutSession'
    WHEN "method" = 'POST' AND "path" ~ '^/checkout_sessions/[^/]+/cancel/?$' THEN 'cancelCheckoutSession'
    WHEN "method" = 'POST' AND "path" ~ '^/webhooks/emit/?$' THEN 'emitWebhook'
    ELSE "method" || ' ' || "path" END,
  "params" = CASE
    WHEN "path" ~ '^/checkout_sessions/[^/]+' THEN '{"session_id":' || to_json(substring("path" from '^/checkout_sessions/([^/]+)'))::text || '}'
    ELSE '{}' END;

-- Two old paths of one operation (with and without a trailing slash) may now share a scope: keep the oldest.
DELETE FROM "idempotency_records" r USING "idempotency_records" o
WHERE r."merchant_id" = o."merchant_id" AND r."api_key_id" = o."api_key_id" AND r."operation" = o."operation"
  AND r."params" = o."params" AND r."key" = o."key" AND (o."created_at", o."id") < (r."created_at", r."id");

ALTER TABLE "idempotency_records" DROP COLUMN "method", DROP COLUMN "path",
  ALTER COLUMN "operation" SET NOT NULL, ALTER COLUMN "params" SET NOT NULL;

CREATE UNIQUE INDEX "idempotency_records_merchant_id_api_key_id_operation_params_key" ON "idempotency_records"("merchant_id", "api_key_id", "operation", "params", "key");
