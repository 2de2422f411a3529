import { describe, expect, it } from "vitest";
import { DEVELOPMENT_AUTH_SECRET, EnvError, getDatabaseEnv, parseEnv } from "@/lib/env";

const valid = {
  PAY_PUBLISHABLE_KEY: "pk_test_3f2b8c1e-5d4a-4f6b-9c2d-1a2b3c4d5e6f",
  PAY_CLIENT_ID: "client-123",
  PAY_CLIENT_SECRET: "super-secret-client-value",
  PAY_WEBHOOK_SECRET: "super-secret-webhook-value",
  PAY_API_BASE_URL: "http://127.0.0.1:4010/",
  PAY_SDK_URL: "http://127.0.0.1:4010/sdks/v1/pay.js",
  DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/shop",
};

function problemsOf(source: Record<string, string | undefined>) {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return { problems: (error as EnvError).problems, message: (error as EnvError).message };
  }
  throw new Error("expected parseEnv to throw");
}

describe("parseEnv", () => {
  it("derives the mode and applicationUUID from the publishable key", () => {
    const env = parseEnv(valid);
    expect(env.pay.mode).toBe("sandbox");
    expect(env.pay.applicationUUID).toBe("3f2b8c1e-5d4a-4f6b-9c2d-1a2b3c4d5e6f");
    expect(env.pay.apiBaseUrl).toBe("http://127.0.0.1:4010");
    expect(env.pay.lang).toBe("pt");
    expect(env.appUrl).toBe("http://localhost:3000");
    expect(env.databasePoolMax).toBe(10);

    const live = parseEnv({
      ...valid,
      PAY_PUBLISHABLE_KEY: "pk_live_abc",
      PAY_API_BASE_URL: "https://api.example.test",
      PAY_SDK_URL: "https://cdn.example.test/sdks/v1/pay.js",
    });
    expect(live.pay.mode).toBe("production");
    expect(live.pay.applicationUUID).toBe("abc");
  });

  it("caps what one client may hold: 10 units a line, 50 an order, 10 open orders an address, by default", () => {
    expect(parseEnv(valid).orders).toMatchObject({
      maxOpenPerShopper: 3,
      maxOpenPerAddress: 10,
      units: { perLine: 10, perOrder: 50 },
    });
    const set = parseEnv({
      ...valid,
      MAX_OPEN_ORDERS_PER_ADDRESS: "0",
      MAX_UNITS_PER_LINE: "99",
      MAX_UNITS_PER_ORDER: "200",
    });
    expect(set.orders).toMatchObject({ maxOpenPerAddress: 0, units: { perLine: 99, perOrder: 200 } });
    // A line of 0 units could never be bought; more than a request may name could never be asked for.
    expect(problemsOf({ ...valid, MAX_UNITS_PER_LINE: "0" }).problems.map((p) => p.variable)).toEqual([
      "MAX_UNITS_PER_LINE",
    ]);
    expect(problemsOf({ ...valid, MAX_UNITS_PER_LINE: "10000" }).problems.map((p) => p.variable)).toEqual([
      "MAX_UNITS_PER_LINE",
    ]);
  });

  it("answers the webhook within 4 s by default, and never lets the deadline reach the service's 5 s", () => {
    expect(parseEnv(valid).pay.webhookDeadlineMs).toBe(4_000);
    expect(parseEnv({ ...valid, PAY_WEBHOOK_DEADLINE_MS: "2500" }).pay.webhookDeadlineMs).toBe(2_500);
    expect(problemsOf({ ...valid, PAY_WEBHOOK_DEADLINE_MS: "5000" }).problems).toEqual([
      { variable: "PAY_WEBHOOK_DEADLINE_MS", message: "must be at most 4800: the service waits 5 s for an answer" },
    ]);
    expect(problemsOf({ ...valid, PAY_WEBHOOK_DEADLINE_MS: "100" }).problems.map((p) => p.variable)).toEqual([
      "PAY_WEBHOOK_DEADLINE_MS",
    ]);
  });

  it("treats empty optional variables as unset, like .env.example leaves them", () => {
    const env = parseEnv({ ...valid, PAY_LANG: "", APP_URL: "", DATABASE_POOL_MAX: "" });
    expect(env.pay.lang).toBe("pt");
    expect(env.appUrl).toBe("http://localhost:3000");
  });

  describe("SHOP_WHATSAPP", () => {
    it("is off when unset or empty", () => {
      expect(parseEnv(valid).shop.whatsapp).toBeNull();
      expect(parseEnv({ ...valid, SHOP_WHATSAPP: "" }).shop.whatsapp).toBeNull();
    });

    it.each([
      ["+244 923 456 789", "244923456789"],
      ["244-923-456-789", "244923456789"],
      ["+351912345678", "351912345678"],
    ])("keeps the digits of %s", (value, digits) => {
      expect(parseEnv({ ...valid, SHOP_WHATSAPP: value }).shop.whatsapp).toBe(digits);
    });

    it.each([
      "12 34 56",
      "+244 923 456 789 0123",
      "00244923456789",
      "0923456789",
      "+244923456789x",
      "+ 244",
      "wa.me/244923456789",
    ])("refuses %s, naming the variable and not the value", (value) => {
      const { problems, message } = problemsOf({ ...valid, SHOP_WHATSAPP: value });
      expect(problems.map((p) => p.variable)).toEqual(["SHOP_WHATSAPP"]);
      expect(message).not.toContain(value);
    });
  });

  describe("the seller on a receipt: SHOP_LEGAL_NAME, SHOP_NIF, SHOP_ADDRESS", () => {
    it("leaves each out when unset or empty", () => {
      const empty = { SHOP_LEGAL_NAME: "", SHOP_NIF: "", SHOP_ADDRESS: "" };
      for (const source of [valid, { ...valid, ...empty }]) {
        const { shop } = parseEnv(source);
        expect([shop.legalName, shop.nif, shop.address]).toEqual([null, null, null]);
      }
    });

    it("keeps them, the NIF normalised as the checkout stores a buyer's", () => {
      const { shop } = parseEnv({
        ...valid,
        SHOP_LEGAL_NAME: " Loja Kwanza, Lda ",
        SHOP_NIF: "500 002 85 50",
        SHOP_ADDRESS: "Rua Rainha Ginga 12\nLuanda",
      });
      expect(shop).toMatchObject({
        legalName: "Loja Kwanza, Lda",
        nif: "5000028550",
        address: "Rua Rainha Ginga 12\nLuanda",
      });
      expect(parseEnv({ ...valid, SHOP_NIF: "001234567la042" }).shop.nif).toBe("001234567LA042");
    });

    it.each(["9876", "500002855", "50000285501", "001234567LA42", "ABC1234567"])(
      "refuses the SHOP_NIF %s, naming the variable and not the value",
      (value) => {
        const { problems, message } = problemsOf({ ...valid, SHOP_NIF: value });
        expect(problems.map((p) => p.variable)).toEqual(["SHOP_NIF"]);
        expect(message).not.toContain(value);
      },
    );
  });

  it.each(Object.keys(valid))("names %s when it is missing", (variable) => {
    const { problems } = problemsOf({ ...valid, [variable]: undefined });
    expect(problems.map((p) => p.variable)).toEqual([variable]);
  });

  it("names every bad variable at once", () => {
    const { problems } = problemsOf({
      ...valid,
      PAY_CLIENT_ID: "",
      PAY_LANG: "portuguese!",
      DATABASE_URL: "mysql://x",
    });
    expect(problems.map((p) => p.variable).sort()).toEqual(["DATABASE_URL", "PAY_CLIENT_ID", "PAY_LANG"]);
  });

  it.each([
    ["sk_test_abc", "a secret key"],
    ["pk_test_", "an empty application id"],
    ["pk_prod_abc", "an unknown prefix"],
    ["pk_test_abc def", "whitespace"],
  ])("refuses the publishable key %s (%s)", (key) => {
    expect(problemsOf({ ...valid, PAY_PUBLISHABLE_KEY: key }).problems[0]?.variable).toBe("PAY_PUBLISHABLE_KEY");
  });

  it("refuses an SDK address outside sdks/v1/ and non-http URLs", () => {
    expect(problemsOf({ ...valid, PAY_SDK_URL: "http://127.0.0.1:4010/pay.js" }).problems[0]?.variable).toBe(
      "PAY_SDK_URL",
    );
    expect(problemsOf({ ...valid, PAY_API_BASE_URL: "ftp://x" }).problems[0]?.variable).toBe("PAY_API_BASE_URL");
    expect(problemsOf({ ...valid, APP_URL: "localhost:3000" }).problems[0]?.variable).toBe("APP_URL");
  });

  it("refuses a pk_live_ key with a non-https API or SDK address, naming each", () => {
    const { problems, message } = problemsOf({ ...valid, PAY_PUBLISHABLE_KEY: "pk_live_abc" });
    expect(problems.map((p) => p.variable).sort()).toEqual(["PAY_API_BASE_URL", "PAY_SDK_URL"]);
    expect(message).toMatch(/https/);
  });

  it("reports the https rule together with every other problem", () => {
    const { problems } = problemsOf({ ...valid, PAY_PUBLISHABLE_KEY: "pk_live_abc", PAY_WEBHOOK_SECRET: undefined });
    expect(problems.map((p) => p.variable).sort()).toEqual(["PAY_API_BASE_URL", "PAY_SDK_URL", "PAY_WEBHOOK_SECRET"]);
  });

  describe("plain http to another machine", () => {
    const loopbackRule = "must use https:// unless it points at this machine (localhost, 127.0.0.1, ::1)";

    it.each([
      ["PAY_API_BASE_URL", "http://pay-sandbox.example.test:4010"],
      ["PAY_SDK_URL", "http://cdn.example.test/sdks/v1/pay.js"],
      ["PAY_API_BASE_URL", "http://10.0.0.7:4010"],
      ["PAY_API_BASE_URL", "http://[::2]:4010"],
      ["PAY_API_BASE_URL", "http://localhost.example.test"],
      ["PAY_API_BASE_URL", "http://localhost@attacker.example.test"],
      ["PAY_API_BASE_URL", "http://128.0.0.1:4010"],
    ])("refuses %s %s even with a pk_test_ key, naming it but not its value", (variable, value) => {
      const { problems, message } = problemsOf({ ...valid, [variable]: value });
      expect(problems).toEqual([{ variable, message: loopbackRule }]);
      expect(message).toContain(`${variable} ${loopbackRule}`);
      expect(message).not.toContain(new URL(value).host);
    });

    it.each([
      "http://localhost:4010",
      "http://LOCALHOST:4010",
      "http://pay.localhost:4010",
      "http://127.0.0.1:4010",
      "http://127.12.34.56:4010",
      "http://127.1:4010",
      "http://[::1]:4010",
      "http://[0:0:0:0:0:0:0:1]:4010",
    ])("accepts %s, on this machine, with a pk_test_ key", (base) => {
      const env = parseEnv({ ...valid, PAY_API_BASE_URL: base, PAY_SDK_URL: `${base}/sdks/v1/pay.js` });
      expect(env.pay.apiBaseUrl).toBe(base);
    });

    it("accepts https addresses anywhere, with either key", () => {
      const https = {
        ...valid,
        PAY_API_BASE_URL: "https://api.example.test",
        PAY_SDK_URL: "https://cdn.example.test/sdks/v1/pay.js",
      };
      expect(parseEnv(https).pay.apiBaseUrl).toBe("https://api.example.test");
      expect(parseEnv({ ...https, PAY_PUBLISHABLE_KEY: "pk_live_abc" }).pay.mode).toBe("production");
    });

    it("refuses http even to this machine with a pk_live_ key, naming the live-key rule once per variable", () => {
      const { problems } = problemsOf({
        ...valid,
        PAY_PUBLISHABLE_KEY: "pk_live_abc",
        PAY_API_BASE_URL: "http://localhost:4010",
        PAY_SDK_URL: "http://remote.example.test/sdks/v1/pay.js",
      });
      expect(problems).toEqual([
        { variable: "PAY_API_BASE_URL", message: expect.stringContaining("with a pk_live_ key") },
        { variable: "PAY_SDK_URL", message: expect.stringContaining("with a pk_live_ key") },
      ]);
    });

    it("leaves a malformed address to the schema's own message", () => {
      const { problems } = problemsOf({ ...valid, PAY_PUBLISHABLE_KEY: "pk_live_abc", PAY_API_BASE_URL: "ftp://x" });
      expect(problems.filter((p) => p.variable === "PAY_API_BASE_URL")).toEqual([
        { variable: "PAY_API_BASE_URL", message: "must be an absolute http(s) URL" },
      ]);
    });
  });

  describe("APP_URL with NODE_ENV=production", () => {
    const production = { ...valid, NODE_ENV: "production" };

    it("refuses http to another machine, naming APP_URL but not its value", () => {
      const { problems, message } = problemsOf({ ...production, APP_URL: "http://shop.example.test" });
      expect(problems).toEqual([
        {
          variable: "APP_URL",
          message:
            "must use https:// in production (NODE_ENV=production) unless it points at this machine (localhost, 127.0.0.1, ::1)",
        },
      ]);
      expect(message).not.toContain("shop.example.test");
    });

    it("accepts https, loopback http (the e2e server and benchmarks) and the localhost default", () => {
      expect(parseEnv({ ...production, APP_URL: "https://shop.example.test/" }).appUrl).toBe(
        "https://shop.example.test",
      );
      expect(parseEnv({ ...production, APP_URL: "http://127.0.0.1:3100" }).appUrl).toBe("http://127.0.0.1:3100");
      expect(parseEnv(production).appUrl).toBe("http://localhost:3000");
    });

    it("does not apply outside production", () => {
      for (const NODE_ENV of [undefined, "development", "test"]) {
        expect(parseEnv({ ...valid, NODE_ENV, APP_URL: "http://192.168.1.20:3000" }).appUrl).toBe(
          "http://192.168.1.20:3000",
        );
      }
    });
  });

  describe("APP_URL on Vercel", () => {
    const vercel = {
      ...valid,
      NODE_ENV: "production",
      VERCEL: "1",
      VERCEL_PROJECT_PRODUCTION_URL: "loja.example.test",
    };

    it("defaults to https:// plus VERCEL_PROJECT_PRODUCTION_URL when APP_URL is unset or empty", () => {
      expect(parseEnv(vercel).appUrl).toBe("https://loja.example.test");
      expect(parseEnv({ ...vercel, APP_URL: "" }).appUrl).toBe("https://loja.example.test");
      expect(parseEnv(vercel).clientAddress.onVercel).toBe(true);
    });

    it("keeps an APP_URL that is set", () => {
      expect(parseEnv({ ...vercel, APP_URL: "https://www.loja.example.test" }).appUrl).toBe(
        "https://www.loja.example.test",
      );
    });

    it("needs VERCEL=1 and the production domain", () => {
      expect(parseEnv({ ...vercel, VERCEL: undefined }).appUrl).toBe("http://localhost:3000");
      expect(parseEnv({ ...vercel, VERCEL_PROJECT_PRODUCTION_URL: "" }).appUrl).toBe("http://localhost:3000");
    });

    it("refuses a production domain that is not a bare host name, without printing it", () => {
      const { problems, message } = problemsOf({
        ...vercel,
        VERCEL_PROJECT_PRODUCTION_URL: "https://loja.example.test/x",
      });
      expect(problems.map((p) => p.variable)).toEqual(["VERCEL_PROJECT_PRODUCTION_URL"]);
      expect(message).not.toContain("loja.example.test");
    });
  });

  it("never puts a value in the error message", () => {
    const secrets = {
      ...valid,
      PAY_PUBLISHABLE_KEY: "pk_live_do-not-print-me",
      PAY_CLIENT_SECRET: "",
      PAY_WEBHOOK_SECRET: undefined,
      DATABASE_URL: "postgres://user:hunter2-password@db/x y",
    };
    const { message } = problemsOf(secrets);
    for (const value of ["do-not-print-me", "hunter2-password", valid.PAY_CLIENT_ID]) {
      expect(message).not.toContain(value);
    }
    expect(message).toContain("PAY_CLIENT_SECRET");
    expect(message).toContain("PAY_WEBHOOK_SECRET");
  });

  it.each([
    ["PAY_WEBHOOK_SECRET", " "],
    ["PAY_WEBHOOK_SECRET", "\t\n "],
    ["PAY_CLIENT_SECRET", "  "],
    ["PAY_CLIENT_SECRET", "\r\n"],
  ])("refuses %s of only whitespace (%j), naming it", (variable, value) => {
    const { problems, message } = problemsOf({ ...valid, [variable]: value });
    expect(problems).toEqual([{ variable, message: expect.stringMatching(/^is empty/) }]);
    expect(message).toContain(`${variable} is empty`);
  });

  it("keeps a webhook secret's whitespace and warns about it", () => {
    const env = parseEnv({ ...valid, PAY_WEBHOOK_SECRET: " padded-secret\n" });
    expect(env.pay.webhookSecret).toBe(" padded-secret\n");
    expect(env.warnings.join()).toMatch(/PAY_WEBHOOK_SECRET.*whitespace/);
    expect(env.warnings.join()).not.toContain("padded-secret");
    expect(parseEnv(valid).warnings).toEqual([]);
  });

  describe("messages: MESSAGES_PROVIDER, MESSAGES_CHANNEL and Twilio's settings", () => {
    const sid = `AC${"0123456789abcdef".repeat(2)}`;
    const twilio = {
      MESSAGES_PROVIDER: "twilio",
      TWILIO_ACCOUNT_SID: sid,
      TWILIO_AUTH_TOKEN: "twilio-auth-token-do-not-print",
      TWILIO_SMS_FROM: "LojaKwanza",
    };

    it("is the outbox by default outside production, codes by SMS", () => {
      for (const NODE_ENV of [undefined, "development", "test"]) {
        expect(parseEnv({ ...valid, NODE_ENV }).messages).toEqual({ provider: "outbox", channel: "sms", twilio: null });
      }
      expect(parseEnv({ ...valid, MESSAGES_PROVIDER: "", MESSAGES_CHANNEL: "" }).messages.provider).toBe("outbox");
    });

    it("in production without MESSAGES_PROVIDER starts, with no provider and a warning that names it", () => {
      const env = parseEnv({ ...valid, NODE_ENV: "production" });
      expect(env.messages.provider).toBeNull();
      expect(env.warnings.join()).toMatch(/MESSAGES_PROVIDER is unset/);
      expect(parseEnv({ ...valid, NODE_ENV: "production", MESSAGES_PROVIDER: "" }).messages.provider).toBeNull();
      // The outbox only when asked for, and then said to be one.
      const outbox = parseEnv({ ...valid, NODE_ENV: "production", MESSAGES_PROVIDER: "outbox" });
      expect(outbox.messages.provider).toBe("outbox");
      expect(outbox.warnings.join()).toMatch(/MESSAGES_PROVIDER=outbox/);
    });

    it("takes Twilio's settings with MESSAGES_PROVIDER=twilio", () => {
      expect(
        parseEnv({
          ...valid,
          ...twilio,
          MESSAGES_CHANNEL: "whatsapp",
          TWILIO_WHATSAPP_FROM: "whatsapp:+244 923 000 999",
          TWILIO_API_BASE_URL: "https://api.twilio.example.test/",
        }).messages,
      ).toEqual({
        provider: "twilio",
        channel: "whatsapp",
        twilio: {
          accountSid: sid,
          authToken: twilio.TWILIO_AUTH_TOKEN,
          smsFrom: "LojaKwanza",
          messagingServiceSid: null,
          whatsappFrom: "+244923000999",
          apiBaseUrl: "https://api.twilio.example.test",
        },
      });
      expect(parseEnv({ ...valid, ...twilio, TWILIO_SMS_FROM: "+244 923 000 999" }).messages.twilio?.smsFrom).toBe(
        "+244923000999",
      );
      const service = `MG${"ab".repeat(16)}`;
      expect(parseEnv({ ...valid, ...twilio, TWILIO_SMS_FROM: service }).messages.twilio).toMatchObject({
        smsFrom: null,
        messagingServiceSid: service,
      });
      // Twilio's settings are not read for the outbox.
      expect(parseEnv({ ...valid, ...twilio, MESSAGES_PROVIDER: "outbox" }).messages.twilio).toBeNull();
    });

    it("needs the SID, the token and the default channel's sender with MESSAGES_PROVIDER=twilio, naming each", () => {
      expect(problemsOf({ ...valid, MESSAGES_PROVIDER: "twilio" }).problems).toEqual([
        { variable: "TWILIO_ACCOUNT_SID", message: expect.stringMatching(/required when MESSAGES_PROVIDER=twilio/) },
        { variable: "TWILIO_AUTH_TOKEN", message: expect.stringMatching(/required when MESSAGES_PROVIDER=twilio/) },
        { variable: "TWILIO_SMS_FROM", message: expect.stringMatching(/required when MESSAGES_PROVIDER=twilio/) },
      ]);
      expect(problemsOf({ ...valid, ...twilio, TWILIO_AUTH_TOKEN: " " }).problems.map((p) => p.variable)).toEqual([
        "TWILIO_AUTH_TOKEN",
      ]);
      // Codes by WhatsApp need the WhatsApp sender, and then no SMS one.
      expect(problemsOf({ ...valid, ...twilio, TWILIO_SMS_FROM: "", MESSAGES_CHANNEL: "whatsapp" }).problems).toEqual([
        { variable: "TWILIO_WHATSAPP_FROM", message: expect.stringMatching(/MESSAGES_CHANNEL=whatsapp/) },
      ]);
      expect(
        parseEnv({
          ...valid,
          ...twilio,
          TWILIO_SMS_FROM: "",
          MESSAGES_CHANNEL: "whatsapp",
          TWILIO_WHATSAPP_FROM: "+244923000999",
        }).messages.twilio,
      ).toMatchObject({ smsFrom: null, whatsappFrom: "+244923000999" });
    });

    it.each([
      ["MESSAGES_PROVIDER", "sms"],
      ["MESSAGES_PROVIDER", "Twilio"],
      ["MESSAGES_CHANNEL", "email"],
      ["TWILIO_ACCOUNT_SID", "SK0123456789abcdef0123456789abcdef"],
      ["TWILIO_ACCOUNT_SID", "AC123"],
      ["TWILIO_SMS_FROM", "Loja Kwanza Lda"],
      ["TWILIO_SMS_FROM", "12345678"],
      ["TWILIO_SMS_FROM", "+0244923000999"],
      ["TWILIO_WHATSAPP_FROM", "923000999"],
      ["TWILIO_API_BASE_URL", "api.twilio.com"],
    ])("refuses %s=%s, naming the variable and not the value", (variable, value) => {
      const { problems, message } = problemsOf({ ...valid, ...twilio, [variable]: value });
      expect(problems.map((p) => p.variable)).toEqual([variable]);
      expect(message).not.toContain(value);
    });

    it("wants Twilio's API over https unless it is on this machine", () => {
      const { problems, message } = problemsOf({
        ...valid,
        ...twilio,
        TWILIO_API_BASE_URL: "http://twilio-proxy.example.test",
      });
      expect(problems).toEqual([
        {
          variable: "TWILIO_API_BASE_URL",
          message: "must use https:// unless it points at this machine (localhost, 127.0.0.1, ::1)",
        },
      ]);
      expect(message).not.toContain("twilio-proxy");
      expect(
        parseEnv({ ...valid, ...twilio, TWILIO_API_BASE_URL: "http://127.0.0.1:4020" }).messages.twilio,
      ).toMatchObject({ apiBaseUrl: "http://127.0.0.1:4020" });
    });

    it("never puts the auth token in an error message", () => {
      const { message } = problemsOf({ ...valid, ...twilio, TWILIO_ACCOUNT_SID: "wrong", MESSAGES_CHANNEL: "fax" });
      expect(message).not.toContain(twilio.TWILIO_AUTH_TOKEN);
    });
  });

  describe("shoppers' accounts: BETTER_AUTH_SECRET and the limits on sign-in codes", () => {
    const secret = "k".repeat(32);
    const production = {
      ...valid,
      NODE_ENV: "production",
      APP_URL: "https://loja.example.ao",
      MESSAGES_PROVIDER: "outbox",
    };

    it("signs sessions with BETTER_AUTH_SECRET, and with a fixed key of its own outside production", () => {
      expect(parseEnv({ ...valid, BETTER_AUTH_SECRET: secret }).accounts?.secret).toBe(secret);
      expect(parseEnv(valid).accounts?.secret).toBe(DEVELOPMENT_AUTH_SECRET);
      expect(parseEnv({ ...valid, BETTER_AUTH_SECRET: "" }).accounts?.secret).toBe(DEVELOPMENT_AUTH_SECRET);
    });

    it("turns accounts off in production without it, says so, and starts", () => {
      const env = parseEnv(production);
      expect(env.accounts).toBeUndefined();
      expect(env.warnings.join()).toMatch(/BETTER_AUTH_SECRET is unset/);
      const on = parseEnv({ ...production, BETTER_AUTH_SECRET: secret });
      expect(on.accounts?.secret).toBe(secret);
      expect(on.warnings.join()).not.toContain(secret);
    });

    it("refuses a short key, without quoting it", () => {
      const { problems, message } = problemsOf({ ...valid, BETTER_AUTH_SECRET: "short-key" });
      expect(problems).toEqual([{ variable: "BETTER_AUTH_SECRET", message: expect.stringMatching(/32/) }]);
      expect(message).not.toContain("short-key");
    });

    it("limits codes per phone, per address and requests per minute, each 0 to turn it off", () => {
      expect(parseEnv(valid).accounts).toMatchObject({
        codesPerPhonePerHour: 5,
        codesPerAddressPerHour: 60,
        requestsPerMinute: 30,
      });
      const off = parseEnv({
        ...valid,
        SIGN_IN_CODES_PER_PHONE_PER_HOUR: "0",
        SIGN_IN_CODES_PER_ADDRESS_PER_HOUR: "0",
        RATE_LIMIT_SIGN_IN_PER_MINUTE: "0",
      });
      expect(off.accounts).toMatchObject({ codesPerPhonePerHour: 0, codesPerAddressPerHour: 0, requestsPerMinute: 0 });
      expect(problemsOf({ ...valid, SIGN_IN_CODES_PER_PHONE_PER_HOUR: "-1" }).problems[0]?.variable).toBe(
        "SIGN_IN_CODES_PER_PHONE_PER_HOUR",
      );
    });
  });

  describe("the back office", () => {
    const secret = "s".repeat(32);

    it("is off without ADMIN_PASSWORD (unset or empty), and sign-ins are limited to 5 a minute by default", () => {
      expect(parseEnv(valid).admin).toBeUndefined();
      expect(parseEnv({ ...valid, ADMIN_PASSWORD: "", ADMIN_SESSION_SECRET: "" }).admin).toBeUndefined();
      expect(parseEnv({ ...valid, ADMIN_SESSION_SECRET: secret }).admin).toBeUndefined();
      expect(parseEnv(valid).rateLimits.adminSignInPerMinute).toBe(5);
      expect(parseEnv({ ...valid, RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE: "0" }).rateLimits.adminSignInPerMinute).toBe(0);
      expect(problemsOf({ ...valid, RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE: "-1" }).problems[0]?.variable).toBe(
        "RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE",
      );
    });

    it("caps sign-ins from all addresses together at 30 a minute by default, 0 turning the cap off", () => {
      expect(parseEnv(valid).rateLimits.adminSignInShopPerMinute).toBe(30);
      const off = parseEnv({ ...valid, RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE: "0" });
      expect(off.rateLimits.adminSignInShopPerMinute).toBe(0);
      expect(
        parseEnv({ ...valid, RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE: "" }).rateLimits.adminSignInShopPerMinute,
      ).toBe(30);
      expect(problemsOf({ ...valid, RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE: "-1" }).problems[0]?.variable).toBe(
        "RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE",
      );
    });

    it("is on with a password and a session secret, each used exactly as written", () => {
      const env = parseEnv({ ...valid, ADMIN_PASSWORD: " short pw ", ADMIN_SESSION_SECRET: secret });
      expect(env.admin).toEqual({ password: " short pw ", sessionSecret: secret, ownerEmail: "owner@shop.example" });
    });

    it("names the owner made from ADMIN_PASSWORD by ADMIN_EMAIL: owner@shop.example by default, lower-cased, an e-mail or refused", () => {
      const on = { ...valid, ADMIN_PASSWORD: "a-long-enough-password", ADMIN_SESSION_SECRET: secret };
      expect(parseEnv(on).admin?.ownerEmail).toBe("owner@shop.example");
      expect(parseEnv({ ...on, ADMIN_EMAIL: "" }).admin?.ownerEmail).toBe("owner@shop.example");
      expect(parseEnv({ ...on, ADMIN_EMAIL: "  Dona.Ana@Loja.AO " }).admin?.ownerEmail).toBe("dona.ana@loja.ao");
      for (const notAnEmail of ["dona", "dona@", "@loja.ao", "dona ana@loja.ao", "dona@loja"]) {
        const { problems, message } = problemsOf({ ...on, ADMIN_EMAIL: notAnEmail });
        expect(problems, notAnEmail).toEqual([{ variable: "ADMIN_EMAIL", message: "must be an e-mail address" }]);
        expect(message).toContain("ADMIN_EMAIL");
        expect(message).not.toContain(notAnEmail);
      }
    });

    it("needs ADMIN_SESSION_SECRET with a password, of 32 characters or more", () => {
      const missing = problemsOf({ ...valid, ADMIN_PASSWORD: "a-long-enough-password" });
      expect(missing.problems).toEqual([
        { variable: "ADMIN_SESSION_SECRET", message: expect.stringMatching(/required when ADMIN_PASSWORD is set/) },
      ]);
      const short = problemsOf({ ...valid, ADMIN_PASSWORD: "pw", ADMIN_SESSION_SECRET: "x".repeat(31) });
      expect(short.problems).toEqual([{ variable: "ADMIN_SESSION_SECRET", message: expect.stringMatching(/32/) }]);
      expect(short.message).not.toContain("x".repeat(31));
    });

    it("refuses a password under 12 characters in production, naming the variable and not the value", () => {
      const production = { ...valid, NODE_ENV: "production", ADMIN_SESSION_SECRET: secret };
      const { problems, message } = problemsOf({ ...production, ADMIN_PASSWORD: "elevenchars" });
      expect(problems).toEqual([{ variable: "ADMIN_PASSWORD", message: expect.stringMatching(/at least 12/) }]);
      expect(message).not.toContain("elevenchars");
      expect(parseEnv({ ...production, ADMIN_PASSWORD: "twelve-chars" }).admin?.password).toBe("twelve-chars");
      // Outside production a short password is the developer's choice.
      expect(parseEnv({ ...valid, ADMIN_PASSWORD: "dev", ADMIN_SESSION_SECRET: secret }).admin?.password).toBe("dev");
    });
  });
});

