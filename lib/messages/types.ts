import type { PrismaClient } from "../generated/prisma/client";

/** What a WhatsApp or SMS text is, what sending one records, and what a messenger (a provider or the outbox) offers. */

export type MessageChannel = "sms" | "whatsapp";

export type MessageProvider = "outbox" | "twilio";

export interface OutgoingMessage {
  /** The phone in any form lib/phone.ts's phoneKey reads (`+244 923 111 222`, `0923111222`, `+351…`). */
  to: string;
  channel: MessageChannel;
  /** What sends it, a short label stored with the row: `sign-in-code`. */
  purpose: string;
  /** Plain text, at most 1600 characters (Twilio's limit). Never logged. */
  text: string;
  /**
   * A part of `text` that is a secret while it lives (a sign-in code). A real provider's row stores
   * the text with it masked; the outbox stores it whole, since its row is the delivery.
   */
  secret?: string;
}

export interface SentMessage {
  /** The `messages` row recording it. */
  messageId: string;
  provider: MessageProvider;
  /** The provider's id of the message (Twilio's `SM…`); null for the outbox. */
  providerId: string | null;
  /** The phone as the row stores it: its key (lib/phone.ts). */
  recipient: string;
}

export interface Messenger {
  readonly provider: MessageProvider;
  /**
   * Sends the text (or stores it, for the outbox) and records it as a `messages` row. Refuses a
   * recipient that is not a phone (InvalidRecipient) before sending anything; a provider's
   * refusal is a MessageNotSent, recorded as a `failed` row (./errors.ts).
   */
  send(message: OutgoingMessage): Promise<SentMessage>;
}

/** Where messengers record what they sent: the app's client or a transaction. */
export type MessageStore = Pick<PrismaClient, "message">;
