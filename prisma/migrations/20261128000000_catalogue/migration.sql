-- The catalogue of a real assortment (lib/catalog-query.ts, lib/categories.ts, README "Catalogue"):
-- a category tree of two levels, products in any number of categories, an ordered gallery of images
-- with alt text per product, and search in Portuguese that ignores accents and forgives typos.
-- Expand only: the release still serving reads products as before; new tables, new functions.

-- Search: unaccent ("cafe" finds "Café") and pg_trgm (similarity, for "cafee" or "chocolat"). Both
-- ship with PostgreSQL's contrib (Neon and Vercel's Postgres allow them; PGlite loads its builds),
-- and both are trusted extensions: a role with CREATE on the database may create them (the owner
-- has it). Where the migrating role may not, the database's owner runs these two lines once first.
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The functions the search indexes are built on. Each names the schema of everything it calls:
-- PostgreSQL 17 (PGlite's) runs index builds with search_path = pg_catalog, pg_temp, and any
-- version may build or use them from a session whose search_path is not the migration's.
--
-- shop_unaccent: unaccent() with its dictionary named, since unaccent() itself is only STABLE
-- (its dictionary could change) and an index may use only IMMUTABLE functions.
-- shop_search_key: the text typos are matched against (trigrams): lower case, no accents.
-- product_search_document: what full-text search reads of a product, its name (weight A) and
-- description (weight C), in the Portuguese configuration (stems: "torrado" meets "torrada"),
-- without accents. One definition, for the index and every query (lib/catalog-query.ts).
DO $$
DECLARE
  extension_schema text;
  own_schema text := current_schema();
BEGIN
  SELECT n.nspname INTO STRICT extension_schema
  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
  WHERE e.extname = 'unaccent';
  EXECUTE format(
    'CREATE FUNCTION %I.shop_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS %L',
    own_schema, format('SELECT %I.unaccent(%L::regdictionary, $1)', extension_schema, extension_schema || '.unaccent'));
  EXECUTE format(
    'CREATE FUNCTION %I.shop_search_key(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS %L',
    own_schema, format('SELECT pg_catalog.lower(%I.shop_unaccent($1))', own_schema));
  EXECUTE format(
    'CREATE FUNCTION %I.product_search_document(name text, description text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS %L',
    own_schema, format(
      'SELECT pg_catalog.setweight(pg_catalog.to_tsvector(%1$L::regconfig, %2$I.shop_unaccent(coalesce(name, %3$L))), %4$L) '
      '|| pg_catalog.setweight(pg_catalog.to_tsvector(%1$L::regconfig, %2$I.shop_unaccent(coalesce(description, %3$L))), %5$L)',
      'pg_catalog.portuguese', own_schema, '', 'A', 'C'));
END
$$;

-- AlterTable: what search reads of each product, stored, so that neither the indexes' rechecks nor
-- the ranking rebuild it per match (the bench measured half the database's time per search).
-- Nullable and without a default (no rewrite of the table); a trigger keeps both columns in step
-- with the name and description whichever release writes them, and the UPDATE below fills them in
-- for the products there are.
ALTER TABLE "products" ADD COLUMN "search_document" tsvector;
ALTER TABLE "products" ADD COLUMN "search_key" TEXT;

CREATE FUNCTION products_search_columns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_document := product_search_document(NEW.name, NEW.description);
  NEW.search_key := shop_search_key(NEW.name);
  RETURN NEW;
END
$$;

CREATE TRIGGER products_search_columns BEFORE INSERT OR UPDATE OF name, description ON products
FOR EACH ROW EXECUTE FUNCTION products_search_columns();

UPDATE "products" SET "search_document" = product_search_document("name", "description"), "search_key" = shop_search_key("name");

-- How alike a word of the search and a stretch of a product's name must be for a typo to match
-- (pg_trgm's word similarity, 0 to 1). Its default, 0.6, misses "maskara" for "Máscara" (0.45);
-- 0.45 finds such one-letter mistakes, and the ranking puts exact matches first. A database setting,
-- read by every new session; the SET is for this session, which on PGlite is the only one. A
-- migrating role that may not alter the database sets it for itself there, with a WARNING, like
-- the time zone (migration 20261124000000); search still works at the default, less forgiving.
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET pg_trgm.word_similarity_threshold = 0.45', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  EXECUTE format('ALTER ROLE %I IN DATABASE %I SET pg_trgm.word_similarity_threshold = 0.45', current_user, current_database());
  RAISE WARNING 'role % may not alter database %, so only its own sessions there forgive typos at 0.45', current_user, current_database()
    USING HINT = format('The owner can cover every role: ALTER DATABASE %I SET pg_trgm.word_similarity_threshold = 0.45', current_database());
END
$$;
SET pg_trgm.word_similarity_threshold = 0.45;

-- CreateTable
CREATE TABLE "categories" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "parent_id" UUID,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_categories" (
    "product_id" UUID NOT NULL,
    "category_id" UUID NOT NULL,

    CONSTRAINT "product_categories_pkey" PRIMARY KEY ("product_id","category_id")
);

-- CreateTable
CREATE TABLE "gallery_images" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "product_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "alt" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gallery_images_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "categories_slug_key" ON "categories"("slug");

-- CreateIndex: a category's sub-categories, in order.
CREATE INDEX "categories_parent_id_position_idx" ON "categories"("parent_id", "position");

-- CreateIndex: a category's products.
CREATE INDEX "product_categories_category_id_idx" ON "product_categories"("category_id");

-- CreateIndex: a product's gallery, in order; one image per place.
CREATE UNIQUE INDEX "gallery_images_product_id_position_key" ON "gallery_images"("product_id", "position");

-- AddForeignKey: a category with sub-categories cannot be deleted (the back office says to move them first).
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "categories"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gallery_images" ADD CONSTRAINT "gallery_images_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------
-- Hand-written: CHECK constraints and the tree's depth (see the init migration).
-- ---------------------------------------------------------------------------------------

ALTER TABLE "categories" ADD CONSTRAINT "categories_slug_check" CHECK ("slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length("slug") <= 120);
ALTER TABLE "categories" ADD CONSTRAINT "categories_name_check" CHECK (btrim("name") <> '' AND char_length("name") <= 80);
ALTER TABLE "categories" ADD CONSTRAINT "categories_description_check" CHECK (char_length("description") <= 2000);
ALTER TABLE "categories" ADD CONSTRAINT "categories_position_check" CHECK ("position" >= 0);
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_check" CHECK ("parent_id" <> "id");
ALTER TABLE "gallery_images" ADD CONSTRAINT "gallery_images_position_check" CHECK ("position" >= 0);
-- Every image has a text alternative (the back office and the CSV import require one).
ALTER TABLE "gallery_images" ADD CONSTRAINT "gallery_images_alt_check" CHECK (btrim("alt") <> '' AND char_length("alt") <= 300);

-- At most two levels: a category's parent has no parent, and a category with sub-categories has
-- no parent. A CHECK cannot look at other rows, so a trigger does; it takes one lock for every
-- change of the tree, so two moves made at the same moment cannot build a third level together.
CREATE FUNCTION categories_two_levels() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.parent_id IS NULL THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(7261128);
  IF EXISTS (SELECT 1 FROM categories WHERE id = NEW.parent_id AND parent_id IS NOT NULL) THEN
    RAISE EXCEPTION 'category % would be a third level: its parent is a sub-category', NEW.slug
      USING ERRCODE = 'check_violation', CONSTRAINT = 'categories_two_levels';
  END IF;
  IF EXISTS (SELECT 1 FROM categories WHERE parent_id = NEW.id) THEN
    RAISE EXCEPTION 'category % has sub-categories, so it cannot have a parent', NEW.slug
      USING ERRCODE = 'check_violation', CONSTRAINT = 'categories_two_levels';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER categories_two_levels BEFORE INSERT OR UPDATE OF parent_id ON categories
FOR EACH ROW EXECUTE FUNCTION categories_two_levels();

-- Every product's one image so far becomes the first of its gallery, described by its name
-- until the owner writes better alt text. A product created by the release before this one (in
-- the minutes between this migration and the new release serving) has no gallery row: the shop
-- shows products.image_path then, which stays the gallery's first image (lib/catalog.ts).
INSERT INTO "gallery_images" ("product_id", "position", "path", "alt")
SELECT "id", 0, "image_path", left("name", 300) FROM "products";
