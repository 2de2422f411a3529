-- AlterTable: why the shop cancelled an order itself (a failed creation, an abandoned creation,
-- an expired stock hold), not only why a creation failed.
ALTER TABLE "orders" RENAME COLUMN "creation_failure" TO "cancel_reason";

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "hold_expires_at" TIMESTAMP(3) NOT NULL DEFAULT (CURRENT_TIMESTAMP + '00:30:00'::interval),
ADD COLUMN     "paid_after_cancel_at" TIMESTAMP(3),
ADD COLUMN     "attention_reason" TEXT,
ADD COLUMN     "attention_at" TIMESTAMP(3);

-- AlterTable: invoice numbers come from the invoice_counter row, in the invoice's own transaction.
ALTER TABLE "invoices" ALTER COLUMN "number" DROP DEFAULT;
DROP SEQUENCE "invoices_number_seq";

-- CreateTable
CREATE TABLE "invoice_counter" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "last_number" INTEGER NOT NULL,

    CONSTRAINT "invoice_counter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "orders_status_hold_expires_at_idx" ON "orders"("status", "hold_expires_at");

-- ---------------------------------------------------------------------------------------
-- Hand-written (see the init migration for why these live here).
-- ---------------------------------------------------------------------------------------

-- Data: pending orders that existed before holds get one. An order with a payment reference
-- keeps it for the reference's life span (1440 minutes) plus the margin (60 minutes) from its
-- last change; any other from its creation, with the default 30 minutes.
UPDATE "orders" SET "hold_expires_at" = CASE
    WHEN "payment_reference" IS NOT NULL THEN "updated_at" + interval '1500 minutes'
    ELSE "created_at" + interval '30 minutes' END
WHERE "status" = 'PEN';
UPDATE "orders" SET "hold_expires_at" = COALESCE("finalized_at", "updated_at") WHERE "status" <> 'PEN';

-- Data: the counter starts after the last number the sequence gave.
INSERT INTO "invoice_counter" ("id", "last_number") SELECT 1, COALESCE(MAX("number"), 0) FROM "invoices";

-- AddCheckConstraint: one counter row.
ALTER TABLE "invoice_counter" ADD CONSTRAINT "invoice_counter_id_check" CHECK ("id" = 1);
ALTER TABLE "invoice_counter" ADD CONSTRAINT "invoice_counter_last_number_check" CHECK ("last_number" >= 0);

-- AddCheckConstraint: an invoice number is positive.
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_number_check" CHECK ("number" > 0);

-- AddCheckConstraint: an order needs attention with a reason and a time, or not at all.
ALTER TABLE "orders" ADD CONSTRAINT "orders_attention_check" CHECK (("attention_reason" IS NULL) = ("attention_at" IS NULL));

-- AddCheckConstraint: only a cancelled order can be paid after its cancellation.
ALTER TABLE "orders" ADD CONSTRAINT "orders_paid_after_cancel_at_check" CHECK ("paid_after_cancel_at" IS NULL OR "status" = 'CAN');
