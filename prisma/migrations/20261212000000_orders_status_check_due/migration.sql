-- When the reconcile sweep next asks the service about an order (lib/orders/check-schedule.ts):
-- a back-off from the order's last change, stored by every claim of a check so that "due" is a
-- range of an index (20261212000100) rather than a computation over every open order.
--
-- An expand step: one nullable column, a catalogue-only change. NULL means "no step stored yet"
-- (never asked since the order last changed), which the sweep reads as due once the first step
-- has passed since that change: the rows of the release still serving, which never writes it,
-- are asked about as they were before, and nothing needs a backfill.

-- AlterTable
ALTER TABLE "orders" ADD COLUMN "status_check_due_at" TIMESTAMP(3);
