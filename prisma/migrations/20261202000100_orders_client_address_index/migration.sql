-- no-transaction
-- The cap on one client address's open orders at checkout (lib/checkout/create-order.ts): it counts
-- `status = 'PEN' AND client_address = $1 AND hold_expires_at > now()`. Partial, so it holds only the
-- open orders (a few per address) rather than every order ever placed.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_open_client_address_idx" ON "orders" ("client_address", "hold_expires_at") WHERE "status" = 'PEN';
