-- no-transaction
-- A variant's stock history in the back office, newest first.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "stock_adjustments_variant_id_created_at_idx" ON "stock_adjustments"("variant_id", "created_at");
