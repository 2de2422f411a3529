-- From paid to delivered (issue 25): what an order's amount is made of (subtotal, discount,
-- delivery fee), how its goods reach the shopper (a pickup point or a delivery zone with an
-- address, snapshotted), the shopper's optional email, promo codes and their uses, and the
-- fulfilment of a paid order with its history.
--
-- An expand step: new nullable columns (or with a constant default) and new tables only, so the
-- release still serving keeps creating orders as before (no method, no discount, no fee: its
-- amount is its subtotal). Foreign keys on `orders` are added NOT VALID and validated by
-- 20261201000100 without blocking its writes.

-- AlterTable
ALTER TABLE "orders"
    ADD COLUMN "subtotal_aoa" INTEGER,
    ADD COLUMN "discount_aoa" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "delivery_fee_aoa" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "delivery_method" TEXT,
    ADD COLUMN "delivery_zone_id" UUID,
    ADD COLUMN "delivery_zone_name" TEXT,
    ADD COLUMN "delivery_estimated_days" INTEGER,
    ADD COLUMN "delivery_address" JSONB,
    ADD COLUMN "pickup_point_id" UUID,
    ADD COLUMN "pickup_point_name" TEXT,
    ADD COLUMN "pickup_point_address" TEXT,
    ADD COLUMN "pickup_point_hours" TEXT,
    ADD COLUMN "customer_email" TEXT,
    ADD COLUMN "promo_code_id" UUID,
    ADD COLUMN "promo_code" TEXT,
    ADD COLUMN "fulfilment_state" TEXT,
    ADD COLUMN "fulfilment_updated_at" TIMESTAMP(3);

-- AlterTable: the share of the order's discount this line carries (what the payment references
-- and a refund of the line use); 0 on lines of orders without a promo code.
ALTER TABLE "order_lines" ADD COLUMN "discount_aoa" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "promo_codes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "code" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" INTEGER NOT NULL,
    "min_subtotal_aoa" INTEGER NOT NULL DEFAULT 0,
    "starts_at" TIMESTAMP(3),
    "ends_at" TIMESTAMP(3),
    "max_uses" INTEGER,
    "max_uses_per_phone" INTEGER,
    "uses" INTEGER NOT NULL DEFAULT 0,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "promo_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "promo_code_categories" (
    "promo_code_id" UUID NOT NULL,
    "category_id" UUID NOT NULL,

    CONSTRAINT "promo_code_categories_pkey" PRIMARY KEY ("promo_code_id","category_id")
);

-- CreateTable
CREATE TABLE "promo_redemptions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "promo_code_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "phone_key" TEXT,
    "discount_aoa" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "released_at" TIMESTAMP(3),

    CONSTRAINT "promo_redemptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fulfilment_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "order_id" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "note" TEXT,
    "actor" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "fulfilment_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "promo_codes_code_key" ON "promo_codes"("code");

-- CreateIndex
CREATE INDEX "promo_code_categories_category_id_idx" ON "promo_code_categories"("category_id");

-- CreateIndex
CREATE UNIQUE INDEX "promo_redemptions_order_id_key" ON "promo_redemptions"("order_id");

-- CreateIndex
CREATE INDEX "promo_redemptions_promo_code_id_phone_key_idx" ON "promo_redemptions"("promo_code_id", "phone_key");

-- CreateIndex
CREATE INDEX "fulfilment_events_order_id_created_at_idx" ON "fulfilment_events"("order_id", "created_at");

-- AddForeignKey
ALTER TABLE "promo_code_categories" ADD CONSTRAINT "promo_code_categories_promo_code_id_fkey" FOREIGN KEY ("promo_code_id") REFERENCES "promo_codes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "promo_code_categories" ADD CONSTRAINT "promo_code_categories_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_promo_code_id_fkey" FOREIGN KEY ("promo_code_id") REFERENCES "promo_codes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "fulfilment_events" ADD CONSTRAINT "fulfilment_events_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- On `orders`, which the release serving writes: checked for new rows now, for existing ones
-- (all NULL) by 20261201000100.
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_zone_id_fkey" FOREIGN KEY ("delivery_zone_id") REFERENCES "delivery_zones"("id") ON DELETE SET NULL ON UPDATE CASCADE NOT VALID;
ALTER TABLE "orders" ADD CONSTRAINT "orders_pickup_point_id_fkey" FOREIGN KEY ("pickup_point_id") REFERENCES "pickup_points"("id") ON DELETE SET NULL ON UPDATE CASCADE NOT VALID;
ALTER TABLE "orders" ADD CONSTRAINT "orders_promo_code_id_fkey" FOREIGN KEY ("promo_code_id") REFERENCES "promo_codes"("id") ON DELETE SET NULL ON UPDATE CASCADE NOT VALID;

-- The rules lib/ checks first, kept by the database too. NOT VALID on `orders` for the same
-- reason (no full scan under its lock); validated by 20261201000100.
ALTER TABLE "orders"
    ADD CONSTRAINT "orders_amount_parts" CHECK ("subtotal_aoa" IS NULL OR ("discount_aoa" BETWEEN 0 AND "subtotal_aoa" AND "delivery_fee_aoa" >= 0 AND "amount_aoa" = "subtotal_aoa" - "discount_aoa" + "delivery_fee_aoa")) NOT VALID,
    ADD CONSTRAINT "orders_delivery_method" CHECK ("delivery_method" IS NULL OR "delivery_method" IN ('pickup', 'delivery')) NOT VALID,
    ADD CONSTRAINT "orders_fulfilment_state" CHECK ("fulfilment_state" IS NULL OR "fulfilment_state" IN ('shipped', 'ready_for_pickup', 'delivered', 'collected')) NOT VALID;

ALTER TABLE "promo_codes"
    ADD CONSTRAINT "promo_codes_code_format" CHECK ("code" ~ '^[A-Z0-9][A-Z0-9_-]{2,31}$'),
    ADD CONSTRAINT "promo_codes_kind" CHECK ("kind" IN ('percent', 'fixed')),
    ADD CONSTRAINT "promo_codes_value_range" CHECK ("value" >= 1 AND ("kind" <> 'percent' OR "value" <= 100) AND "value" <= 10000000),
    ADD CONSTRAINT "promo_codes_min_subtotal_non_negative" CHECK ("min_subtotal_aoa" >= 0),
    ADD CONSTRAINT "promo_codes_dates" CHECK ("starts_at" IS NULL OR "ends_at" IS NULL OR "starts_at" < "ends_at"),
    ADD CONSTRAINT "promo_codes_max_uses_positive" CHECK ("max_uses" IS NULL OR "max_uses" >= 1),
    ADD CONSTRAINT "promo_codes_max_uses_per_phone_positive" CHECK ("max_uses_per_phone" IS NULL OR "max_uses_per_phone" >= 1),
    ADD CONSTRAINT "promo_codes_uses_non_negative" CHECK ("uses" >= 0);

ALTER TABLE "order_lines"
    ADD CONSTRAINT "order_lines_discount_range" CHECK ("discount_aoa" BETWEEN 0 AND "unit_price_aoa" * "quantity") NOT VALID;

ALTER TABLE "promo_redemptions"
    ADD CONSTRAINT "promo_redemptions_discount_non_negative" CHECK ("discount_aoa" >= 0);

ALTER TABLE "fulfilment_events"
    ADD CONSTRAINT "fulfilment_events_state" CHECK ("state" IN ('shipped', 'ready_for_pickup', 'delivered', 'collected')),
    ADD CONSTRAINT "fulfilment_events_note_length" CHECK ("note" IS NULL OR char_length("note") <= 500);
