-- AlterEnum
ALTER TYPE "WebhookProtocol" ADD VALUE 'ucp';

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "protocol_version" TEXT;

-- CreateTable
CREATE TABLE "ucp_signing_keys" (
    "kid" TEXT NOT NULL,
    "private_jwk" TEXT NOT NULL,
    "activates_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ucp_signing_keys_pkey" PRIMARY KEY ("kid")
);

-- CreateIndex
CREATE UNIQUE INDEX "webhook_endpoints_merchant_id_url_protocol_version_key" ON "webhook_endpoints"("merchant_id", "url", "protocol_version");
