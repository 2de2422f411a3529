import { randomInt } from "node:crypto";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { appendForwardedFor } from "../../../scripts/lib/forwarded-for.mjs";
import { signInCodeInOutbox } from "../../../harness/support/shoppers";

// /api/auth/* as Next calls it (app/api/auth/[...all]/route.ts): the endpoints a phone account
// uses and no other, from the shop's own pages only, the client's address as the shop reads it,
// the code in the outbox (the `messages` table) and nowhere in an answer or the log, and what
// the route says while accounts or messages are off.

const APP_URL = "http://localhost:3000";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
});

const newPhone = () => `9${randomInt(10_000_000, 99_999_999)}`;
const newPeer = () => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;

async function route(env: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  return import("@/app/api/auth/[...all]/route");
}

function request(
  path: string,
  body: unknown,
  options: { origin?: string | null; peer?: string; cookie?: string } = {},
) {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Forwarded-For": appendForwardedFor(undefined, options.peer ?? newPeer()),
  };
  if (options.origin !== null) headers.Origin = options.origin ?? APP_URL;
  if (options.cookie) headers.Cookie = options.cookie;
  return new NextRequest(`${APP_URL}/api/auth${path}`, { method: "POST", headers, body: JSON.stringify(body) });
}

/** The newest sign-in code the outbox holds for `phoneKey`. */
const codeInOutbox = (phoneKey: string) => signInCodeInOutbox(db(), phoneKey);

describe("the sign-in route", () => {
  it("sends the code through the outbox, signs in with it, and the session reads back", async () => {
    const { POST, GET } = await route();
    const logged = vi.spyOn(console, "log");
    const phone = newPhone();
    const sent = await POST(request("/phone-number/send-otp", { phoneNumber: `0${phone}` }));
    expect(sent.status).toBe(200);
    expect(sent.headers.get("cache-control")).toContain("no-store");
    const code = await codeInOutbox(phone);
    expect(code).toMatch(/^[0-9]{6}$/);
    expect(await sent.text()).not.toContain(code!);

    const verified = await POST(request("/phone-number/verify", { phoneNumber: `+244${phone}`, code }));
    expect(verified.status).toBe(200);
    expect(await verified.clone().json()).not.toHaveProperty("token");
    const cookie = verified.headers.getSetCookie().find((value) => value.startsWith("shop.session_token="))!;
    expect(cookie).toBeDefined();

    const session = await GET(
      new NextRequest(`${APP_URL}/api/auth/get-session`, { headers: { Cookie: cookie.split(";")[0]! } }),
    );
    const read = (await session.json()) as { user: { phoneNumber: string }; session: Record<string, unknown> };
    expect(read.user.phoneNumber).toBe(phone);
    // The session's token is the httpOnly cookie's value: no answer hands it to a page's scripts.
    const token = decodeURIComponent(cookie.split(";")[0]!.split("=")[1]!).split(".")[0]!;
    expect(JSON.stringify(read)).not.toContain(token);
    expect(read.session).not.toHaveProperty("token");
    for (const call of logged.mock.calls) expect(call.join(" ")).not.toContain(code!);
  });

  it("answers a refusal in the shop's shape: a wrong code, a phone that is not one", async () => {
    const { POST } = await route();
    const phone = newPhone();
    await POST(request("/phone-number/send-otp", { phoneNumber: phone }));
    const code = await codeInOutbox(phone);
    const wrong = await POST(
      request("/phone-number/verify", { phoneNumber: phone, code: code === "000000" ? "111111" : "000000" }),
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: { code: "invalid_otp", message: expect.any(String) } });
    const notAPhone = await POST(request("/phone-number/send-otp", { phoneNumber: "+0244 923" }));
    expect(notAPhone.status).toBe(400);
    expect(await notAPhone.json()).toEqual({
      error: { code: "invalid_input", message: expect.stringMatching(/^phoneNumber/) },
    });
  });

  it("answers 404 for every endpoint a phone account does not use", async () => {
    const { POST, GET } = await route();
    for (const path of [
      "/sign-up/email",
      "/sign-in/email",
      "/update-user",
      "/delete-user",
      "/sign-in/phone-number",
      "/phone-number/request-password-reset",
      "/list-sessions",
      "/ok",
    ]) {
      expect((await POST(request(path, {}))).status, path).toBe(404);
      expect((await GET(new NextRequest(`${APP_URL}/api/auth${path}`))).status, path).toBe(404);
    }
  });

  it("refuses a POST from another site", async () => {
    const { POST } = await route();
    const phone = newPhone();
    const answer = await POST(
      request("/phone-number/send-otp", { phoneNumber: phone }, { origin: "https://evil.example" }),
    );
    expect(answer.status).toBe(403);
    expect(await codeInOutbox(phone)).toBeUndefined();
  });

  it("counts codes per client address as the shop reads it, not as the client says", async () => {
    const { POST } = await route({ SIGN_IN_CODES_PER_ADDRESS_PER_HOUR: "2" });
    const peer = newPeer();
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      // A made-up X-Forwarded-For entry before the real peer changes nothing.
      const made = request("/phone-number/send-otp", { phoneNumber: newPhone() }, { peer });
      made.headers.set("X-Forwarded-For", appendForwardedFor(`10.0.0.${i}`, peer));
      made.headers.set("X-Shop-Client-Address", `10.9.9.${i}`);
      statuses.push((await POST(made)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("answers 503 naming the setting while accounts are off, and sends nothing", async () => {
    const { POST } = await route({ NODE_ENV: "production", BETTER_AUTH_SECRET: "" });
    const phone = newPhone();
    const answer = await POST(request("/phone-number/send-otp", { phoneNumber: phone }));
    expect(answer.status).toBe(503);
    expect(await answer.text()).toContain("BETTER_AUTH_SECRET");
    expect(await codeInOutbox(phone)).toBeUndefined();
  });

  it("answers 503 naming MESSAGES_PROVIDER when production has no provider, and sends nothing", async () => {
    const { POST } = await route({ NODE_ENV: "production", MESSAGES_PROVIDER: "" });
    const phone = newPhone();
    const answer = await POST(request("/phone-number/send-otp", { phoneNumber: phone }));
    expect(answer.status).toBe(503);
    expect(await answer.text()).toContain("MESSAGES_PROVIDER");
    expect(await db().message.count({ where: { recipient: phone } })).toBe(0);
  });
});
