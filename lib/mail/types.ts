import type { PrismaClient } from "../generated/prisma/client";

/** What a mail is, what sending one records, and what a mailer (SMTP or the outbox) offers. */

export interface OutgoingMail {
  to: string;
  subject: string;
  /** Plain text. Never logged. */
  text: string;
  /** What sent it, stored as `emails.job_key`: the job's dedupe key, so a retried job can tell it already mailed. */
  jobKey: string;
}

export interface SentMail {
  /** The `emails` row recording it. */
  emailId: string;
  transport: "outbox" | "smtp";
  /** The SMTP server's message id; null for the outbox. */
  messageId: string | null;
}

export interface Mailer {
  readonly transport: "outbox" | "smtp";
  /** Sends the mail (or stores it, for the outbox) and records it as an `emails` row. */
  send(mail: OutgoingMail): Promise<SentMail>;
}

/** Where mailers record what they sent: the app's client or a transaction. */
export type MailStore = Pick<PrismaClient, "email">;
