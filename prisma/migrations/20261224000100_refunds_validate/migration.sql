-- The stock adjustments' wider kind CHECK (with `return`) that 20261224000000_refunds added NOT
-- VALID, checked for the rows there already (each passed the narrower one). VALIDATE scans without
-- blocking the writes of the release serving.
ALTER TABLE "stock_adjustments" VALIDATE CONSTRAINT "stock_adjustments_kind_check";
