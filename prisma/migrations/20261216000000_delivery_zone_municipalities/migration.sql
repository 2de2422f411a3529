-- The municipalities a delivery zone serves (lib/delivery-municipalities.ts): endpoint A derives
-- the zone, and so its fee, from the address's municipality instead of taking the zone the shopper
-- picked. A municipality belongs to one zone at most, whatever its accents, case, hyphens or spaces
-- ("Quiçama", "QUICAMA", "Hoji-ya-Henda", "Hoji ya Henda"): the unique index below keeps that, on
-- the zones turned off too, so turning a zone back on can never make two zones serve one place.
--
-- An expand step: a new table and a new function only. The release still serving never reads
-- them and keeps taking the zone the shopper picks; a zone listing no municipality (every zone
-- until its owner lists some) goes on doing so in this release too ("not yet restricted").

-- delivery_municipality_key: a municipality's name as compared, lower case, without accents,
-- hyphens and runs of spaces as one space, trimmed. Built on shop_search_key (migration
-- 20261128000000), each call schema-qualified for the reason given there (index builds run with
-- search_path = pg_catalog on PGlite). One definition, for the index and every lookup.
DO $$
DECLARE
  own_schema text := current_schema();
BEGIN
  EXECUTE format(
    'CREATE FUNCTION %I.delivery_municipality_key(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS %L',
    own_schema,
    format('SELECT pg_catalog.btrim(pg_catalog.regexp_replace(%I.shop_search_key($1), %L, %L, %L))',
      own_schema, '[[:space:]-]+', ' ', 'g'));
END
$$;

-- CreateTable
CREATE TABLE "delivery_zone_municipalities" (
    "zone_id" UUID NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "delivery_zone_municipalities_pkey" PRIMARY KEY ("zone_id", "name"),
    -- The address's own limit (lib/checkout/request.ts, ADDRESS_LIMITS.municipality).
    CONSTRAINT "delivery_zone_municipalities_name_length" CHECK (char_length("name") BETWEEN 1 AND 80),
    CONSTRAINT "delivery_zone_municipalities_zone_id_fkey" FOREIGN KEY ("zone_id")
      REFERENCES "delivery_zones"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- A new, empty table: no need to build it CONCURRENTLY.
CREATE UNIQUE INDEX "delivery_zone_municipalities_key" ON "delivery_zone_municipalities" (delivery_municipality_key("name"));
