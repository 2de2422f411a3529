-- no-transaction
-- The back office's orders list filtered by fulfilment (lib/admin/orders.ts): "to prepare" (CON with
-- no fulfilment state yet, the list a shop works from every day), shipped, ready for pickup,
-- delivered, collected, newest first. Every one of them is `status = 'CON' AND fulfilment_state …
-- ORDER BY created_at DESC`, one range of this index each, NULL ("to prepare") included.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_status_fulfilment_state_created_at_idx" ON "orders" ("status", "fulfilment_state", "created_at");
