-- CreateIndex
CREATE INDEX "checkout_sessions_payment_reference_idx" ON "checkout_sessions"("payment_reference");

-- CreateIndex
CREATE INDEX "payment_operations_reference_idx" ON "payment_operations"("reference");
