-- AlterTable
ALTER TABLE "checkout_sessions" ADD COLUMN     "customer_id" TEXT,
ADD COLUMN     "saved_addresses" JSONB,
ADD COLUMN     "shipping_address_id" TEXT;

-- CreateIndex
CREATE INDEX "checkout_sessions_merchant_id_customer_id_idx" ON "checkout_sessions"("merchant_id", "customer_id");
