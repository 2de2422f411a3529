import "server-only";
import { consoleLogger, type Logger } from "../log";
import type { Mailer, MailStore } from "./types";

/**
 * Development and tests: nothing leaves the machine. The mail is written to the `emails` table
 * (transport "outbox"), where a developer or a test reads it, and one log line says so — with
 * the row's id and the job's key only: the recipient may be the shopper, the subject carries the
 * order's number and the body the customer's name and phone (lib/log.ts).
 */
export function createOutboxMailer(options: { db: MailStore; log?: Logger }): Mailer {
  const log = options.log ?? consoleLogger;
  return {
    transport: "outbox",
    async send(mail) {
      const email = await options.db.email.create({
        data: { jobKey: mail.jobKey, to: mail.to, subject: mail.subject, text: mail.text, transport: "outbox" },
        select: { id: true },
      });
      log("info", "mail.outbox", { emailId: email.id, jobKey: mail.jobKey });
      return { emailId: email.id, transport: "outbox", messageId: null };
    },
  };
}
