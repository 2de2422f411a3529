-- no-transaction
-- A shopper's own orders, newest first ("As minhas encomendas", /orders), and the cap on a shopper's
-- open orders at checkout (lib/checkout/create-order.ts), which counted them with a scan.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_client_id_created_at_idx" ON "orders" ("client_id", "created_at");
