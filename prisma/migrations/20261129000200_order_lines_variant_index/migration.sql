-- no-transaction
-- The lines of a variant (holds ending on a variant's units, lib/orders/holds.ts), built without
-- blocking the checkouts that insert order lines meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "order_lines_variant_id_idx" ON "order_lines"("variant_id");
