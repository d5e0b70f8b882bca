-- AlterTable
ALTER TABLE "checkout_sessions" ADD COLUMN     "fulfillment_option_id" TEXT,
ADD COLUMN     "protocol_state" JSON;
