-- The back office's orders list (lib/admin/orders.ts): newest first, optionally of one status, and
-- the CSV export's date ranges, read in created_at order; the search by payment reference.

-- CreateIndex
CREATE INDEX "orders_created_at_id_idx" ON "orders"("created_at", "id");

-- CreateIndex
CREATE INDEX "orders_status_created_at_idx" ON "orders"("status", "created_at");

-- CreateIndex
CREATE INDEX "orders_payment_reference_idx" ON "orders"("payment_reference");
