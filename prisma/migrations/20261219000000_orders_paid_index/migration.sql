-- no-transaction
-- The paid orders by when they were paid (lib/orders/paid.ts): the dashboard's figures and
-- series, the home's totals, the orders list's and the export's paid filter read a range of it.
-- It carries what the dashboard sums and groups by (INCLUDE), so a year of paid orders is read
-- from the index alone, without visiting the table's rows (lib/dashboard/dashboard-admin.ts).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_paid_finalized_at_idx" ON "orders" ("finalized_at") INCLUDE ("id", "amount_aoa", "discount_aoa", "delivery_fee_aoa", "created_at", "delivery_method", "delivery_zone_name", "promo_code") WHERE "status" = 'CON';
