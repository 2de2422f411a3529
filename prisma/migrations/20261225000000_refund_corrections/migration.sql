-- Correcting entries (lib/orders/refund-corrections-admin.ts): a refund is never edited, so a
-- mistake in one is followed by a row of its own in `refunds` that takes back part or all of it,
-- naming the refund it corrects, with a NEGATIVE amount, its own number from refund_counter and no
-- lines. Every sum of refunds.amount_aoa is then already net of corrections. A nullable column and
-- wider checks that the release still serving never writes beyond: an expand step.

-- The refund this row corrects; NULL: the row is a refund. No index: a refund's corrections are
-- only ever read among its order's refunds (refunds_order_id_idx), and a refund is never deleted
-- (refunds_append_only), so the foreign key never looks for the rows that point at one.
ALTER TABLE "refunds" ADD COLUMN "corrects_refund_id" UUID;

-- NOT VALID: every row there has the column NULL, so nothing needs scanning under this lock;
-- 20261225000100_refund_corrections_validate validates them.
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_corrects_refund_id_fkey"
  FOREIGN KEY ("corrects_refund_id") REFERENCES "refunds"("id") ON DELETE RESTRICT ON UPDATE CASCADE NOT VALID;

-- A row is a refund (money out: a positive amount, of which a delivery fee part between 0 and the
-- amount) or a correction (money the refund it names did not give back after all: a negative
-- amount, a delivery fee part between that amount and 0, and a note saying why). The rows there
-- are all refunds and pass the narrower checks these replace.
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_amount_aoa_check";
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_delivery_fee_aoa_check";
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_amount_aoa_check"
  CHECK (CASE WHEN "corrects_refund_id" IS NULL THEN "amount_aoa" > 0 ELSE "amount_aoa" < 0 END) NOT VALID;
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_delivery_fee_aoa_check"
  CHECK (CASE WHEN "corrects_refund_id" IS NULL THEN "delivery_fee_aoa" BETWEEN 0 AND "amount_aoa"
              ELSE "delivery_fee_aoa" BETWEEN "amount_aoa" AND 0 END) NOT VALID;
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_correction_note_check"
  CHECK ("corrects_refund_id" IS NULL OR "note" IS NOT NULL) NOT VALID;

-- A correction takes back money, never units: the units of a return stay where the return put
-- them (a stock mistake is fixed on the product's page with an adjustment of its own). So a
-- correction has no lines, whatever code or person asks.
CREATE FUNCTION "refund_lines_of_a_refund"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "refunds" WHERE "id" = NEW."refund_id" AND "corrects_refund_id" IS NOT NULL) THEN
    RAISE EXCEPTION 'a correcting entry has no lines: it takes back money, not units'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER "refund_lines_of_a_refund"
  BEFORE INSERT ON "refund_lines"
  FOR EACH ROW EXECUTE FUNCTION "refund_lines_of_a_refund"();
