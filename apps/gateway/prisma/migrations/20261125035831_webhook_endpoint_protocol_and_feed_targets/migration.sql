-- CreateEnum
CREATE TYPE "WebhookProtocol" AS ENUM ('gateway', 'acp');

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "protocol" "WebhookProtocol" NOT NULL DEFAULT 'gateway';

-- CreateTable
CREATE TABLE "feed_targets" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "feed_id" TEXT NOT NULL,
    "target_country" CHAR(2),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_pushed_at" TIMESTAMP(3),

    CONSTRAINT "feed_targets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "feed_target_products" (
    "target_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "body" JSON NOT NULL,
    "pushed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "feed_target_products_pkey" PRIMARY KEY ("target_id","product_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "feed_targets_merchant_id_url_key" ON "feed_targets"("merchant_id", "url");

-- AddForeignKey
ALTER TABLE "feed_targets" ADD CONSTRAINT "feed_targets_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "feed_target_products" ADD CONSTRAINT "feed_target_products_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "feed_targets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
