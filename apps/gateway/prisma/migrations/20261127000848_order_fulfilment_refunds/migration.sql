-- CreateEnum
CREATE TYPE "RefundReason" AS ENUM ('requested_by_customer', 'damaged', 'not_received', 'duplicate', 'fraudulent', 'canceled', 'other');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "OrderStatus" ADD VALUE 'partially_fulfilled';
ALTER TYPE "OrderStatus" ADD VALUE 'delivered';

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "canceled_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "order_fulfillments" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "carrier" TEXT,
    "tracking_number" TEXT,
    "tracking_url" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMP(3),

    CONSTRAINT "order_fulfillments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_fulfillment_lines" (
    "fulfillment_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "quantity" INTEGER NOT NULL,

    CONSTRAINT "order_fulfillment_lines_pkey" PRIMARY KEY ("fulfillment_id","position")
);

-- CreateTable
CREATE TABLE "order_refunds" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "reason" "RefundReason" NOT NULL,
    "note" TEXT,
    "lines" JSONB NOT NULL DEFAULT '[]',
    "reference" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "order_fulfillments_order_id_created_at_idx" ON "order_fulfillments"("order_id", "created_at");

-- CreateIndex
CREATE INDEX "order_refunds_order_id_created_at_idx" ON "order_refunds"("order_id", "created_at");

-- AddForeignKey
ALTER TABLE "order_fulfillments" ADD CONSTRAINT "order_fulfillments_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_fulfillment_lines" ADD CONSTRAINT "order_fulfillment_lines_fulfillment_id_fkey" FOREIGN KEY ("fulfillment_id") REFERENCES "order_fulfillments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
