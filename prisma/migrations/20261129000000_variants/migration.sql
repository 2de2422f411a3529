-- Products with options (issue 24; lib/variants.ts, README "Products with options"): a product has
-- up to three options (Tamanho, Cor…) with ordered values, and sells variants: one combination
-- each, with its own SKU, price, stock and image. A product without options sells exactly one
-- variant, its default (options '{}'), so every cart line, order line, hold and stock adjustment
-- is a variant's.
--
-- Expand only (docs/database.md, "Changing the schema without breaking the release that serves").
-- The release before this one keeps working on this schema, for the whole build and after a
-- rollback, because triggers translate what it writes:
-- - products.stock and products.price_aoa stay, as the sum of the active variants' stock and their
--   lowest price (what the catalogue lists and sorts by). A change the release before makes to
--   them directly goes to the product's one variant; on a product with several it is refused.
-- - Its carts stay in cart_items (one line per product); this release's are in cart_lines (one line
--   per variant). A line of a default variant is copied to the other table, whichever writes it.
-- - The order lines and stock adjustments it writes get the product's one variant.
-- The contract step (a later release): drop cart_items and these translating triggers, make
-- order_lines.variant_id and stock_adjustments.variant_id NOT NULL.
--
-- Lock order, in every transaction that changes a variant's stock: the product's row first, then
-- the variant's (lib/stock.ts). The triggers below update the product row after the variant's, so
-- taking the product first is what keeps two checkouts of sibling variants from deadlocking.

-- CreateTable
CREATE TABLE "product_options" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "product_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "values" TEXT[] NOT NULL,

    CONSTRAINT "product_options_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_variants" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "product_id" UUID NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "sku" TEXT,
    "price_aoa" INTEGER NOT NULL,
    "stock" INTEGER NOT NULL,
    "image_path" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "archived_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_variants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cart_lines" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "cart_id" UUID NOT NULL,
    "variant_id" UUID NOT NULL,
    "quantity" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cart_lines_pkey" PRIMARY KEY ("id")
);

-- AlterTable: the variant an order line sold, and its title and SKU when it was sold.
ALTER TABLE "order_lines" ADD COLUMN "variant_id" UUID;
ALTER TABLE "order_lines" ADD COLUMN "variant_title" TEXT NOT NULL DEFAULT '';
ALTER TABLE "order_lines" ADD COLUMN "sku" TEXT;

-- AlterTable: the variant whose stock a back-office change moved.
ALTER TABLE "stock_adjustments" ADD COLUMN "variant_id" UUID;

-- CreateIndex (new tables: empty until this transaction commits)
CREATE UNIQUE INDEX "product_options_product_id_position_key" ON "product_options"("product_id", "position");
CREATE UNIQUE INDEX "product_options_product_id_name_key" ON "product_options"("product_id", "name");
CREATE UNIQUE INDEX "product_variants_sku_key" ON "product_variants"("sku");
CREATE INDEX "product_variants_product_id_position_idx" ON "product_variants"("product_id", "position");
-- One active variant per combination; an archived one may be made again.
CREATE UNIQUE INDEX "product_variants_active_options_key" ON "product_variants"("product_id", "options") WHERE "archived_at" IS NULL;
CREATE UNIQUE INDEX "cart_lines_cart_id_variant_id_key" ON "cart_lines"("cart_id", "variant_id");
CREATE INDEX "cart_lines_variant_id_idx" ON "cart_lines"("variant_id");

-- AddForeignKey
ALTER TABLE "product_options" ADD CONSTRAINT "product_options_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_cart_id_fkey" FOREIGN KEY ("cart_id") REFERENCES "carts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "product_variants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
-- Existing tables: checked for new rows now, validated by migration 20261129000100 (no long lock here).
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "product_variants"("id") ON DELETE RESTRICT ON UPDATE CASCADE NOT VALID;
ALTER TABLE "stock_adjustments" ADD CONSTRAINT "stock_adjustments_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "product_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE NOT VALID;