describe("getDatabaseEnv", () => {
  it("needs only the database variables", () => {
    expect(getDatabaseEnv({ DATABASE_URL: valid.DATABASE_URL, DATABASE_POOL_MAX: "3" })).toEqual({
      databaseUrl: valid.DATABASE_URL,
      databasePoolMax: 3,
      acquireTimeoutMs: 5_000,
      lockTimeoutMs: 5_000,
      statementTimeoutMs: 30_000,
      onVercel: false,
    });
    expect(() => getDatabaseEnv({})).toThrow(/DATABASE_URL is missing/);
    expect(() => getDatabaseEnv({ DATABASE_URL: valid.DATABASE_URL, DATABASE_POOL_MAX: "many" })).toThrow(
      /DATABASE_POOL_MAX/,
    );
  });

  it("bounds every wait of the database: for a connection, a lock, a statement (0 turns the last two off)", () => {
    const base = { DATABASE_URL: valid.DATABASE_URL };
    expect(
      getDatabaseEnv({
        ...base,
        DATABASE_ACQUIRE_TIMEOUT_MS: "2000",
        DATABASE_LOCK_TIMEOUT_MS: "0",
        DATABASE_STATEMENT_TIMEOUT_MS: "0",
      }),
    ).toMatchObject({ acquireTimeoutMs: 2_000, lockTimeoutMs: 0, statementTimeoutMs: 0 });
    // An empty line of .env.example is the default, not "no limit".
    expect(getDatabaseEnv({ ...base, DATABASE_LOCK_TIMEOUT_MS: "", DATABASE_ACQUIRE_TIMEOUT_MS: "" })).toMatchObject({
      acquireTimeoutMs: 5_000,
      lockTimeoutMs: 5_000,
    });
    // A pool that never gives up waiting is what these settings exist to prevent.
    expect(() => getDatabaseEnv({ ...base, DATABASE_ACQUIRE_TIMEOUT_MS: "0" })).toThrow(/DATABASE_ACQUIRE_TIMEOUT_MS/);
    expect(() => getDatabaseEnv({ ...base, DATABASE_LOCK_TIMEOUT_MS: "1.5" })).toThrow(
      /DATABASE_LOCK_TIMEOUT_MS must be a whole number of milliseconds/,
    );
  });

  it("knows it runs on Vercel from VERCEL=1, which sizes the pool's idle timeout", () => {
    expect(getDatabaseEnv({ DATABASE_URL: valid.DATABASE_URL, VERCEL: "1" }).onVercel).toBe(true);
    expect(getDatabaseEnv({ DATABASE_URL: valid.DATABASE_URL, VERCEL: "" }).onVercel).toBe(false);
    expect(parseEnv({ ...valid, VERCEL: "1" }).clientAddress.onVercel).toBe(true);
  });
});
