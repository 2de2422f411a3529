-- Holds a stranger cannot hoard (issue 26): the client address an order was placed from, so the
-- checkout can cap the orders one address holds open at once (MAX_OPEN_ORDERS_PER_ADDRESS), whatever
-- shopper cookies it sends. What is stored is the key the per-address limits count under
-- (lib/client-address.ts' rateLimitKeyOf: an IPv4 address, or an IPv6 /64 network).
--
-- An expand step: one nullable column, a catalogue-only change. The release still serving inserts
-- orders without it (NULL), which no address's cap counts; its index is built CONCURRENTLY by
-- 20261202000100.

-- AlterTable
ALTER TABLE "orders" ADD COLUMN "client_address" TEXT;
