-- ---------------------------------------------------------------------------------------
-- Hand-written: every new session of this database starts in UTC (docs/database.md, "Time zone").
-- ---------------------------------------------------------------------------------------

-- Timestamps are `timestamp without time zone` holding UTC (Prisma's convention), and the SQL in
-- lib/ and the columns' defaults write and compare them with now() and CURRENT_TIMESTAMP, which
-- follow the session's TimeZone. The app used to ask for UTC on each connection (the startup
-- parameter `options=-c TimeZone=UTC`); a transaction-mode pooler such as PgBouncer, which
-- Vercel's Postgres integrations put behind DATABASE_URL, refuses that parameter and does not
-- keep a SET from one transaction to the next. The database's own default reaches every
-- connection, pooled or direct.
--
-- It applies to sessions that start after this migration: the migrator's own session, and the
-- server connections a pooler opened before, keep the zone they started with.
--
-- A migrating role that may not alter the database (it is not the owner) sets the default for
-- itself in this database instead, with a WARNING: other roles are not covered. A role that may
-- do neither fails the migration (the times would be wrong): run it as the owner.
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET "TimeZone" TO %L', current_database(), 'UTC');
EXCEPTION WHEN insufficient_privilege THEN
  BEGIN
    EXECUTE format('ALTER ROLE %I IN DATABASE %I SET "TimeZone" TO %L', current_user, current_database(), 'UTC');
    RAISE WARNING 'role % may not alter database %, so only its own sessions there start in UTC', current_user, current_database()
      USING HINT = format('The owner can cover every role: ALTER DATABASE %I SET "TimeZone" TO ''UTC''', current_database());
  EXCEPTION WHEN insufficient_privilege THEN
    RAISE EXCEPTION 'role % may not set the default time zone of database % (to UTC), for all roles or for itself', current_user, current_database()
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'Run the migrations as the database''s owner (DATABASE_URL_UNPOOLED, or DATABASE_URL).';
  END;
END
$$;
