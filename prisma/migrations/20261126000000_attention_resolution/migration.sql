-- The back office's attention items (lib/admin/attention.ts) and their "mark resolved" with a note:
-- an order that needs a person (paid after cancel, a failed creation), a parked job, a webhook
-- delivery the shop could not match to an order or could not read. A resolved item keeps its
-- reason and gains when and why a person closed it; it leaves the home's list.

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "attention_resolved_at" TIMESTAMP(3),
ADD COLUMN     "attention_note" TEXT;

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "resolved_at" TIMESTAMP(3),
ADD COLUMN     "resolution_note" TEXT;

-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "resolved_at" TIMESTAMP(3),
ADD COLUMN     "resolution_note" TEXT;

-- CreateIndex: orders raised for attention (few), newest first.
CREATE INDEX "orders_attention_at_idx" ON "orders"("attention_at");

-- CreateIndex: unresolved failed creations, by reason (an equality on both columns).
CREATE INDEX "orders_cancel_reason_attention_resolved_at_idx" ON "orders"("cancel_reason", "attention_resolved_at");

-- CreateIndex: unresolved deliveries of one outcome (unmatched, malformed_json, invalid_payload).
CREATE INDEX "webhook_events_outcome_resolved_at_idx" ON "webhook_events"("outcome", "resolved_at");
