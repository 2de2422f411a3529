-- no-transaction
-- The sweep's pending orders that are due (lib/orders/reconcile.ts): `status = 'PEN' AND
-- (status_check_due_at <= now() OR status_check_due_at IS NULL AND …)`, two ranges of this index.
-- Partial: it holds the open orders only, however many orders the shop has taken.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_pending_status_check_due_idx" ON "orders" ("status_check_due_at") WHERE "status" = 'PEN';
