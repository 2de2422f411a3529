import "server-only";
import { db } from "../db/client";
import { getEnv, type Env } from "../env";
import { consoleLogger, type Logger } from "../log";
import { MessagesNotConfigured } from "./errors";
import { createOutboxMessenger } from "./outbox";
import { createTwilioMessenger } from "./twilio";
import type { MessageChannel, Messenger, MessageStore, OutgoingMessage, SentMessage } from "./types";

/**
 * How the shop sends a WhatsApp or SMS text (a sign-in code): through the provider
 * MESSAGES_PROVIDER names, Twilio, or the outbox (the `messages` table only), the default
 * outside production. A production server without MESSAGES_PROVIDER runs, but refuses to send
 * (MessagesNotConfigured). Either way every message sent is a `messages` row (docs/messages.md).
 */

export { InvalidRecipient, MessageNotSent, MessagesNotConfigured } from "./errors";
export { createOutboxMessenger, type OutboxMessengerOptions } from "./outbox";
export { createTwilioMessenger, type TwilioMessengerOptions } from "./twilio";
export type { MessageChannel, MessageProvider, Messenger, MessageStore, OutgoingMessage, SentMessage } from "./types";

/** The messenger `settings` choose; throws MessagesNotConfigured when they name no provider. */
export function createMessenger(options: {
  db: MessageStore;
  settings: Pick<Env["messages"], "provider" | "twilio">;
  log?: Logger;
  /** The outbox's terminal line (./outbox.ts); default: printed under NODE_ENV=development only. */
  terminal?: ((line: string) => void) | null;
}): Messenger {
  const { provider, twilio } = options.settings;
  if (provider === "outbox")
    return createOutboxMessenger({ db: options.db, log: options.log, terminal: options.terminal });
  if (provider === "twilio") {
    // lib/env.ts refuses MESSAGES_PROVIDER=twilio without them; null only in settings built by hand.
    if (!twilio)
      throw new MessagesNotConfigured("TWILIO_ACCOUNT_SID", "MESSAGES_PROVIDER=twilio needs its TWILIO_ settings.");
    return createTwilioMessenger({ db: options.db, log: options.log, ...twilio });
  }
  throw MessagesNotConfigured.noProvider();
}

let shared: Messenger | undefined;

/** The process's messenger, chosen by the environment and writing to `db()`; throws MessagesNotConfigured without a provider. */
export function messenger(): Messenger {
  if (shared) return shared;
  const settings = getEnv().messages;
  // Before db(): a server that cannot send has no reason to open the pool here.
  if (settings.provider === null) throw MessagesNotConfigured.noProvider();
  shared = createMessenger({ db: db(), settings, log: consoleLogger });
  return shared;
}

/** Sends `message` with the process's messenger: see Messenger.send, and MessagesNotConfigured. */
export async function sendMessage(message: OutgoingMessage): Promise<SentMessage> {
  return messenger().send(message);
}

/** The channel a sign-in code goes by (MESSAGES_CHANNEL, default sms). */
export function defaultChannel(): MessageChannel {
  return getEnv().messages.channel;
}
