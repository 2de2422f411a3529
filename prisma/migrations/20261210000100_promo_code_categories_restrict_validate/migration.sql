-- The foreign key 20261210000000 added NOT VALID, checked for the links there already (each
-- points at a category: the cascading key guaranteed it). VALIDATE scans without blocking the
-- writes of the release serving.
ALTER TABLE "promo_code_categories" VALIDATE CONSTRAINT "promo_code_categories_category_id_no_action_fkey";
