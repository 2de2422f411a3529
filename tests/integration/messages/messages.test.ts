import { randomBytes, randomInt } from "node:crypto";
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { parseEnv } from "@/lib/env";
import type { LogFields } from "@/lib/log";
import {
  createMessenger,
  createOutboxMessenger,
  createTwilioMessenger,
  InvalidRecipient,
  MessageNotSent,
  MessagesNotConfigured,
  type OutgoingMessage,
  type TwilioMessengerOptions,
} from "@/lib/messages";
import { startTwilioStandIn, TWILIO_INVALID_TO, type TwilioStandIn } from "../../../harness/support/twilio-stand-in";

// Both messengers against real things: the suite's database for the `messages` rows, and a
// stand-in for Twilio's Messages API over HTTP, reached through Twilio's own SDK.

let standIn: TwilioStandIn;

beforeAll(async () => {
  standIn = await startTwilioStandIn();
});
afterAll(() => standIn.close());
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
});

function recordingLog() {
  const lines: { level: string; event: string; fields: LogFields }[] = [];
  return { lines, log: (level: string, event: string, fields: LogFields = {}) => lines.push({ level, event, fields }) };
}

/** An Angolan mobile number nobody else in this run uses: its key and a spaced +244 form. */
function freshPhone() {
  const key = `9${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  return { key, spaced: `+244 ${key.slice(0, 3)} ${key.slice(3, 6)} ${key.slice(6)}`, e164: `+244${key}` };
}

const freshCode = () => String(randomInt(0, 1_000_000)).padStart(6, "0");

/** A sign-in code's message to `to`. */
function codeMessage(to: string, channel: OutgoingMessage["channel"] = "sms"): OutgoingMessage & { secret: string } {
  const code = freshCode();
  return { to, channel, purpose: "sign-in-code", text: `O seu código da loja: ${code}`, secret: code };
}

const WHATSAPP_FROM = "+244923000999";

function twilioMessenger(overrides: Partial<TwilioMessengerOptions> = {}) {
  return createTwilioMessenger({
    db: db(),
    accountSid: standIn.accountSid,
    authToken: standIn.authToken,
    smsFrom: "LojaKwanza",
    whatsappFrom: WHATSAPP_FROM,
    apiBaseUrl: standIn.url,
    log: () => {},
    ...overrides,
  });
}

/** The rejection of `promise`, which must reject. */
async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (reason: unknown) => reason as Error,
  );
  if (!outcome) throw new Error("expected a rejection");
  return outcome;
}

/** Everything an error could show whoever logs it: message, stack, fields, util.inspect. */
const everythingOf = (error: Error) =>
  [error.message, error.stack, JSON.stringify(error), inspect(error, { depth: 10 })].join("\n");

describe("the outbox", () => {
  it("stores the text whole under the phone's key, whatever form the phone was written in", async () => {
    const phone = freshPhone();
    const forms = [
      phone.spaced,
      `00244${phone.key}`,
      `0${phone.key}`,
      `${phone.key.slice(0, 3)}-${phone.key.slice(3)}`,
    ];
    const { lines, log } = recordingLog();
    const outbox = createOutboxMessenger({ db: db(), log, terminal: null });
    for (const to of forms) {
      const message = codeMessage(to);
      const sent = await outbox.send(message);
      expect(sent).toEqual({
        messageId: expect.any(String),
        provider: "outbox",
        providerId: null,
        recipient: phone.key,
      });
      expect(await db().message.findUniqueOrThrow({ where: { id: sent.messageId } })).toMatchObject({
        recipient: phone.key,
        channel: "sms",
        purpose: "sign-in-code",
        // The outbox is the delivery: the code is there to be read (the browser tests read it).
        body: message.text,
        provider: "outbox",
        providerId: null,
        status: "sent",
      });
    }
    expect(await db().message.count({ where: { recipient: phone.key } })).toBe(forms.length);
    expect(lines.map((line) => line.event)).toEqual(forms.map(() => "messages.outbox"));
    expect(JSON.stringify(lines)).not.toContain(phone.key);
    expect(JSON.stringify(lines)).not.toContain("código");
  });

  it("keeps another country's number with its country code", async () => {
    const sent = await createOutboxMessenger({ db: db(), log: () => {}, terminal: null }).send(
      codeMessage("+351 912 345 678", "whatsapp"),
    );
    expect(sent.recipient).toBe("+351912345678");
    expect(await db().message.findUniqueOrThrow({ where: { id: sent.messageId } })).toMatchObject({
      recipient: "+351912345678",
      channel: "whatsapp",
    });
  });

  it("prints the text to the terminal under npm run dev (NODE_ENV=development) only, not through the logger", async () => {
    const phone = freshPhone();
    const printed = vi.spyOn(console, "log").mockImplementation(() => {});

    // The suite runs as NODE_ENV=test: nothing printed.
    const quiet = codeMessage(phone.spaced);
    await createOutboxMessenger({ db: db(), log: () => {} }).send(quiet);
    expect(printed).not.toHaveBeenCalled();

    vi.stubEnv("NODE_ENV", "development");
    const { lines, log } = recordingLog();
    const message = codeMessage(phone.spaced);
    await createOutboxMessenger({ db: db(), log }).send(message);
    expect(printed.mock.calls).toEqual([[`[messages] sms to ${phone.key}: O seu código da loja: ${message.secret}`]]);
    expect(JSON.stringify(lines)).not.toContain(message.secret);

    vi.stubEnv("NODE_ENV", "production");
    printed.mockClear();
    await createOutboxMessenger({ db: db(), log: () => {} }).send(codeMessage(phone.spaced));
    expect(printed).not.toHaveBeenCalled();
  });
});

describe("the Twilio messenger, against a stand-in for its API", () => {
  it("sends an SMS with the account's basic auth and Twilio's form fields, and stores the code masked", async () => {
    const phone = freshPhone();
    const { lines, log } = recordingLog();
    const message = codeMessage(`0${phone.key}`);
    const before = standIn.requests.length;
    const sent = await twilioMessenger({ log }).send(message);

    const received = standIn.requests.slice(before);
    expect(received).toEqual([
      {
        method: "POST",
        path: `/2010-04-01/Accounts/${standIn.accountSid}/Messages.json`,
        auth: { username: standIn.accountSid, password: standIn.authToken },
        contentType: "application/x-www-form-urlencoded",
        form: { To: phone.e164, From: "LojaKwanza", Body: message.text },
        status: 201,
        code: null,
        sid: expect.stringMatching(/^SM[0-9a-f]{32}$/),
      },
    ]);
    expect(sent).toEqual({
      messageId: expect.any(String),
      provider: "twilio",
      providerId: received[0]!.sid,
      recipient: phone.key,
    });
    expect(await db().message.findUniqueOrThrow({ where: { id: sent.messageId } })).toMatchObject({
      recipient: phone.key,
      channel: "sms",
      purpose: "sign-in-code",
      body: "O seu código da loja: ••••••",
      provider: "twilio",
      providerId: received[0]!.sid,
      status: "sent",
    });
    expect(lines).toEqual([
      {
        level: "info",
        event: "messages.sent",
        fields: {
          messageId: sent.messageId,
          provider: "twilio",
          providerId: received[0]!.sid,
          channel: "sms",
          purpose: "sign-in-code",
        },
      },
    ]);
  });

  it("sends WhatsApp as whatsapp:+244… from the shop's WhatsApp sender", async () => {
    const phone = freshPhone();
    const message = codeMessage(phone.spaced, "whatsapp");
    const before = standIn.requests.length;
    const sent = await twilioMessenger().send(message);
    expect(standIn.requests.slice(before).map((request) => [request.status, request.form])).toEqual([
      [201, { To: `whatsapp:${phone.e164}`, From: `whatsapp:${WHATSAPP_FROM}`, Body: message.text }],
    ]);
    expect(await db().message.findUniqueOrThrow({ where: { id: sent.messageId } })).toMatchObject({
      recipient: phone.key,
      channel: "whatsapp",
      body: "O seu código da loja: ••••••",
      status: "sent",
    });
  });

  it("sends another country's number in E.164, and an SMS through a Messaging Service when that is the sender", async () => {
    const service = `MG${randomBytes(16).toString("hex")}`;
    const before = standIn.requests.length;
    const sent = await twilioMessenger({ smsFrom: null, messagingServiceSid: service }).send(
      codeMessage("+351 912 345 678"),
    );
    expect(sent.recipient).toBe("+351912345678");
    expect(standIn.requests.slice(before).map((request) => [request.status, request.form])).toEqual([
      [201, { To: "+351912345678", MessagingServiceSid: service, Body: expect.any(String) }],
    ]);
  });

  it("keeps a text without a secret as it is", async () => {
    const phone = freshPhone();
    const text = "A sua encomenda está a caminho.";
    const sent = await twilioMessenger().send({ to: phone.spaced, channel: "sms", purpose: "order-update", text });
    expect(await db().message.findUniqueOrThrow({ where: { id: sent.messageId } })).toMatchObject({ body: text });
  });

  it("on wrong credentials throws MessageNotSent (401, Twilio's 20003) and records a failed row, the token nowhere", async () => {
    const phone = freshPhone();
    const wrongToken = randomBytes(16).toString("hex");
    const { lines, log } = recordingLog();
    const message = codeMessage(phone.spaced);
    const before = standIn.requests.length;
    const error = await rejectionOf(twilioMessenger({ authToken: wrongToken, log }).send(message));

    expect(standIn.requests.slice(before).map((request) => [request.status, request.code])).toEqual([[401, 20003]]);
    expect(error).toBeInstanceOf(MessageNotSent);
    const notSent = error as MessageNotSent;
    expect(notSent).toMatchObject({ provider: "twilio", status: 401, code: 20003 });
    expect(notSent.message).toBe("twilio did not take the message (HTTP 401, error 20003)");
    const credentials = Buffer.from(`${standIn.accountSid}:${wrongToken}`).toString("base64");
    for (const secret of [wrongToken, credentials, message.secret, phone.key]) {
      expect(everythingOf(error)).not.toContain(secret);
      expect(JSON.stringify(lines)).not.toContain(secret);
    }

    expect(await db().message.findUniqueOrThrow({ where: { id: notSent.messageId } })).toMatchObject({
      recipient: phone.key,
      body: "O seu código da loja: ••••••",
      provider: "twilio",
      providerId: null,
      status: "failed",
    });
    expect(lines).toEqual([
      {
        level: "warn",
        event: "messages.failed",
        fields: {
          messageId: notSent.messageId,
          provider: "twilio",
          channel: "sms",
          purpose: "sign-in-code",
          status: 401,
          code: 20003,
        },
      },
    ]);
  });

  it("when Twilio refuses the number (400, 21211) says so without quoting the number Twilio's answer names", async () => {
    const message = codeMessage(TWILIO_INVALID_TO);
    const error = await rejectionOf(twilioMessenger().send(message));
    expect(error).toBeInstanceOf(MessageNotSent);
    expect(error).toMatchObject({ status: 400, code: 21211 });
    expect(everythingOf(error)).not.toContain("5005550001");
    expect(await db().message.findUniqueOrThrow({ where: { id: (error as MessageNotSent).messageId } })).toMatchObject({
      recipient: TWILIO_INVALID_TO,
      status: "failed",
    });
  });

  it("when the API cannot be reached throws MessageNotSent with the network error's code, and records a failed row", async () => {
    const phone = freshPhone();
    const error = await rejectionOf(
      twilioMessenger({ apiBaseUrl: "http://127.0.0.1:1" }).send(codeMessage(phone.spaced)),
    );
    expect(error).toBeInstanceOf(MessageNotSent);
    expect(error).toMatchObject({ status: null, code: "ECONNREFUSED" });
    expect(error.message).toBe("twilio could not be reached (ECONNREFUSED)");
    expect(everythingOf(error)).not.toContain(standIn.authToken);
    expect(await db().message.findMany({ where: { recipient: phone.key }, select: { status: true } })).toEqual([
      { status: "failed" },
    ]);
  });
});

describe("refused before anything is sent or stored", () => {
  it.each(["12345", "+0244923111222", "0244 923 456 789", "+244 923 45", "chamar a loja"])(
    "a recipient that is not one phone (%s): InvalidRecipient",
    async (to) => {
      const purpose = `refused-${randomBytes(4).toString("hex")}`;
      const before = standIn.requests.length;
      for (const messenger of [twilioMessenger(), createOutboxMessenger({ db: db(), log: () => {}, terminal: null })]) {
        const error = await rejectionOf(messenger.send({ to, channel: "sms", purpose, text: "Olá" }));
        expect(error).toBeInstanceOf(InvalidRecipient);
        expect(error.message).not.toContain(to);
      }
      expect(standIn.requests.length).toBe(before);
      expect(await db().message.count({ where: { purpose } })).toBe(0);
    },
  );

  it("WhatsApp without TWILIO_WHATSAPP_FROM, and SMS without a sender: MessagesNotConfigured naming the setting", async () => {
    const purpose = `no-sender-${randomBytes(4).toString("hex")}`;
    const before = standIn.requests.length;
    const phone = freshPhone();
    const whatsapp = await rejectionOf(
      twilioMessenger({ whatsappFrom: null }).send({ ...codeMessage(phone.spaced, "whatsapp"), purpose }),
    );
    expect(whatsapp).toBeInstanceOf(MessagesNotConfigured);
    expect(whatsapp).toMatchObject({ variable: "TWILIO_WHATSAPP_FROM" });
    const sms = await rejectionOf(twilioMessenger({ smsFrom: null }).send({ ...codeMessage(phone.spaced), purpose }));
    expect(sms).toMatchObject({ name: "MessagesNotConfigured", variable: "TWILIO_SMS_FROM" });
    expect(standIn.requests.length).toBe(before);
    expect(await db().message.count({ where: { purpose } })).toBe(0);
  });

  it("a secret that is not in the text as written (it would be stored in clear)", async () => {
    const purpose = `bad-secret-${randomBytes(4).toString("hex")}`;
    const before = standIn.requests.length;
    const send = twilioMessenger().send({
      to: freshPhone().spaced,
      channel: "sms",
      purpose,
      text: "O seu código da loja: 123 456",
      secret: "123456",
    });
    await expect(send).rejects.toThrow(/secret/);
    expect(standIn.requests.length).toBe(before);
    expect(await db().message.count({ where: { purpose } })).toBe(0);
  });
});

describe("the provider chosen by settings", () => {
  const env = (overrides: Record<string, string | undefined>) => parseEnv({ ...process.env, ...overrides });
  const twilioSettings = {
    MESSAGES_PROVIDER: "twilio",
    TWILIO_ACCOUNT_SID: `AC${"a".repeat(32)}`,
    TWILIO_AUTH_TOKEN: "token",
    TWILIO_SMS_FROM: "LojaKwanza",
  };

  it("is the outbox by default outside production, Twilio when MESSAGES_PROVIDER=twilio", () => {
    for (const NODE_ENV of ["test", "development"]) {
      const settings = env({ NODE_ENV, MESSAGES_PROVIDER: undefined }).messages;
      expect(createMessenger({ db: db(), settings }).provider).toBe("outbox");
    }
    const twilio = env({ NODE_ENV: "production", ...twilioSettings }).messages;
    expect(createMessenger({ db: db(), settings: twilio }).provider).toBe("twilio");
    const outbox = env({ NODE_ENV: "production", MESSAGES_PROVIDER: "outbox" }).messages;
    expect(createMessenger({ db: db(), settings: outbox }).provider).toBe("outbox");
  });

  it("in production without MESSAGES_PROVIDER refuses with MessagesNotConfigured naming the setting", () => {
    const settings = env({ NODE_ENV: "production", MESSAGES_PROVIDER: "" }).messages;
    expect(settings.provider).toBeNull();
    const error = (() => {
      try {
        createMessenger({ db: db(), settings });
      } catch (caught) {
        return caught as Error;
      }
      throw new Error("expected createMessenger to throw");
    })();
    expect(error).toBeInstanceOf(MessagesNotConfigured);
    expect(error).toMatchObject({ variable: "MESSAGES_PROVIDER" });
    expect(error.message).toMatch(/MESSAGES_PROVIDER is not set/);
    expect(error.message).toMatch(/MESSAGES_PROVIDER=twilio with TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN/);
    expect(error.message).toMatch(/MESSAGES_PROVIDER=outbox explicitly for staging and tests/);
  });
});

describe("the process's messenger (lib/env.ts's settings)", () => {
  /** lib/messages and lib/env as fresh modules, so they read the stubbed environment. */
  async function freshMessages(environment: Record<string, string>) {
    for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
    // lib/env.ts's warnings about these settings (tests/unit/env.test.ts reads them).
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.resetModules();
    return import("@/lib/messages");
  }

  it("with NODE_ENV=production and no MESSAGES_PROVIDER: messenger() and sendMessage refuse, nothing stored", async () => {
    const phone = freshPhone();
    const messages = await freshMessages({ NODE_ENV: "production", MESSAGES_PROVIDER: "" });
    expect(() => messages.messenger()).toThrow(messages.MessagesNotConfigured);
    const error = await rejectionOf(messages.sendMessage(codeMessage(phone.spaced)));
    expect(error).toBeInstanceOf(messages.MessagesNotConfigured);
    expect(error.message).toContain("MESSAGES_PROVIDER");
    expect(await db().message.count({ where: { recipient: phone.key } })).toBe(0);
  });

  it("with NODE_ENV=production and MESSAGES_PROVIDER=outbox set explicitly: stored, never printed", async () => {
    const phone = freshPhone();
    const printed = vi.spyOn(console, "log").mockImplementation(() => {});
    const messages = await freshMessages({ NODE_ENV: "production", MESSAGES_PROVIDER: "outbox" });
    const message = codeMessage(phone.spaced);
    const sent = await messages.sendMessage(message);
    expect(sent).toMatchObject({ provider: "outbox", recipient: phone.key });
    expect(await db().message.findUniqueOrThrow({ where: { id: sent.messageId } })).toMatchObject({
      body: message.text,
    });
    expect(printed.mock.calls.flat().join("\n")).not.toContain(message.secret);
    expect(messages.messenger()).toBe(messages.messenger());
  });

  it("with MESSAGES_PROVIDER=twilio and TWILIO_API_BASE_URL: sends through the stand-in, on MESSAGES_CHANNEL", async () => {
    const phone = freshPhone();
    const messages = await freshMessages({
      MESSAGES_PROVIDER: "twilio",
      MESSAGES_CHANNEL: "whatsapp",
      TWILIO_ACCOUNT_SID: standIn.accountSid,
      TWILIO_AUTH_TOKEN: standIn.authToken,
      TWILIO_SMS_FROM: "",
      TWILIO_WHATSAPP_FROM: "+244 923 000 999",
      TWILIO_API_BASE_URL: `${standIn.url}/`,
    });
    vi.spyOn(console, "log").mockImplementation(() => {});
    expect(messages.defaultChannel()).toBe("whatsapp");
    const before = standIn.requests.length;
    const sent = await messages.sendMessage(codeMessage(phone.spaced, messages.defaultChannel()));
    expect(sent.provider).toBe("twilio");
    expect(
      standIn.requests.slice(before).map((request) => [request.status, request.form.To, request.form.From]),
    ).toEqual([[201, `whatsapp:${phone.e164}`, `whatsapp:${WHATSAPP_FROM}`]]);
  });
});

describe("the stand-in, as strict as Twilio", () => {
  /** A POST of `form` to the stand-in's Messages.json, as Twilio's API takes it. */
  async function post(form: Record<string, string>, options: { token?: string; accountSid?: string } = {}) {
    const accountSid = options.accountSid ?? standIn.accountSid;
    const response = await fetch(`${standIn.url}/2010-04-01/Accounts/${accountSid}/Messages.json`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${standIn.accountSid}:${options.token ?? standIn.authToken}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(form),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it.each([
    ["no To", { From: "LojaKwanza", Body: "Olá" }, 21604],
    ["neither From nor MessagingServiceSid", { To: "+244923111222", Body: "Olá" }, 21603],
    ["no Body", { To: "+244923111222", From: "LojaKwanza" }, 21602],
    ["a To that is not E.164", { To: "923111222", From: "LojaKwanza", Body: "Olá" }, 21211],
    ["a From that is no sender", { To: "+244923111222", From: "Loja Kwanza Lda", Body: "Olá" }, 21212],
    ["a WhatsApp To from an SMS sender", { To: "whatsapp:+244923111222", From: "LojaKwanza", Body: "Olá" }, 21910],
    ["an SMS To from a WhatsApp sender", { To: "+244923111222", From: "whatsapp:+244923000999", Body: "Olá" }, 21910],
  ])("answers 400 for %s, in Twilio's error shape", async (_case, form, code) => {
    expect(await post(form)).toEqual({
      status: 400,
      body: { code, message: expect.any(String), more_info: `https://www.twilio.com/docs/errors/${code}`, status: 400 },
    });
  });

  it("answers 401 (20003) to a wrong token, 404 (20404) for another account, 201 with a queued message otherwise", async () => {
    const form = { To: "+244923111222", From: "LojaKwanza", Body: "Olá" };
    expect(await post(form, { token: "wrong" })).toMatchObject({ status: 401, body: { code: 20003, status: 401 } });
    expect(await post(form, { accountSid: `AC${"0".repeat(32)}` })).toMatchObject({
      status: 404,
      body: { code: 20404 },
    });
    expect(await post(form)).toEqual({
      status: 201,
      body: expect.objectContaining({
        sid: expect.stringMatching(/^SM[0-9a-f]{32}$/),
        account_sid: standIn.accountSid,
        status: "queued",
        to: "+244923111222",
        from: "LojaKwanza",
        body: "Olá",
        direction: "outbound-api",
        error_code: null,
      }),
    });
  });
});
