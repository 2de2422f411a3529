-- A shopper's saved delivery addresses (lib/accounts/addresses.ts), in the shop's address shape
-- (what an order's `delivery_address` holds). Deleted with the account. At most one default per
-- shopper, which the database keeps (a partial unique index), not only the code. New table only.
CREATE TABLE "shopper_addresses" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "shopper_id" TEXT NOT NULL,
    "province" TEXT NOT NULL,
    "municipality" TEXT NOT NULL,
    "neighbourhood" TEXT NOT NULL,
    "street" TEXT NOT NULL,
    "reference" TEXT NOT NULL DEFAULT '',
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shopper_addresses_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "shopper_addresses_shopper_id_fkey" FOREIGN KEY ("shopper_id") REFERENCES "shoppers"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "shopper_addresses_shopper_id_idx" ON "shopper_addresses"("shopper_id");
CREATE UNIQUE INDEX "shopper_addresses_one_default_idx" ON "shopper_addresses"("shopper_id") WHERE "is_default";
