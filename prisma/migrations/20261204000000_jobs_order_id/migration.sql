-- Expand (issue 26, item 6): a job names its order in a column, so the back office finds an
-- order's jobs by an index instead of reading every dedupe key (`LIKE '%:<externalTransactionId>'`).
-- Nullable, no default: adding it rewrites nothing and locks "jobs" for an instant.
ALTER TABLE "jobs" ADD COLUMN "order_id" UUID;

-- AddForeignKey: NOT VALID checks new rows only (no scan under the lock); 20261204000300 validates
-- the rows 20261204000100 filled. SET NULL, as webhook_events: a job is the record of what was done.
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE SET NULL ON UPDATE CASCADE NOT VALID;

-- The release before this one inserts jobs without order_id (lib/orders/state-machine.ts and
-- lib/orders/fulfilment.ts of that release): the order is the one its dedupe key ends with
-- (`<type>:…:<externalTransactionId>`, lib/jobs/catalog.ts), found through its unique index.
-- No order by that id (no job of this shop's has none): left NULL. Dropped by the contract step,
-- once no release that omits the column serves (docs/database.md, "Jobs name their order").
CREATE FUNCTION jobs_fill_order_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."order_id" IS NULL THEN
    NEW."order_id" := (
      SELECT o."id" FROM "orders" o
      WHERE o."external_transaction_id" = substring(NEW."dedupe_key" FROM '[^:]*$')
    );
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER jobs_fill_order_id BEFORE INSERT ON "jobs"
  FOR EACH ROW EXECUTE FUNCTION jobs_fill_order_id();
