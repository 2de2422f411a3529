-- The owner's dashboard keeps what its statements found for each closed Luanda day
-- (lib/dashboard/dashboard-days-admin.ts), so a period of a year reads a few rows a day rather
-- than every order and line of the year. New tables only: nothing running reads them before this
-- release, and dropping them loses nothing the orders do not hold.
CREATE TABLE "dashboard_days" (
    "day" DATE NOT NULL,
    "computed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dashboard_days_pkey" PRIMARY KEY ("day")
);

-- The paid orders of a day (by when they were paid): the day's totals, and by hour placed,
-- delivery method and zone, and promo code.
CREATE TABLE "dashboard_day_paid" (
    "day" DATE NOT NULL,
    "panel" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "orders" INTEGER NOT NULL,
    "amount_aoa" BIGINT NOT NULL,
    "discount_aoa" BIGINT NOT NULL,
    "fees_aoa" BIGINT NOT NULL,

    CONSTRAINT "dashboard_day_paid_pkey" PRIMARY KEY ("day", "panel", "key", "detail"),
    CONSTRAINT "dashboard_day_paid_day_fkey" FOREIGN KEY ("day") REFERENCES "dashboard_days"("day") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The checkouts of a day (by when they were created), by how they ended.
CREATE TABLE "dashboard_day_checkouts" (
    "day" DATE NOT NULL,
    "checkouts" INTEGER NOT NULL,
    "paid" INTEGER NOT NULL,
    "service_cancelled" INTEGER NOT NULL,
    "expired" INTEGER NOT NULL,
    "pending" INTEGER NOT NULL,
    "references" INTEGER NOT NULL,
    "references_paid" INTEGER NOT NULL,

    CONSTRAINT "dashboard_day_checkouts_pkey" PRIMARY KEY ("day"),
    CONSTRAINT "dashboard_day_checkouts_day_fkey" FOREIGN KEY ("day") REFERENCES "dashboard_days"("day") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The paid lines of a day by variant (the product, for lines without one).
CREATE TABLE "dashboard_day_sales" (
    "day" DATE NOT NULL,
    "key" UUID NOT NULL,
    "units" INTEGER NOT NULL,
    "revenue_aoa" BIGINT NOT NULL,

    CONSTRAINT "dashboard_day_sales_pkey" PRIMARY KEY ("day", "key"),
    CONSTRAINT "dashboard_day_sales_day_fkey" FOREIGN KEY ("day") REFERENCES "dashboard_days"("day") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Up to when the orders' changes (their updated_at) have been folded into the days above: one row.
CREATE TABLE "dashboard_rollup" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "folded_until" TIMESTAMP(3) NOT NULL DEFAULT '1970-01-01 00:00:00',

    CONSTRAINT "dashboard_rollup_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "dashboard_rollup_one_row" CHECK ("id" = 1)
);
INSERT INTO "dashboard_rollup" ("id") VALUES (1) ON CONFLICT DO NOTHING;