-- Hand-written: CHECK constraints (the drift test leaves them out).
ALTER TABLE "product_options" ADD CONSTRAINT "product_options_position_check" CHECK ("position" BETWEEN 1 AND 3);
ALTER TABLE "product_options" ADD CONSTRAINT "product_options_values_check" CHECK (cardinality("values") BETWEEN 1 AND 100);
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_price_aoa_check" CHECK ("price_aoa" > 0);
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_stock_check" CHECK ("stock" >= 0);
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_options_check" CHECK (jsonb_typeof("options") = 'object');
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_quantity_check" CHECK ("quantity" BETWEEN 1 AND 99);

-- The one active variant of a product, or NULL when it has several (or none).
CREATE FUNCTION product_single_variant(product uuid) RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN count(*) = 1 THEN (array_agg(id))[1] END
  FROM product_variants WHERE product_id = product AND archived_at IS NULL
$$;

-- A new product starts with its default variant, at the product's price and stock, whichever
-- release inserts it; lib/variants.ts turns it into the first combination when options are added.
CREATE FUNCTION products_default_variant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_variants (product_id, options, price_aoa, stock, position)
  VALUES (NEW.id, '{}', NEW.price_aoa, NEW.stock, 0);
  RETURN NULL;
END
$$;

-- The release before this one changes products.stock and products.price_aoa directly (checkout,
-- release, back office): the change goes to the product's one variant. A product with several was
-- made by this release, which the one before cannot sell: refused. Changes this migration's own
-- triggers make (depth > 1) are the totals being kept, and pass.
CREATE FUNCTION products_to_variant() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  variant uuid;
BEGIN
  IF pg_trigger_depth() > 1 OR (NEW.stock = OLD.stock AND NEW.price_aoa = OLD.price_aoa) THEN
    RETURN NEW;
  END IF;
  variant := product_single_variant(NEW.id);
  IF variant IS NULL THEN
    RAISE EXCEPTION 'product % has options: change the stock and price of its variants', NEW.id
      USING ERRCODE = 'check_violation';
  END IF;
  UPDATE product_variants
  SET stock = stock + (NEW.stock - OLD.stock), price_aoa = NEW.price_aoa, updated_at = CURRENT_TIMESTAMP
  WHERE id = variant;
  RETURN NEW;
END
$$;

-- The product's totals follow its variants: stock is the sum of the active variants', price the lowest.
CREATE FUNCTION product_variants_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  product uuid;
  delta integer;
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  product := CASE WHEN TG_OP = 'DELETE' THEN OLD.product_id ELSE NEW.product_id END;
  delta := (CASE WHEN TG_OP <> 'DELETE' AND NEW.archived_at IS NULL THEN NEW.stock ELSE 0 END)
         - (CASE WHEN TG_OP <> 'INSERT' AND OLD.archived_at IS NULL THEN OLD.stock ELSE 0 END);
  IF TG_OP = 'UPDATE' AND NEW.price_aoa = OLD.price_aoa AND (NEW.archived_at IS NULL) = (OLD.archived_at IS NULL) THEN
    -- Checkouts and releases: an increment, which a concurrent one cannot lose.
    IF delta <> 0 THEN
      UPDATE products SET stock = stock + delta WHERE id = product;
    END IF;
  ELSE
    -- The lowest price is read after the product's lock, so two price changes cannot miss each other.
    PERFORM 1 FROM products WHERE id = product FOR NO KEY UPDATE;
    UPDATE products
    SET stock = stock + delta,
        price_aoa = COALESCE((SELECT min(price_aoa) FROM product_variants WHERE product_id = product AND archived_at IS NULL), price_aoa)
    WHERE id = product;
  END IF;
  RETURN NULL;
END
$$;

