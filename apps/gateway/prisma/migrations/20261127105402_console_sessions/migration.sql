-- CreateTable
CREATE TABLE "console_sessions" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "operator_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "console_sessions_token_hash_key" ON "console_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "console_sessions_operator_id_idx" ON "console_sessions"("operator_id");
