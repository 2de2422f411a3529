import { randomInt } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShopperAuth, CODE_TRIES, SESSION_SECONDS, type ShopperAuth } from "@/lib/accounts/auth";
import { CLIENT_ADDRESS_HEADER, type SignInCodeLimits } from "@/lib/accounts/sign-in-limits";
import { db } from "@/lib/db/client";
import { createRateLimits } from "@/lib/db/rate-limit";

// better-auth as the shop configures it (lib/accounts/auth.ts), against the suite's real database
// (PostgreSQL, or PGlite): codes of six digits that live five minutes and die after five wrong
// tries, the first sign-in making the account, the phone in any form reduced to its key, the
// limits per phone and per address, and the same answer whether or not the phone has an account.
// The codes are caught where they would be sent; the route and the outbox have their own file.

const APP_URL = "http://localhost:3000";
let pool: pg.Pool;

beforeAll(() => {
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
});
afterAll(() => pool.end());

/** A phone of its own for each test (the suite's database keeps accounts across tests). */
const newPhone = () => `9${randomInt(10_000_000, 99_999_999)}`;
const newAddress = () => `203.0.${randomInt(0, 256)}.${randomInt(1, 255)}`;

function shopWith(limits: Partial<SignInCodeLimits> = {}, appUrl = APP_URL, counters: pg.Pool = pool) {
  const sent: { phoneKey: string; code: string }[] = [];
  const auth = createShopperAuth({
    db: db(),
    secret: "a-test-secret-of-at-least-thirty-two-characters",
    appUrl,
    sendCode: async ({ phoneKey, code }) => {
      sent.push({ phoneKey, code });
    },
    limits: { perPhonePerHour: 0, perAddressPerHour: 0, requestsPerMinute: 0, ...limits },
    rateLimits: createRateLimits(counters),
  });
  return { auth, sent, appUrl };
}

type Shop = ReturnType<typeof shopWith>;

