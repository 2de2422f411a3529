-- The back office's people (lib/admin/): an account each, signed in by e-mail and password through
-- better-auth (its Prisma adapter, admin and two-factor plugins) under names of our own (its
-- `user` is `staff`, its `session` `staff_sessions`, its `account` `staff_logins`, its
-- `verification` `staff_verifications`, its `twoFactor` `staff_two_factors`); the owner's
-- back-office settings; and `staff_events`, the record of who did what, which the shop only ever
-- appends to. New tables only: `admin_sessions` stays until a later migration drops it.

CREATE TABLE "staff" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    -- Lower case (better-auth lowers it before every read and write).
    "email" TEXT NOT NULL,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    -- What the person may do (lib/admin/roles.ts): the database refuses any other role.
    "role" TEXT NOT NULL DEFAULT 'staff',
    -- Disabled: no sign-in, no session (better-auth's admin plugin calls it a ban).
    "banned" BOOLEAN NOT NULL DEFAULT false,
    "ban_reason" TEXT,
    "ban_expires" TIMESTAMP(3),
    "two_factor_enabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "staff_role_check" CHECK ("role" IN ('owner', 'staff'))
);
CREATE UNIQUE INDEX "staff_email_key" ON "staff"("email");

CREATE TABLE "staff_sessions" (
    "id" TEXT NOT NULL,
    "staff_id" TEXT NOT NULL,
    -- What the back office's cookie carries (signed); a row is the session, gone when it ends.
    "token" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "ip_address" TEXT,
    "user_agent" TEXT,
    "impersonated_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_sessions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "staff_sessions_staff_id_fkey" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "staff_sessions_token_key" ON "staff_sessions"("token");
CREATE INDEX "staff_sessions_staff_id_idx" ON "staff_sessions"("staff_id");

-- A person's password (provider `credential`, a scrypt hash): better-auth's `account`.
CREATE TABLE "staff_logins" (
    "id" TEXT NOT NULL,
    "staff_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "access_token" TEXT,
    "refresh_token" TEXT,
    "id_token" TEXT,
    "access_token_expires_at" TIMESTAMP(3),
    "refresh_token_expires_at" TIMESTAMP(3),
    "scope" TEXT,
    "password" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_logins_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "staff_logins_staff_id_fkey" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "staff_logins_staff_id_idx" ON "staff_logins"("staff_id");

CREATE TABLE "staff_verifications" (
    "id" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_verifications_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "staff_verifications_identifier_idx" ON "staff_verifications"("identifier");

-- A person's authenticator app (TOTP): its secret and backup codes, encrypted by better-auth.
CREATE TABLE "staff_two_factors" (
    "id" TEXT NOT NULL,
    "staff_id" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "backup_codes" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL DEFAULT true,
    "failed_verification_count" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_two_factors_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "staff_two_factors_staff_id_fkey" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "staff_two_factors_staff_id_idx" ON "staff_two_factors"("staff_id");
CREATE INDEX "staff_two_factors_secret_idx" ON "staff_two_factors"("secret");

-- The owner's settings of the back office: one row at most.
CREATE TABLE "back_office_settings" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    -- Everyone signs in with an authenticator's code besides the password.
    "require_two_factor" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "back_office_settings_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "back_office_settings_one_row" CHECK ("id")
);

-- Who did what in the back office (lib/admin/staff-events.ts): each change, written in the
-- change's own transaction, and each sign-in and failed sign-in. `staff_name` is the name at the
-- time (a person renamed later still did what they did); `staff_id` is empty for a sign-in
-- attempt with an e-mail nobody has.
CREATE TABLE "staff_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "staff_id" TEXT,
    "staff_name" TEXT NOT NULL,
    -- What happened, a word of lib/admin/staff-events.ts's STAFF_EVENT_KINDS: `order.fulfilment`, `product.update`.
    "kind" TEXT NOT NULL,
    -- What it happened to: `order:<externalTransactionId>`, `product:<id>`; empty for a sign-in.
    "subject" TEXT,
    -- What changed, as the action's own fields (never a password or a code).
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "staff_events_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "staff_events_staff_id_fkey" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "staff_events_created_at_idx" ON "staff_events"("created_at");
CREATE INDEX "staff_events_staff_id_created_at_idx" ON "staff_events"("staff_id", "created_at");
CREATE INDEX "staff_events_kind_created_at_idx" ON "staff_events"("kind", "created_at");
CREATE INDEX "staff_events_subject_created_at_idx" ON "staff_events"("subject", "created_at");

-- The record is appended to, never rewritten: the database refuses an edit or a deletion,
-- whatever code or person asks.
CREATE FUNCTION "staff_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'staff_events are never edited or deleted' USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "staff_events_append_only"
  BEFORE UPDATE OR DELETE ON "staff_events"
  FOR EACH ROW EXECUTE FUNCTION "staff_events_append_only"();
