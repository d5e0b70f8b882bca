-- AlterTable: an operator's name for a key (what it is for), shown beside it; null for keys made before.
ALTER TABLE "api_keys" ADD COLUMN     "name" TEXT;
