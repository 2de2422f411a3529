-- no-transaction
-- Finding an order again (/orders/lookup, lib/orders/lookup.ts): by the number the shopper is shown,
-- the first 8 hex digits of its id ("Encomenda 7CDAC2DD"), then its phone. Built without blocking
-- the checkouts that insert orders meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_short_id_idx" ON "orders" (substr("external_transaction_id", 7, 8));
