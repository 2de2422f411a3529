import "server-only";
import { db } from "../db/client";
import { getEnv, type Env } from "../env";
import { consoleLogger, type Logger } from "../log";
import { createOutboxMailer } from "./outbox";
import { createSmtpMailer } from "./smtp";
import type { Mailer, MailStore } from "./types";

/**
 * How the shop sends mail: over SMTP when SMTP_URL is set, otherwise into the outbox (the
 * `emails` table) only — development and tests. Either way every mail sent is an `emails` row.
 */

export { createOutboxMailer } from "./outbox";
export { createSmtpMailer, type SmtpMailer, type SmtpMailerOptions } from "./smtp";
export type { Mailer, MailStore, OutgoingMail, SentMail } from "./types";

export function createMailer(options: {
  db: MailStore;
  settings: Pick<Env["mail"], "smtpUrl" | "from" | "to">;
  log?: Logger;
}): Mailer {
  const { settings } = options;
  return settings.smtpUrl
    ? createSmtpMailer({ db: options.db, url: settings.smtpUrl, from: settings.from, log: options.log })
    : createOutboxMailer({ db: options.db, log: options.log });
}

let shared: Mailer | undefined;

/** The process's mailer, chosen by the environment (SMTP_URL, MAIL_FROM) and writing to `db()`. */
export function mailer(): Mailer {
  shared ??= createMailer({ db: db(), settings: getEnv().mail, log: consoleLogger });
  return shared;
}
