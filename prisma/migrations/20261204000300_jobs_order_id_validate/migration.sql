-- The foreign key 20261204000000 added NOT VALID, checked for the rows 20261204000100 filled.
-- VALIDATE scans without blocking the writes of the release serving.
ALTER TABLE "jobs" VALIDATE CONSTRAINT "jobs_order_id_fkey";
