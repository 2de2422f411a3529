import "server-only";
import { nodeEnv } from "../env";
import { consoleLogger, type Logger } from "../log";
import { prepareMessage } from "./prepare";
import type { Messenger, MessageStore } from "./types";

/**
 * Development and tests (and staging, set explicitly): nothing leaves the machine. The text is
 * written whole to the `messages` table (provider "outbox"), where a test reads a sign-in code,
 * and under `npm run dev` (NODE_ENV=development) it is also printed to the terminal, so a
 * developer can sign in. That line goes to the console directly, not through lib/log.ts: it is
 * not a log event, and no production server ever prints it. The log line has the row's id only.
 */
export interface OutboxMessengerOptions {
  db: MessageStore;
  log?: Logger;
  /** Where the text is printed; default: the console under NODE_ENV=development, nowhere otherwise. */
  terminal?: ((line: string) => void) | null;
}

export function createOutboxMessenger(options: OutboxMessengerOptions): Messenger {
  const log = options.log ?? consoleLogger;
  const terminal =
    options.terminal !== undefined
      ? options.terminal
      : nodeEnv() === "development"
        ? (line: string) => console.log(line)
        : null;
  return {
    provider: "outbox",
    async send(message) {
      const prepared = prepareMessage(message);
      const row = await options.db.message.create({
        data: {
          recipient: prepared.recipient,
          channel: prepared.channel,
          purpose: prepared.purpose,
          body: prepared.text,
          provider: "outbox",
          status: "sent",
        },
        select: { id: true },
      });
      terminal?.(`[messages] ${prepared.channel} to ${prepared.recipient}: ${prepared.text}`);
      log("info", "messages.outbox", { messageId: row.id, channel: prepared.channel, purpose: prepared.purpose });
      return { messageId: row.id, provider: "outbox", providerId: null, recipient: prepared.recipient };
    },
  };
}
