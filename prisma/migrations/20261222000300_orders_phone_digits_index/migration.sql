-- no-transaction
-- The orders of one phone, whatever form it was typed in: a signed-in shopper's orders on every
-- visit of /account and "Comprar de novo" (lib/accounts/phone-orders.ts, buy-again.ts), and the
-- back office's search by phone (lib/orders/orders-admin.ts). They compare the phone as stored,
-- without its spaces, dashes, dots and parentheses, with the forms of its key
-- (lib/orders/phone-match.ts, the same expression as here): without this index every such read
-- went through every order of the shop. Built without blocking the checkouts that insert orders.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_customer_phone_digits_idx" ON "orders" (regexp_replace("customer_phone", '[^0-9+]', '', 'g'));
