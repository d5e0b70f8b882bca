-- CreateEnum
CREATE TYPE "OperatorAccess" AS ENUM ('read', 'full');

-- CreateTable
CREATE TABLE "operators" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "access" "OperatorAccess" NOT NULL,
    "all_merchants" BOOLEAN NOT NULL DEFAULT false,
    "merchant_ids" TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "operators_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "admin_audit_log" (
    "id" TEXT NOT NULL,
    "operator_id" TEXT,
    "operation" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "target" TEXT,
    "merchant_id" TEXT,
    "outcome" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "detail" TEXT,
    "request_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "operators_token_hash_key" ON "operators"("token_hash");

-- CreateIndex
CREATE INDEX "admin_audit_log_created_at_id_idx" ON "admin_audit_log"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "admin_audit_log_merchant_id_created_at_idx" ON "admin_audit_log"("merchant_id", "created_at" DESC);

-- The audit log is append-only: an UPDATE or DELETE of an entry changes nothing (rules rather than a
-- trigger function: the migration runner sends statements one by one, and a function body would be cut at its semicolons).
CREATE RULE "admin_audit_log_no_update" AS ON UPDATE TO "admin_audit_log" DO INSTEAD NOTHING;
CREATE RULE "admin_audit_log_no_delete" AS ON DELETE TO "admin_audit_log" DO INSTEAD NOTHING;
