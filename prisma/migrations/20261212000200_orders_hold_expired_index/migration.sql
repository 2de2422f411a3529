-- no-transaction
-- The orders the shop cancelled because their hold ran out and that may still be paid, which the
-- sweep asks about for REFERENCE_HOLD_MINUTES after the cancellation (lib/orders/reconcile.ts):
-- a range of this index, the last day's such cancellations, however old the shop is.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_hold_expired_finalized_at_idx" ON "orders" ("finalized_at") WHERE "status" = 'CAN' AND "cancel_reason" = 'hold_expired' AND "paid_after_cancel_at" IS NULL;
