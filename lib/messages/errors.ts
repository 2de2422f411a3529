import type { MessageProvider } from "./types";

/**
 * Why a message was not sent. None of them carries the recipient, the text or a credential in
 * its message or fields, so any of them may be logged whole.
 */

/** The settings name no provider (NODE_ENV=production without MESSAGES_PROVIDER), or no sender for a channel. */
export class MessagesNotConfigured extends Error {
  constructor(
    /** The setting to set. */
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = "MessagesNotConfigured";
  }

  /** A production server with MESSAGES_PROVIDER unset: it sells, but sends no message. */
  static noProvider(): MessagesNotConfigured {
    return new MessagesNotConfigured(
      "MESSAGES_PROVIDER",
      "No WhatsApp or SMS is sent: MESSAGES_PROVIDER is not set (NODE_ENV=production). Set MESSAGES_PROVIDER=twilio " +
        "with TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_SMS_FROM (or TWILIO_WHATSAPP_FROM), or " +
        "MESSAGES_PROVIDER=outbox explicitly for staging and tests (texts are then only written to the messages table).",
    );
  }

  /** A channel the provider has no sender for. */
  static noSender(variable: string, channel: string): MessagesNotConfigured {
    return new MessagesNotConfigured(variable, `No ${channel} message is sent: ${variable} is not set.`);
  }
}

/** The recipient is not one phone (lib/phone.ts isPhoneKey refuses its key): nothing was sent or stored. */
export class InvalidRecipient extends Error {
  constructor() {
    super("The recipient is not a phone number: an Angolan number, or another country's with its country code.");
    this.name = "InvalidRecipient";
  }
}

/**
 * The provider did not take the message (it refused it, or could not be reached): recorded as a
 * `failed` row. Its message says the HTTP status and the provider's error code, never the
 * provider's own text, which may quote the phone.
 */
export class MessageNotSent extends Error {
  constructor(
    readonly provider: MessageProvider,
    /** The `messages` row of the attempt, status `failed`. */
    readonly messageId: string,
    /** The provider's HTTP status; null when no answer came. */
    readonly status: number | null,
    /** The provider's error code (Twilio's: 20003 authentication, 21211 an invalid To…), or the network error's. */
    readonly code: number | string | null,
  ) {
    super(
      status === null
        ? `${provider} could not be reached${code === null ? "" : ` (${code})`}`
        : `${provider} did not take the message (HTTP ${status}${code === null ? "" : `, error ${code}`})`,
    );
    this.name = "MessageNotSent";
  }
}
