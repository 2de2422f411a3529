-- no-transaction
-- Full-text search over products (lib/catalog-query.ts): built without blocking the checkouts
-- that write products meanwhile, so outside a transaction and alone in its file.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "products_search_document_idx" ON "products" USING gin ("search_document");
