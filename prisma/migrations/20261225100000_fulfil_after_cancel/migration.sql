-- An order paid after it was cancelled may be fulfilled after all: the owner moves it CAN → CON
-- (lib/orders/fulfil-after-cancel-admin.ts), and it keeps `paid_after_cancel_at`, what happened
-- to it. The CHECK that tied that column to CAN now allows CON too. It is added NOT VALID (every
-- row there passes the narrower one it replaces, so nothing needs scanning under this lock);
-- 20261225100100_fulfil_after_cancel_validate validates it. The release still serving never
-- writes a CON with the column set, so it passes either CHECK.
ALTER TABLE "orders" DROP CONSTRAINT "orders_paid_after_cancel_at_check";
ALTER TABLE "orders" ADD CONSTRAINT "orders_paid_after_cancel_at_check"
  CHECK ("paid_after_cancel_at" IS NULL OR "status" IN ('CAN', 'CON')) NOT VALID;
