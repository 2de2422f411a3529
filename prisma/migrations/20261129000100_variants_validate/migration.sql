-- The foreign keys migration 20261129000000 added NOT VALID on existing tables, checked for the
-- rows there already (all point at a variant since its backfill). VALIDATE scans without blocking
-- the writes of the release serving.
ALTER TABLE "order_lines" VALIDATE CONSTRAINT "order_lines_variant_id_fkey";
ALTER TABLE "stock_adjustments" VALIDATE CONSTRAINT "stock_adjustments_variant_id_fkey";
