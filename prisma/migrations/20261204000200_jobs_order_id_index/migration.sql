-- no-transaction
-- An order's jobs (the back office's order page and attention list, jobsOfOrders, a retry), read
-- by jobs.order_id. Built after the backfill, whose updates could then stay on their pages (HOT).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "jobs_order_id_idx" ON "jobs"("order_id");