/** A POST to one of better-auth's endpoints as the shop's route hands it on. */
async function post(
  shop: Shop,
  path: string,
  body: unknown,
  options: { address?: string; cookie?: string; origin?: string } = {},
) {
  const response = await shop.auth.handler(
    new Request(`${shop.appUrl}/api/auth${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: options.origin ?? shop.appUrl,
        [CLIENT_ADDRESS_HEADER]: options.address ?? newAddress(),
        ...(options.cookie ? { Cookie: options.cookie } : {}),
      },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, text: await response.text(), setCookies: response.headers.getSetCookie() };
}

const sessionCookieOf = (setCookies: string[]) => setCookies.find((cookie) => /session_token=/.test(cookie));
const cookieHeaderOf = (setCookie: string | undefined) => setCookie?.split(";")[0] ?? "";

async function signIn(shop: Shop, phone: string, typedAtVerify = phone) {
  expect((await post(shop, "/phone-number/send-otp", { phoneNumber: phone })).status).toBe(200);
  const code = shop.sent.at(-1)!.code;
  return post(shop, "/phone-number/verify", { phoneNumber: typedAtVerify, code });
}

async function getSession(auth: ShopperAuth, cookie: string) {
  return auth.api.getSession({ headers: new Headers({ cookie }) });
}

describe("codes", () => {
  it("sends six digits to the phone's key, whatever form it was typed in, and says nothing of the code", async () => {
    const shop = shopWith();
    const national = newPhone();
    const answer = await post(shop, "/phone-number/send-otp", {
      phoneNumber: `+244 ${national.slice(0, 3)} ${national.slice(3)}`,
    });
    expect(answer.status).toBe(200);
    expect(shop.sent).toHaveLength(1);
    expect(shop.sent[0]!.phoneKey).toBe(national);
    expect(shop.sent[0]!.code).toMatch(/^[0-9]{6}$/);
    expect(answer.text).not.toContain(shop.sent[0]!.code);
    const rows = await db().shopperVerification.findMany({ where: { identifier: `phone-number-otp-${national}` } });
    expect(rows).toHaveLength(1);
    // Five minutes, give or take the test's own time.
    const lives = rows[0]!.expiresAt.getTime() - Date.now();
    expect(lives).toBeGreaterThan(4 * 60_000);
    expect(lives).toBeLessThanOrEqual(5 * 60_000);
  });

  it("answers the same whether or not the phone has an account", async () => {
    const shop = shopWith();
    const known = newPhone();
    expect((await signIn(shop, known)).status).toBe(200);
    const forKnown = await post(shop, "/phone-number/send-otp", { phoneNumber: known });
    const forUnknown = await post(shop, "/phone-number/send-otp", { phoneNumber: newPhone() });
    expect(forKnown.status).toBe(forUnknown.status);
    expect(forKnown.text).toBe(forUnknown.text);
    expect(forKnown.setCookies).toEqual(forUnknown.setCookies);
  });

  it("refuses what is not one phone before anything is sent or stored", async () => {
    const shop = shopWith();
    for (const phoneNumber of ["+0244 923 456 789", "0244923456789", "12345", "", 923456789, null])
      expect((await post(shop, "/phone-number/send-otp", { phoneNumber })).status, String(phoneNumber)).toBe(400);
    expect(shop.sent).toHaveLength(0);
  });

  it("takes no fields but the phone and the code", async () => {
    const shop = shopWith();
    const phone = newPhone();
    expect((await post(shop, "/phone-number/send-otp", { phoneNumber: phone, extra: 1 })).status).toBe(400);
    expect((await post(shop, "/phone-number/send-otp", { phoneNumber: phone })).status).toBe(200);
    const code = shop.sent.at(-1)!.code;
    for (const extra of [
      { updatePhoneNumber: true },
      { name: "<b>x</b>" },
      { nif: "5000000000" },
      { disableSession: true },
    ])
      expect((await post(shop, "/phone-number/verify", { phoneNumber: phone, code, ...extra })).status).toBe(400);
    // The code is still alive: refused requests did not spend it.
    expect((await post(shop, "/phone-number/verify", { phoneNumber: phone, code })).status).toBe(200);
  });

  it("dies after five wrong tries, the right code included after them", async () => {
    const shop = shopWith();
    const phone = newPhone();
    await post(shop, "/phone-number/send-otp", { phoneNumber: phone });
    const code = shop.sent.at(-1)!.code;
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < CODE_TRIES; i++)
      expect((await post(shop, "/phone-number/verify", { phoneNumber: phone, code: wrong })).status).toBe(400);
    const right = await post(shop, "/phone-number/verify", { phoneNumber: phone, code });
    expect(right.status).toBe(403);
    expect(sessionCookieOf(right.setCookies)).toBeUndefined();
    expect(await db().shopperVerification.count({ where: { identifier: `phone-number-otp-${phone}` } })).toBe(0);
    expect(await db().shopper.count({ where: { phoneNumber: phone } })).toBe(0);
  });

  it("is refused once expired", async () => {
    const shop = shopWith();
    const phone = newPhone();
    await post(shop, "/phone-number/send-otp", { phoneNumber: phone });
    await db().shopperVerification.updateMany({
      where: { identifier: `phone-number-otp-${phone}` },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    const late = await post(shop, "/phone-number/verify", { phoneNumber: phone, code: shop.sent.at(-1)!.code });
    expect(late.status).toBe(400);
    expect(sessionCookieOf(late.setCookies)).toBeUndefined();
  });

  it("is one use only", async () => {
    const shop = shopWith();
    const phone = newPhone();
    expect((await signIn(shop, phone)).status).toBe(200);
    const again = await post(shop, "/phone-number/verify", { phoneNumber: phone, code: shop.sent.at(-1)!.code });
    expect(again.status).toBe(400);
  });
});

describe("limits on codes", () => {
  it("sends a phone no more than its allowance an hour, from any addresses", async () => {
    const shop = shopWith({ perPhonePerHour: 3 });
    const phone = newPhone();
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await post(shop, "/phone-number/send-otp", { phoneNumber: phone })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(shop.sent).toHaveLength(3);
  });

  it("holds against a burst of concurrent requests", async () => {
    const shop = shopWith({ perPhonePerHour: 5 });
    const phone = newPhone();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        post(shop, "/phone-number/send-otp", { phoneNumber: phone }).catch((error: unknown) => ({
          status: "thrown",
          error,
        })),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    // Codes made at once for one phone replace each other, and better-auth may fail one of them
    // (a new code's row meeting another's): it throws, which the route answers 503. Never more
    // than the allowance is sent, and every code sent was answered 200.
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    expect(shop.sent.length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 200)).toHaveLength(shop.sent.length);
    expect(statuses.filter((status) => status !== 200 && status !== 429).every((status) => status === "thrown")).toBe(
      true,
    );
    expect((await post(shop, "/phone-number/send-otp", { phoneNumber: phone })).status).toBe(429);
  });

  it("lets better-auth's limiter count requests to the code endpoints per address, in the database", async () => {
    const shop = shopWith({ requestsPerMinute: 3 });
    const address = newAddress();
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await post(shop, "/phone-number/verify", { phoneNumber: newPhone(), code: "123456" }, { address }));
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 429]);
    expect(await db().authRateLimit.count({ where: { key: { startsWith: address } } })).toBe(1);
    // Another address has its own allowance.
    expect((await post(shop, "/phone-number/verify", { phoneNumber: newPhone(), code: "123456" })).status).toBe(400);
  });

  it("sends no code while its counters cannot be reached: 503, nothing sent", async () => {
    // A PostgreSQL nobody listens on: the counters' real failure, not a stand-in.
    const unreachable = new pg.Pool({
      connectionString: "postgresql://postgres@127.0.0.1:9/none",
      connectionTimeoutMillis: 500,
    });
    try {
      const shop = shopWith({ perPhonePerHour: 5 }, APP_URL, unreachable);
      const answer = await post(shop, "/phone-number/send-otp", { phoneNumber: newPhone() });
      expect(answer.status).toBe(503);
      expect(shop.sent).toHaveLength(0);
    } finally {
      await unreachable.end();
    }
  });

  it("sends one address no more than its allowance an hour, for any phones", async () => {
    const shop = shopWith({ perAddressPerHour: 2 });
    const address = newAddress();
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await post(shop, "/phone-number/send-otp", { phoneNumber: newPhone() }, { address })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect((await post(shop, "/phone-number/send-otp", { phoneNumber: newPhone() })).status).toBe(200);
  });
});

describe("accounts and sessions", () => {
  it("makes the account at the first sign-in, under the phone's key, with an httpOnly Lax cookie of 30 days", async () => {
    const shop = shopWith();
    const phone = newPhone();
    const answer = await signIn(shop, `0${phone}`, `+244 ${phone}`);
    expect(answer.status).toBe(200);
    const cookie = sessionCookieOf(answer.setCookies)!;
    expect(cookie).toMatch(/^shop\.session_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toContain(`Max-Age=${SESSION_SECONDS}`);
    const shopper = await db().shopper.findUniqueOrThrow({ where: { phoneNumber: phone } });
    expect(shopper).toMatchObject({ phoneNumberVerified: true, name: "", email: `${phone}@phone.invalid` });
    const session = await getSession(shop.auth, cookieHeaderOf(cookie));
    expect(session?.user.id).toBe(shopper.id);
    // A second sign-in is the same account.
    expect((await signIn(shop, phone)).status).toBe(200);
    expect(await db().shopper.count({ where: { phoneNumber: phone } })).toBe(1);
  });

  it("takes a POST with cookies only from the shop's origin, or its other loopback names on this machine", async () => {
    // better-auth checks the origin of a request that carries cookies (a browser's); the route
    // refuses every cross-site POST besides (sign-in-route.test.ts).
    const shop = shopWith();
    const remote = shopWith({}, "https://loja.example.ao");
    const send = (on: Shop, origin: string) =>
      post(on, "/phone-number/send-otp", { phoneNumber: newPhone() }, { origin, cookie: "lang=pt" });
    expect((await send(shop, "http://127.0.0.1:3000")).status).toBe(200);
    expect((await send(shop, "http://127.0.0.1:4000")).status).toBe(403);
    expect((await send(shop, "https://loja.example.ao")).status).toBe(403);
    expect((await send(remote, "https://loja.example.ao")).status).toBe(200);
    expect((await send(remote, "http://localhost:3000")).status).toBe(403);
    expect(shop.sent).toHaveLength(1);
    expect(remote.sent).toHaveLength(1);
  });

  it("names its cookie __Secure- over https", async () => {
    const shop = shopWith({}, "https://loja.example.ao");
    const cookie = sessionCookieOf((await signIn(shop, newPhone())).setCookies)!;
    expect(cookie).toMatch(/^__Secure-shop\.session_token=/);
    expect(cookie).toMatch(/; Secure/i);
  });

  it("signs out here, or everywhere: the session rows are gone and the cookies are no sessions", async () => {
    const shop = shopWith();
    const phone = newPhone();
    const first = cookieHeaderOf(sessionCookieOf((await signIn(shop, phone)).setCookies));
    const second = cookieHeaderOf(sessionCookieOf((await signIn(shop, phone)).setCookies));
    const third = cookieHeaderOf(sessionCookieOf((await signIn(shop, phone)).setCookies));
    const shopper = await db().shopper.findUniqueOrThrow({ where: { phoneNumber: phone } });
    expect(await db().shopperSession.count({ where: { shopperId: shopper.id } })).toBe(3);

    expect((await post(shop, "/sign-out", {}, { cookie: first })).status).toBe(200);
    expect(await getSession(shop.auth, first)).toBeNull();
    expect(await getSession(shop.auth, second)).not.toBeNull();

    expect((await post(shop, "/revoke-sessions", {}, { cookie: second })).status).toBe(200);
    expect(await getSession(shop.auth, second)).toBeNull();
    expect(await getSession(shop.auth, third)).toBeNull();
    expect(await db().shopperSession.count({ where: { shopperId: shopper.id } })).toBe(0);
  });
});
