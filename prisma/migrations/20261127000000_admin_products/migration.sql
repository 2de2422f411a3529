-- The back office's products and stock (lib/admin/products.ts, /admin/products): products are archived,
-- never deleted (order_lines and stock_adjustments keep pointing at them); every stock change a person
-- makes is kept with its reason; product images uploaded in the back office live in the database, so
-- every deployment serves them (lib/images/, GET /api/images/<id>).

-- AlterTable: an archived product leaves the catalogue, /api/products, its page, carts and checkout.
ALTER TABLE "products" ADD COLUMN     "archived_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "stock_adjustments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "product_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "delta" INTEGER NOT NULL,
    "stock_after" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stock_adjustments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_images" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "content_type" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "byte_size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_images_pkey" PRIMARY KEY ("id")
);

-- CreateIndex: a product's history, newest first.
CREATE INDEX "stock_adjustments_product_id_created_at_idx" ON "stock_adjustments"("product_id", "created_at");

-- CreateIndex: one row per content, so an image uploaded twice is stored once.
CREATE UNIQUE INDEX "product_images_sha256_key" ON "product_images"("sha256");

-- AddForeignKey
ALTER TABLE "stock_adjustments" ADD CONSTRAINT "stock_adjustments_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------
-- Hand-written: CHECK constraints (see the init migration; the drift test leaves them out).
-- ---------------------------------------------------------------------------------------

-- AddCheckConstraint: a slug is lower-case words of letters and digits joined by single hyphens (it is a URL).
-- NOT VALID: checked for every product written from now on, while a shop whose older products have
-- other slugs still migrates (a deploy must not fail on them; the back office asks for a valid one on
-- their next edit).
ALTER TABLE "products" ADD CONSTRAINT "products_slug_check" CHECK ("slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$') NOT VALID;

-- AddCheckConstraint: an adjustment changes the stock, leaves it at zero or more, and says why
-- (a product's first stock, written when it is created, needs no reason).
ALTER TABLE "stock_adjustments" ADD CONSTRAINT "stock_adjustments_kind_check" CHECK ("kind" IN ('initial', 'edit', 'adjustment'));
ALTER TABLE "stock_adjustments" ADD CONSTRAINT "stock_adjustments_delta_check" CHECK ("delta" <> 0);
ALTER TABLE "stock_adjustments" ADD CONSTRAINT "stock_adjustments_stock_after_check" CHECK ("stock_after" >= 0);
ALTER TABLE "stock_adjustments" ADD CONSTRAINT "stock_adjustments_reason_check" CHECK (char_length("reason") <= 500 AND ("kind" = 'initial' OR btrim("reason") <> ''));

-- AddCheckConstraint: only the raster formats the shop accepts (never SVG, which can carry script),
-- at most 2 MB, with the size and digest of the bytes actually stored.
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_content_type_check" CHECK ("content_type" IN ('image/png', 'image/jpeg', 'image/webp'));
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_byte_size_check" CHECK ("byte_size" = octet_length("bytes") AND "byte_size" BETWEEN 1 AND 2097152);
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_sha256_check" CHECK ("sha256" ~ '^[0-9a-f]{64}$');