-- The release before writes cart_items; its lines are copied to cart_lines (the product's one variant).
CREATE FUNCTION cart_items_to_lines() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  variant uuid;
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    DELETE FROM cart_lines l USING product_variants v
    WHERE l.cart_id = OLD.cart_id AND v.id = l.variant_id AND v.product_id = OLD.product_id;
    RETURN NULL;
  END IF;
  variant := product_single_variant(NEW.product_id);
  IF variant IS NULL THEN
    RAISE EXCEPTION 'product % has options: choose one of its variants', NEW.product_id
      USING ERRCODE = 'check_violation';
  END IF;
  INSERT INTO cart_lines (cart_id, variant_id, quantity) VALUES (NEW.cart_id, variant, NEW.quantity)
  ON CONFLICT (cart_id, variant_id) DO UPDATE SET quantity = EXCLUDED.quantity, updated_at = CURRENT_TIMESTAMP;
  RETURN NULL;
END
$$;

-- This release writes cart_lines; a default variant's line is copied to cart_items, so the release
-- before sees the cart after a rollback. A line of a variant with options has no such row.
CREATE FUNCTION cart_lines_to_items() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  line_product uuid;
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  SELECT v.product_id INTO line_product FROM product_variants v
  WHERE v.id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.variant_id ELSE NEW.variant_id END) AND v.options = '{}';
  IF line_product IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    DELETE FROM cart_items WHERE cart_id = OLD.cart_id AND product_id = line_product;
  ELSE
    INSERT INTO cart_items (cart_id, product_id, quantity) VALUES (NEW.cart_id, line_product, NEW.quantity)
    ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity, updated_at = CURRENT_TIMESTAMP;
  END IF;
  RETURN NULL;
END
$$;

-- An order line or stock adjustment the release before writes (no variant) is the product's one variant's.
CREATE FUNCTION rows_default_variant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.variant_id IS NULL THEN
    NEW.variant_id := product_single_variant(NEW.product_id);
  END IF;
  RETURN NEW;
END
$$;

-- Triggers on the existing tables first: creating one locks its table against writes until this
-- migration commits, so nothing the serving release writes slips between the copies below and
-- the triggers that keep them.
CREATE TRIGGER products_default_variant AFTER INSERT ON "products"
FOR EACH ROW EXECUTE FUNCTION products_default_variant();
CREATE TRIGGER products_to_variant BEFORE UPDATE OF stock, price_aoa ON "products"
FOR EACH ROW EXECUTE FUNCTION products_to_variant();
CREATE TRIGGER cart_items_to_lines AFTER INSERT OR UPDATE OR DELETE ON "cart_items"
FOR EACH ROW EXECUTE FUNCTION cart_items_to_lines();
CREATE TRIGGER order_lines_default_variant BEFORE INSERT ON "order_lines"
FOR EACH ROW EXECUTE FUNCTION rows_default_variant();
CREATE TRIGGER stock_adjustments_default_variant BEFORE INSERT ON "stock_adjustments"
FOR EACH ROW EXECUTE FUNCTION rows_default_variant();

-- Backfill: every product's default variant; carts, order lines and stock adjustments point at it.
INSERT INTO "product_variants" ("product_id", "options", "price_aoa", "stock", "position", "created_at", "updated_at")
SELECT "id", '{}', "price_aoa", "stock", 0, "created_at", "updated_at" FROM "products";

INSERT INTO "cart_lines" ("cart_id", "variant_id", "quantity", "created_at", "updated_at")
SELECT i."cart_id", v."id", i."quantity", i."created_at", i."updated_at"
FROM "cart_items" i JOIN "product_variants" v ON v."product_id" = i."product_id";

-- Order lines are only ever inserted, so these row locks block nothing the serving release does.
UPDATE "order_lines" l SET "variant_id" = v."id"
FROM "product_variants" v WHERE v."product_id" = l."product_id" AND l."variant_id" IS NULL;
UPDATE "stock_adjustments" a SET "variant_id" = v."id"
FROM "product_variants" v WHERE v."product_id" = a."product_id" AND a."variant_id" IS NULL;

-- Triggers on the new tables, after their backfill (which must not count twice in the totals).
CREATE TRIGGER product_variants_totals AFTER INSERT OR DELETE OR UPDATE OF stock, price_aoa, archived_at ON "product_variants"
FOR EACH ROW EXECUTE FUNCTION product_variants_totals();
CREATE TRIGGER cart_lines_to_items AFTER INSERT OR UPDATE OR DELETE ON "cart_lines"
FOR EACH ROW EXECUTE FUNCTION cart_lines_to_items();
