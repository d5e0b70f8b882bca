-- AlterTable
ALTER TABLE "payment_operations" ADD COLUMN     "request" JSONB;
