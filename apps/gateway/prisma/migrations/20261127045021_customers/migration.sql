-- CreateTable
CREATE TABLE "customers" (
    "merchant_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "phone" TEXT,
    "consent_marketing" BOOLEAN,
    "consent_analytics" BOOLEAN,
    "consent_sale_of_data" BOOLEAN,
    "consent_updated_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("merchant_id","id")
);

-- CreateTable
CREATE TABLE "customer_addresses" (
    "merchant_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "name" TEXT,
    "line1" TEXT NOT NULL,
    "line2" TEXT,
    "city" TEXT NOT NULL,
    "state" TEXT,
    "postal_code" TEXT,
    "country" CHAR(2) NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seq" SERIAL NOT NULL,

    CONSTRAINT "customer_addresses_pkey" PRIMARY KEY ("merchant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "customers_merchant_id_email_key" ON "customers"("merchant_id", "email");

-- CreateIndex
CREATE UNIQUE INDEX "customer_addresses_merchant_id_customer_id_fingerprint_key" ON "customer_addresses"("merchant_id", "customer_id", "fingerprint");

-- AddForeignKey
ALTER TABLE "customers" ADD CONSTRAINT "customers_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_addresses" ADD CONSTRAINT "customer_addresses_merchant_id_customer_id_fkey" FOREIGN KEY ("merchant_id", "customer_id") REFERENCES "customers"("merchant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
