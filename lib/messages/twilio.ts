import "server-only";
import twilio from "twilio";
import type RequestClient from "twilio/lib/base/RequestClient";
import { consoleLogger, type Logger } from "../log";
import { MessageNotSent, MessagesNotConfigured } from "./errors";
import { prepareMessage, type PreparedMessage } from "./prepare";
import type { Messenger, MessageStore } from "./types";

/**
 * Production: sends through Twilio's Messages API with its official SDK, SMS from a sender id,
 * a number or a Messaging Service, WhatsApp as `whatsapp:+244…` from the shop's WhatsApp sender.
 * Every attempt is a `messages` row written after Twilio answered: `sent` with Twilio's id once
 * it took the message, `failed` when it refused it or could not be reached (then MessageNotSent
 * is thrown). The row keeps the text with its secret masked: a sign-in code lives in the
 * shopper's phone, not in the shop's database.
 *
 * "Sent" means Twilio accepted the message; whether the phone got it is Twilio's delivery
 * status, not followed here. A timeout is recorded as failed though Twilio may have sent it.
 */
export interface TwilioMessengerOptions {
  db: MessageStore;
  accountSid: string;
  /** A secret: it only goes into the Authorization header, never into a log, an error or a row. */
  authToken: string;
  /** An SMS's sender: a number (+…) or an alphanumeric sender id. */
  smsFrom: string | null;
  /** A Messaging Service's SID (MG…), which picks an SMS's sender itself; used when smsFrom is null. */
  messagingServiceSid?: string | null;
  /** The shop's WhatsApp number (+…), without "whatsapp:". */
  whatsappFrom: string | null;
  /** Where Twilio's API is: null for the SDK's own (https://api.twilio.com); a local stand-in in tests. */
  apiBaseUrl?: string | null;
  /** For each request; a dead API fails the send (and the sign-in code request) well before a shopper gives up. */
  timeoutMs?: number;
  log?: Logger;
}

/**
 * The SDK's own HTTP client with every request's scheme, host and port replaced by `baseUrl`'s
 * (its path kept after baseUrl's): the SDK's supported way in for a client of one's own
 * (its `httpClient` option). Its `edge` and `region` options only choose among Twilio's hosts.
 */
class ApiAddressClient extends twilio.RequestClient {
  constructor(
    private readonly baseUrl: string | null,
    options: RequestClient.RequestClientOptions,
  ) {
    super(options);
  }

  override request<TData>(options: RequestClient.RequestOptions<TData>) {
    if (this.baseUrl === null) return super.request(options);
    const uri = new URL(options.uri);
    return super.request({ ...options, uri: `${this.baseUrl}${uri.pathname}${uri.search}` });
  }
}

export function createTwilioMessenger(options: TwilioMessengerOptions): Messenger {
  const log = options.log ?? consoleLogger;
  const client = twilio(options.accountSid, options.authToken, {
    httpClient: new ApiAddressClient(options.apiBaseUrl ?? null, { timeout: options.timeoutMs ?? 10_000 }),
    // The SDK would read TWILIO_EDGE, TWILIO_REGION and TWILIO_LOG_LEVEL from the environment
    // itself when these are undefined; the shop's settings are lib/env.ts's alone.
    edge: "",
    region: "",
    logLevel: "",
    autoRetry: false,
  });

  /** To and From as Twilio takes them for the channel, or the setting that is missing. */
  function addresses(prepared: PreparedMessage): { to: string; from?: string; messagingServiceSid?: string } {
    if (prepared.channel === "whatsapp") {
      if (!options.whatsappFrom) throw MessagesNotConfigured.noSender("TWILIO_WHATSAPP_FROM", "WhatsApp");
      return { to: `whatsapp:${prepared.e164}`, from: `whatsapp:${options.whatsappFrom}` };
    }
    if (options.smsFrom) return { to: prepared.e164, from: options.smsFrom };
    if (options.messagingServiceSid) return { to: prepared.e164, messagingServiceSid: options.messagingServiceSid };
    throw MessagesNotConfigured.noSender("TWILIO_SMS_FROM", "SMS");
  }

  return {
    provider: "twilio",
    async send(message) {
      const prepared = prepareMessage(message);
      const request = { ...addresses(prepared), body: prepared.text };
      const record = (status: "sent" | "failed", providerId: string | null) =>
        options.db.message.create({
          data: {
            recipient: prepared.recipient,
            channel: prepared.channel,
            purpose: prepared.purpose,
            body: prepared.maskedText,
            provider: "twilio",
            providerId,
            status,
          },
          select: { id: true },
        });

      let sid: string;
      try {
        sid = (await client.messages.create(request)).sid;
      } catch (error) {
        // Neither the SDK's error (Twilio's text may quote the phone) nor the HTTP library's
        // (its request carries the Authorization header) goes further: only status and code.
        const { status, code } = failureOf(error);
        const row = await record("failed", null);
        log("warn", "messages.failed", {
          messageId: row.id,
          provider: "twilio",
          channel: prepared.channel,
          purpose: prepared.purpose,
          status,
          code,
        });
        throw new MessageNotSent("twilio", row.id, status, code);
      }
      const row = await record("sent", sid);
      log("info", "messages.sent", {
        messageId: row.id,
        provider: "twilio",
        providerId: sid,
        channel: prepared.channel,
        purpose: prepared.purpose,
      });
      return { messageId: row.id, provider: "twilio", providerId: sid, recipient: prepared.recipient };
    },
  };
}

/** Twilio's HTTP status and error code, or the network error's code (ECONNREFUSED, ECONNABORTED…). */
function failureOf(error: unknown): { status: number | null; code: number | string | null } {
  if (error instanceof twilio.RestException) {
    return { status: error.status, code: typeof error.code === "number" ? error.code : null };
  }
  const code = (error as { code?: unknown } | null)?.code;
  return { status: null, code: typeof code === "string" && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : null };
}
