-- Shoppers' accounts, signed in by phone (lib/accounts/): the tables better-auth reads and writes
-- through its Prisma adapter, under names of our own (its `user` is `shoppers`, its `session`
-- `shopper_sessions`, its `account` `shopper_logins`, its `verification` the sign-in codes, its
-- `rateLimit` the counters every instance shares). Columns are its fields in snake case; `nif`
-- and `contact_email` are the shop's own (what the checkout fills in), which better-auth is
-- configured never to take from a request. New tables only: nothing released reads them.

CREATE TABLE "shoppers" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    -- better-auth requires a unique e-mail; a phone account gets a placeholder under `.invalid`
    -- (RFC 2606: never delivered). The shopper's own address is `contact_email`.
    "email" TEXT NOT NULL,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    -- The phone's key (lib/phone.ts phoneKey): `923111222`, `+351912345678`.
    "phone_number" TEXT,
    "phone_number_verified" BOOLEAN NOT NULL DEFAULT false,
    "contact_email" TEXT,
    "nif" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shoppers_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "shoppers_email_key" ON "shoppers"("email");
CREATE UNIQUE INDEX "shoppers_phone_number_key" ON "shoppers"("phone_number");

CREATE TABLE "shopper_sessions" (
    "id" TEXT NOT NULL,
    "shopper_id" TEXT NOT NULL,
    -- What the session cookie carries (signed); a row is the session, gone when signed out.
    "token" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "ip_address" TEXT,
    "user_agent" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shopper_sessions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "shopper_sessions_shopper_id_fkey" FOREIGN KEY ("shopper_id") REFERENCES "shoppers"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "shopper_sessions_token_key" ON "shopper_sessions"("token");
CREATE INDEX "shopper_sessions_shopper_id_idx" ON "shopper_sessions"("shopper_id");

-- better-auth's link between an account and a way of signing in (a password, another provider).
-- Phone accounts have none today; the table is part of what the library expects.
CREATE TABLE "shopper_logins" (
    "id" TEXT NOT NULL,
    "shopper_id" TEXT NOT NULL,
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

    CONSTRAINT "shopper_logins_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "shopper_logins_shopper_id_fkey" FOREIGN KEY ("shopper_id") REFERENCES "shoppers"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "shopper_logins_shopper_id_idx" ON "shopper_logins"("shopper_id");

-- Sign-in codes: `phone-number-otp-<phone key>` → `<code>:<wrong tries>`, until `expires_at`.
CREATE TABLE "shopper_verifications" (
    "id" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shopper_verifications_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "shopper_verifications_identifier_idx" ON "shopper_verifications"("identifier");

-- better-auth's request counters (per address and path), in the database so that every
-- instance counts against the same allowance.
CREATE TABLE "auth_rate_limits" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    -- ms since the epoch
    "last_request" BIGINT NOT NULL,

    CONSTRAINT "auth_rate_limits_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "auth_rate_limits_key_key" ON "auth_rate_limits"("key");
