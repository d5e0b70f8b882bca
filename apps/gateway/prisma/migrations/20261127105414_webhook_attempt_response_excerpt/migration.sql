-- AlterTable
ALTER TABLE "webhook_attempts" ADD COLUMN     "response_excerpt" TEXT;
