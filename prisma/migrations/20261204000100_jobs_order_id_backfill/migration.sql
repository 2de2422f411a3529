-- no-transaction
-- The jobs already there get their order (20261204000000 fills the ones inserted from now on).
-- Jobs are never deleted (docs/jobs.md), so the table grows with every order: one UPDATE would
-- lock every row until it ended, and keep the worker from finishing the jobs it runs meanwhile.
-- Instead, batches of 5000 in primary key order, each committed on its own (a DO block may
-- COMMIT when it is the only statement sent), so a batch's row locks last a moment and VACUUM
-- can follow. Run again, it finds nothing left to fill and goes through the keys once more.
-- The whole block is bounded by MIGRATE_STATEMENT_TIMEOUT_SECONDS (300 s: some millions of jobs);
-- a larger table needs that raised for this deployment (docs/database.md, "Jobs name their order").
DO $$
DECLARE
  after_id uuid := '00000000-0000-0000-0000-000000000000';
  last_id uuid;
BEGIN
  LOOP
    SELECT batch."id" INTO last_id
    FROM (SELECT "id" FROM "jobs" WHERE "id" > after_id ORDER BY "id" LIMIT 5000) batch
    ORDER BY batch."id" DESC LIMIT 1;
    EXIT WHEN last_id IS NULL;
    UPDATE "jobs" j SET "order_id" = o."id"
    FROM "orders" o
    WHERE j."id" > after_id AND j."id" <= last_id AND j."order_id" IS NULL
      AND o."external_transaction_id" = substring(j."dedupe_key" FROM '[^:]*$');
    after_id := last_id;
    COMMIT;
  END LOOP;
END
$$;
