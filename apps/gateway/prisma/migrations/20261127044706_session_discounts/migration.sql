-- AlterTable
ALTER TABLE "checkout_sessions" ADD COLUMN     "discount_amount" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "discount_codes" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "discounts" JSONB;

-- AlterTable
ALTER TABLE "line_items" ADD COLUMN     "category" TEXT,
ADD COLUMN     "discount" BIGINT NOT NULL DEFAULT 0;
