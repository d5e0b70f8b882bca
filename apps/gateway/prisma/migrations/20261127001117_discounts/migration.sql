-- CreateTable
CREATE TABLE "discount_codes" (
    "merchant_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "definition" JSONB NOT NULL,
    "usage_limit" INTEGER,
    "per_customer_limit" INTEGER,
    "redemptions" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "discount_codes_pkey" PRIMARY KEY ("merchant_id","key")
);

-- CreateTable
CREATE TABLE "discount_redemptions" (
    "merchant_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "email" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "discount_redemptions_pkey" PRIMARY KEY ("merchant_id","key","order_id")
);

-- CreateTable
CREATE TABLE "promotions" (
    "merchant_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "definition" JSONB NOT NULL,
    "position" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "promotions_pkey" PRIMARY KEY ("merchant_id","id")
);

-- CreateIndex
CREATE INDEX "discount_redemptions_merchant_id_key_email_idx" ON "discount_redemptions"("merchant_id", "key", "email");

-- AddForeignKey
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "discount_redemptions" ADD CONSTRAINT "discount_redemptions_merchant_id_key_fkey" FOREIGN KEY ("merchant_id", "key") REFERENCES "discount_codes"("merchant_id", "key") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
