-- no-transaction
-- Typo-tolerant search over product names (pg_trgm's word similarity, lib/catalog-query.ts).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "products_name_trigram_idx" ON "products" USING gin (shop_search_key("name") gin_trgm_ops);
