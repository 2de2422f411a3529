-- The correcting entries' foreign key and the wider checks that 20261225000000_refund_corrections
-- added NOT VALID, checked for the rows there already (all refunds, which passed the narrower
-- checks). VALIDATE scans without blocking the writes of the release serving.
ALTER TABLE "refunds" VALIDATE CONSTRAINT "refunds_corrects_refund_id_fkey";
ALTER TABLE "refunds" VALIDATE CONSTRAINT "refunds_amount_aoa_check";
ALTER TABLE "refunds" VALIDATE CONSTRAINT "refunds_delivery_fee_aoa_check";
ALTER TABLE "refunds" VALIDATE CONSTRAINT "refunds_correction_note_check";
