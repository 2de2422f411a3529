import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createMailer, createOutboxMailer, createSmtpMailer } from "@/lib/mail";
import type { LogFields } from "@/lib/log";

// Both mailers against real things: a real SMTP server on a free local port (the smtp-server
// package) and the suite's database for the `emails` rows.

interface Received {
  from: string | undefined;
  to: string[];
  user: string | undefined;
  raw: string;
}

const USER = "loja";
const PASSWORD = "correct-horse-battery";
const received: Received[] = [];
let server: SMTPServer;
let port: number;

beforeAll(async () => {
  server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === "string" ? session.user : undefined,
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(resolve));
});

function recordingLog() {
  const lines: { level: string; event: string; fields: LogFields }[] = [];
  return { lines, log: (level: string, event: string, fields: LogFields = {}) => lines.push({ level, event, fields }) };
}

const mail = () => ({
  to: "encomendas@loja.test",
  subject: `Encomenda paga: 5 000 Kz — order_${randomUUID()}`,
  text: "Cliente: Ana Silva\nTelefone: +244 923 000 111\nAção: preparar a encomenda.",
  jobKey: `confirmation-mail:order_${randomUUID()}`,
});

describe("the SMTP mailer", () => {
  it("sends with the URL's credentials, then records the mail with the server's message id", async () => {
    const { lines, log } = recordingLog();
    const mailer = createSmtpMailer({
      db: db(),
      url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`,
      from: "Loja Kwanza <loja@loja.test>",
      log,
    });
    const message = mail();
    received.length = 0;
    const sent = await mailer.send(message);
    mailer.close();

    expect(received).toHaveLength(1);
    const delivered = received[0]!;
    expect(delivered).toMatchObject({ from: "loja@loja.test", to: ["encomendas@loja.test"], user: USER });
    expect(delivered.raw).toMatch(/^From: Loja Kwanza <loja@loja\.test>$/m);
    expect(delivered.raw).toMatch(/^To: encomendas@loja\.test$/m);
    expect(delivered.raw).toContain("Cliente: Ana Silva");
    expect(delivered.raw).toContain(`Message-ID: ${sent.messageId}`);
    expect(sent.messageId).toMatch(/^<.+@.+>$/);

    const row = await db().email.findUniqueOrThrow({ where: { id: sent.emailId } });
    expect(row).toMatchObject({ ...message, transport: "smtp", messageId: sent.messageId });
    expect(lines).toEqual([
      {
        level: "info",
        event: "mail.sent",
        // Not the recipient, who may be the shopper: the emails row has it.
        fields: { emailId: sent.emailId, jobKey: message.jobKey, messageId: sent.messageId },
      },
    ]);
  });

  it("fails without recording anything when the server refuses, and the error does not carry the password", async () => {
    const mailer = createSmtpMailer({
      db: db(),
      url: `smtp://${USER}:wrong-${PASSWORD}@127.0.0.1:${port}`,
      from: "loja@loja.test",
      log: () => {},
    });
    const message = mail();
    const error = await mailer.send(message).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    mailer.close();
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(/Invalid login|Invalid username or password/);
    expect(JSON.stringify({ message: error!.message, stack: error!.stack })).not.toContain(PASSWORD);
    expect(await db().email.count({ where: { jobKey: message.jobKey } })).toBe(0);
  });

  it("fails (and records nothing) when no server answers", async () => {
    const mailer = createSmtpMailer({ db: db(), url: "smtp://127.0.0.1:1", from: "loja@loja.test", log: () => {} });
    const message = mail();
    await expect(mailer.send(message)).rejects.toThrow(/ECONNREFUSED/);
    expect(await db().email.count({ where: { jobKey: message.jobKey } })).toBe(0);
  });
});

describe("the outbox mailer", () => {
  it("records the mail as an emails row and logs one line without the body", async () => {
    const { lines, log } = recordingLog();
    const message = mail();
    const sent = await createOutboxMailer({ db: db(), log }).send(message);
    expect(sent).toEqual({ emailId: expect.any(String), transport: "outbox", messageId: null });
    expect(await db().email.findUniqueOrThrow({ where: { id: sent.emailId } })).toMatchObject({
      ...message,
      transport: "outbox",
      messageId: null,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", event: "mail.outbox" });
    expect(JSON.stringify(lines)).not.toContain("Ana Silva");
  });
});

describe("createMailer", () => {
  it("picks SMTP when SMTP_URL is set, the outbox otherwise", () => {
    const settings = { from: "loja@loja.test", to: "encomendas@loja.test" };
    expect(createMailer({ db: db(), settings }).transport).toBe("outbox");
    expect(createMailer({ db: db(), settings: { ...settings, smtpUrl: `smtp://127.0.0.1:${port}` } }).transport).toBe(
      "smtp",
    );
  });
});
