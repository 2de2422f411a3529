-- no-transaction
-- The checkouts of a period by how they ended (lib/dashboard/dashboard-admin.ts): a range of
-- created_at whose rows' outcome (status, the shop's cancel reason, a bank reference) is in the
-- index itself, so a year of checkouts is counted without visiting the table's rows.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_created_at_outcome_idx" ON "orders" ("created_at", "status", "cancel_reason", "payment_reference");
