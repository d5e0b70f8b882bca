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

-- The audit log is append-only: no statement may change or delete an entry.
CREATE FUNCTION "admin_audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'admin_audit_log is append-only';
END;
$$;

CREATE TRIGGER "admin_audit_log_append_only" BEFORE UPDATE OR DELETE ON "admin_audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "admin_audit_log_append_only"();
