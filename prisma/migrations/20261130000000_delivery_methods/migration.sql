-- Delivery methods (issue 25): delivery zones with their fee, and pickup points, managed in the
-- back office (/admin/delivery) and listed by GET /api/delivery-options. New tables only.

-- CreateTable
CREATE TABLE "delivery_zones" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "fee_aoa" INTEGER NOT NULL,
    "free_from_aoa" INTEGER,
    "estimated_days" INTEGER,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "delivery_zones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pickup_points" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "hours" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pickup_points_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "delivery_zones_name_key" ON "delivery_zones"("name");

-- CreateIndex
CREATE UNIQUE INDEX "pickup_points_name_key" ON "pickup_points"("name");

-- The limits lib/delivery.ts checks first, kept by the database too.
ALTER TABLE "delivery_zones"
    ADD CONSTRAINT "delivery_zones_name_length" CHECK (char_length("name") BETWEEN 1 AND 80),
    ADD CONSTRAINT "delivery_zones_fee_aoa_range" CHECK ("fee_aoa" BETWEEN 0 AND 10000000),
    ADD CONSTRAINT "delivery_zones_free_from_aoa_positive" CHECK ("free_from_aoa" IS NULL OR "free_from_aoa" BETWEEN 1 AND 10000000),
    ADD CONSTRAINT "delivery_zones_estimated_days_range" CHECK ("estimated_days" IS NULL OR "estimated_days" BETWEEN 1 AND 60),
    ADD CONSTRAINT "delivery_zones_position_non_negative" CHECK ("position" >= 0);

ALTER TABLE "pickup_points"
    ADD CONSTRAINT "pickup_points_name_length" CHECK (char_length("name") BETWEEN 1 AND 80),
    ADD CONSTRAINT "pickup_points_address_length" CHECK (char_length("address") BETWEEN 1 AND 300),
    ADD CONSTRAINT "pickup_points_hours_length" CHECK (char_length("hours") BETWEEN 1 AND 200),
    ADD CONSTRAINT "pickup_points_position_non_negative" CHECK ("position" >= 0);
