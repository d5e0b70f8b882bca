-- AlterTable
ALTER TABLE "idempotency_records" ALTER COLUMN "response_body" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "webhook_events" ALTER COLUMN "payload" SET DATA TYPE JSON;
