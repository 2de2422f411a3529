-- no-transaction
-- A period's paid lines by variant (lib/dashboard/dashboard-admin.ts, the top products and the
-- low-stock variants' sales): from the paid orders' index to their lines by order_id, with what
-- the dashboard sums in the index itself, so a year of lines is read without visiting the table.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "order_lines_order_id_sales_idx" ON "order_lines" ("order_id", "variant_id", "product_id", "quantity", "unit_price_aoa", "discount_aoa");
