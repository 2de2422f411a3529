-- The buyer's NIF (número de identificação fiscal), optional at checkout, for the receipt of a
-- paid order and the orders' CSV: stored normalised (upper case, no separators) as
-- lib/nif.ts checks it, a person's 14 characters or a company's 10 digits.
--
-- An expand step: one nullable column, a catalogue-only change. The release still serving
-- inserts orders without it (NULL: no NIF given), and nothing reads it but this release.

-- AlterTable
ALTER TABLE "orders" ADD COLUMN "customer_nif" TEXT;
