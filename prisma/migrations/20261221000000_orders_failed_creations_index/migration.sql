-- no-transaction
-- The failed creations nobody has resolved yet (lib/orders/cancel-reasons.ts), newest first, for
-- the back office's attention list (lib/orders/attention-admin.ts), which shows the newest and
-- counts them all: read from this index alone, without visiting the table, however many orders the
-- shop has taken. Its list of reasons is CREATION_FAILURE_REASONS (a test compares them).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_failed_creations_idx" ON "orders" ("created_at", "id") INCLUDE ("external_transaction_id", "amount_aoa", "cancel_reason", "finalized_at") WHERE "cancel_reason" IN ('service_unavailable', 'service_rejected', 'service_invalid_response', 'internal_error') AND "attention_resolved_at" IS NULL AND "attention_at" IS NULL;
