-- AlterTable
ALTER TABLE "products" ADD COLUMN     "embedding" BYTEA,
ADD COLUMN     "embedding_model" TEXT;
