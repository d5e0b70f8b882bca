-- CreateEnum
CREATE TYPE "PaymentOperationKind" AS ENUM ('authorize', 'capture', 'cancel', 'refund');

-- CreateEnum
CREATE TYPE "PaymentOperationState" AS ENUM ('pending', 'succeeded', 'failed', 'requires_action');

-- AlterTable
ALTER TABLE "checkout_sessions" ADD COLUMN     "payment_reference" TEXT;

-- AlterTable
ALTER TABLE "merchants" ADD COLUMN     "stripe_account_id" TEXT;

-- AlterTable
ALTER TABLE "order_refunds" ALTER COLUMN "reference" DROP NOT NULL;

-- CreateTable
CREATE TABLE "payment_operations" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "order_id" TEXT,
    "refund_id" TEXT,
    "kind" "PaymentOperationKind" NOT NULL,
    "state" "PaymentOperationState" NOT NULL DEFAULT 'pending',
    "provider" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "reference" TEXT,
    "idempotency_key" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_operations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_disputes" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_disputes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_provider_events" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_provider_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payment_operations_idempotency_key_key" ON "payment_operations"("idempotency_key");

-- CreateIndex
CREATE INDEX "payment_operations_state_next_attempt_at_idx" ON "payment_operations"("state", "next_attempt_at");

-- CreateIndex
CREATE INDEX "payment_operations_session_id_created_at_idx" ON "payment_operations"("session_id", "created_at");

-- CreateIndex
CREATE INDEX "payment_operations_order_id_created_at_idx" ON "payment_operations"("order_id", "created_at");

-- CreateIndex
CREATE INDEX "payment_operations_merchant_id_created_at_idx" ON "payment_operations"("merchant_id", "created_at");

-- CreateIndex
CREATE INDEX "payment_disputes_order_id_idx" ON "payment_disputes"("order_id");
