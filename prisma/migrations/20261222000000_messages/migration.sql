-- Every WhatsApp or SMS text the shop sends (lib/messages/): the outbox's rows are the delivery
-- itself in development and tests, where a developer or a test reads a sign-in code from them;
-- a real provider's rows record what it was handed, a sign-in code masked (docs/messages.md). A
-- new table only: nothing running reads it before this release, and dropping it loses no order.
CREATE TABLE "messages" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    -- The phone as its key (lib/phone.ts phoneKey): 923111222, or +351912345678 abroad.
    "recipient" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    -- What sent it, e.g. sign-in-code.
    "purpose" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    -- The provider's id of the message (Twilio's SM…); null for the outbox and a failed send.
    "provider_id" TEXT,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "messages_channel_check" CHECK ("channel" IN ('sms', 'whatsapp')),
    CONSTRAINT "messages_status_check" CHECK ("status" IN ('sent', 'failed'))
);

-- One phone's messages, newest last: the codes sent to it (a test reads the latest from the outbox).
CREATE INDEX "messages_recipient_created_at_idx" ON "messages"("recipient", "created_at");
