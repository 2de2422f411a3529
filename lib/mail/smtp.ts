import "server-only";
import nodemailer from "nodemailer";
import { consoleLogger, type Logger } from "../log";
import type { Mailer, MailStore } from "./types";

/**
 * Production: sends over SMTP (SMTP_URL, e.g. smtps://user:password@smtp.example.com:465), then
 * records the mail as an `emails` row with transport "smtp" and the server's message id.
 *
 * The row is written after the server accepted the mail, so a crash between the two means the
 * job runs again and the mail is sent twice: at-least-once, the only guarantee SMTP allows.
 * Failures surface as the nodemailer error, whose message names the SMTP step that failed and
 * never the password.
 */
export interface SmtpMailerOptions {
  db: MailStore;
  /** smtp:// or smtps://, with credentials if the server needs them. */
  url: string;
  from: string;
  log?: Logger;
  /** For connecting, the greeting and each command; a dead server fails the job well before its timeout. */
  timeoutMs?: number;
}

export interface SmtpMailer extends Mailer {
  /** Closes idle connections (scripts call it before exiting). */
  close(): void;
}

export function createSmtpMailer(options: SmtpMailerOptions): SmtpMailer {
  const log = options.log ?? consoleLogger;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const transport = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 2,
  });
  return {
    transport: "smtp",
    async send(mail) {
      const info = await transport.sendMail({
        from: options.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
      const email = await options.db.email.create({
        data: {
          jobKey: mail.jobKey,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          transport: "smtp",
          messageId: info.messageId,
        },
        select: { id: true },
      });
      // Not the recipient, who may be the shopper: the emails row has it (lib/log.ts).
      log("info", "mail.sent", { emailId: email.id, jobKey: mail.jobKey, messageId: info.messageId });
      return { emailId: email.id, transport: "smtp", messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}
