-- no-transaction
-- Typo-tolerant search over product names (pg_trgm's word similarity, lib/catalog-query.ts).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "products_search_key_trigram_idx" ON "products" USING gin ("search_key" gin_trgm_ops);
