-- The cascading foreign key goes, and the one of 20261210000000 takes its name (the
-- one Prisma gives it, which schema.prisma describes). From here a DELETE of a category that a
-- promo code names fails (SQLSTATE 23503) instead of widening the code.
--
-- The release before this one still serves during the deploy. Its category delete relied on the
-- cascade: for a category a code names, it now gets the foreign key's error, which it answers as
-- 409 has_children ("move its sub-categories first"), a wrong reason, but nothing is deleted and
-- no code widens. Nothing else of it deletes categories or depends on the cascade.
ALTER TABLE "promo_code_categories" DROP CONSTRAINT "promo_code_categories_category_id_fkey";
ALTER TABLE "promo_code_categories" RENAME CONSTRAINT "promo_code_categories_category_id_no_action_fkey" TO "promo_code_categories_category_id_fkey";
