-- The back office's sessions, recorded on the server (issue 26, item 2): the sealed cookie
-- carries a session's id (lib/admin/session.ts), signing out deletes its row, "sign out
-- everywhere" deletes them all, and a cookie whose row is gone is no session, however well
-- sealed. Rows past their expiry are deleted on the next sign-in, a hundred at a time.
--
-- An expand step of the simplest kind: a new table that the release before never reads. That
-- release keeps its own stateless cookies while it serves; this one refuses them (they carry no
-- session id), so the owner signs in once more after the deploy, and once more after a rollback
-- (docs/database.md, "Back-office sessions across a deploy").

-- CreateTable
CREATE TABLE "admin_sessions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "admin_sessions_pkey" PRIMARY KEY ("id")
);
