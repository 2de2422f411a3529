-- The foreign keys and checks migration 20261201000000 added NOT VALID on `orders`, checked for
-- the rows already there (their new columns are all NULL or 0). VALIDATE scans without blocking
-- the writes of the release serving.
ALTER TABLE "orders" VALIDATE CONSTRAINT "orders_delivery_zone_id_fkey";
ALTER TABLE "orders" VALIDATE CONSTRAINT "orders_pickup_point_id_fkey";
ALTER TABLE "orders" VALIDATE CONSTRAINT "orders_promo_code_id_fkey";
ALTER TABLE "orders" VALIDATE CONSTRAINT "orders_amount_parts";
ALTER TABLE "orders" VALIDATE CONSTRAINT "orders_delivery_method";
ALTER TABLE "orders" VALIDATE CONSTRAINT "orders_fulfilment_state";
ALTER TABLE "order_lines" VALIDATE CONSTRAINT "order_lines_discount_range";
