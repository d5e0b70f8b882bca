-- AlterTable
ALTER TABLE "checkout_sessions" ADD COLUMN     "shipping_options" JSONB;

-- CreateTable
CREATE TABLE "shipping_profiles" (
    "merchant_id" TEXT NOT NULL,
    "profile" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shipping_profiles_pkey" PRIMARY KEY ("merchant_id")
);

-- AddForeignKey
ALTER TABLE "shipping_profiles" ADD CONSTRAINT "shipping_profiles_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
