-- Refunds and returns (lib/orders/refunds-admin.ts): money the shop gave back to a shopper outside
-- the payment service (which has no refund call: a bank transfer, a Multicaixa Express transfer,
-- cash), as the owner records it, with the units that came back and whether each went back to
-- stock. A refund is written once and never changed: a mistake is followed by a correcting entry.
-- New tables, and one more kind of stock adjustment (`return`), which the release still serving
-- never writes: an expand step.

-- The last refund number issued: one row, moved in the refund's own transaction, so a refund
-- rolled back leaves no gap (a sequence would), as invoice_counter numbers invoices.
CREATE TABLE "refund_counter" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "last_number" INTEGER NOT NULL,

    CONSTRAINT "refund_counter_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "refund_counter_id_check" CHECK ("id" = 1),
    CONSTRAINT "refund_counter_last_number_check" CHECK ("last_number" >= 0)
);
INSERT INTO "refund_counter" ("id", "last_number") VALUES (1, 0);

CREATE TABLE "refunds" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    -- Consecutive with no gaps across the shop (refund_counter): the refund note's number.
    "number" INTEGER NOT NULL,
    "order_id" UUID NOT NULL,
    -- What went back, in whole kwanza. The sum of an order's refunds never passes what it paid:
    -- the statement that inserts a refund checks it, under the order's row lock.
    "amount_aoa" INTEGER NOT NULL,
    -- Of that amount, what gives back the order's delivery fee (0 when none of it).
    "delivery_fee_aoa" INTEGER NOT NULL DEFAULT 0,
    "method" TEXT NOT NULL,
    -- The proof: the transfer's reference, the receipt's number.
    "reference" TEXT,
    "note" TEXT,
    -- When the money went back (the person says; by default when it was recorded).
    "refunded_at" TIMESTAMP(3) NOT NULL,
    -- Who recorded it, and their name at the time (as staff_events keeps it).
    "staff_id" TEXT NOT NULL,
    "staff_name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "refunds_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "refunds_staff_id_fkey" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "refunds_number_check" CHECK ("number" > 0),
    CONSTRAINT "refunds_amount_aoa_check" CHECK ("amount_aoa" > 0),
    CONSTRAINT "refunds_delivery_fee_aoa_check" CHECK ("delivery_fee_aoa" >= 0 AND "delivery_fee_aoa" <= "amount_aoa"),
    CONSTRAINT "refunds_method_check" CHECK ("method" IN ('bank_transfer', 'multicaixa_express', 'cash', 'other')),
    CONSTRAINT "refunds_reference_check" CHECK (char_length("reference") <= 200),
    CONSTRAINT "refunds_note_check" CHECK (char_length("note") <= 2000)
);
CREATE UNIQUE INDEX "refunds_number_key" ON "refunds"("number");
CREATE INDEX "refunds_order_id_idx" ON "refunds"("order_id");
-- The refunds of a period: the dashboard's figures and the refunds' CSV.
CREATE INDEX "refunds_refunded_at_idx" ON "refunds"("refunded_at");

-- The units of a return: of an order line, how many came back, and whether they went back to
-- stock (`restock`) or were damaged. One line of a refund may have a row of each.
CREATE TABLE "refund_lines" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "refund_id" UUID NOT NULL,
    "order_line_id" UUID NOT NULL,
    -- The variant the line sold (the order line's), whose stock a restocked unit went back to.
    "variant_id" UUID NOT NULL,
    "quantity" INTEGER NOT NULL,
    "restock" BOOLEAN NOT NULL,

    CONSTRAINT "refund_lines_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "refund_lines_refund_id_fkey" FOREIGN KEY ("refund_id") REFERENCES "refunds"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "refund_lines_order_line_id_fkey" FOREIGN KEY ("order_line_id") REFERENCES "order_lines"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "refund_lines_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "product_variants"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "refund_lines_quantity_check" CHECK ("quantity" > 0)
);
CREATE UNIQUE INDEX "refund_lines_refund_id_order_line_id_restock_key" ON "refund_lines"("refund_id", "order_line_id", "restock");
-- What a line has had returned so far: the guard on returning more than was bought sums these.
CREATE INDEX "refund_lines_order_line_id_idx" ON "refund_lines"("order_line_id");
CREATE INDEX "refund_lines_variant_id_idx" ON "refund_lines"("variant_id");

-- A refund and its lines are written once, never edited or deleted, whatever code or person
-- asks: a mistake is corrected by a new entry, so the record says what happened and when.
CREATE FUNCTION "refunds_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% are never edited or deleted: record a correcting entry', TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "refunds_append_only"
  BEFORE UPDATE OR DELETE ON "refunds"
  FOR EACH ROW EXECUTE FUNCTION "refunds_append_only"();
CREATE TRIGGER "refund_lines_append_only"
  BEFORE UPDATE OR DELETE ON "refund_lines"
  FOR EACH ROW EXECUTE FUNCTION "refunds_append_only"();

-- Units a return puts back on the shelf are a stock adjustment of their own kind, `return`, with
-- the refund named in its reason. The wider CHECK is added NOT VALID (the rows there all pass the
-- narrower one it replaces, so nothing needs scanning under this lock);
-- 20261224000100_refunds_validate validates it.
ALTER TABLE "stock_adjustments" DROP CONSTRAINT "stock_adjustments_kind_check";
ALTER TABLE "stock_adjustments" ADD CONSTRAINT "stock_adjustments_kind_check"
  CHECK ("kind" IN ('initial', 'edit', 'adjustment', 'return')) NOT VALID;
