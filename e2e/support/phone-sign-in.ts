import { randomInt } from "node:crypto";
import type { Page } from "@playwright/test";
import { readE2eServerEnvironment } from "../../harness/server-environment";
import { phoneKey } from "../../lib/phone";
import { query } from "./database";
import { expect } from "./fixtures";

/**
 * Signing a browser in by phone as the sign-in page does, through the shop's own API
 * (/api/auth/phone-number/send-otp, then /verify, with the code read from the outbox: the
 * `messages` table), on the page's request context, which shares the browser's cookies: the
 * session cookie the verify sets is the browser's.
 */

/** A phone of the test's own (an Angolan key, 9xxxxxxxx): no other test's codes or orders meet it. */
export const newPhoneKey = () => `9${randomInt(10_000_000, 99_999_999)}`;

/** The sign-in codes the outbox holds for the phone whose key is `key`, oldest first. */
export async function signInCodesFor(key: string): Promise<string[]> {
  const rows = await query<{ body: string }>(
    "SELECT body FROM messages WHERE recipient = $1 AND purpose = 'sign-in-code' ORDER BY created_at, id",
    [key],
  );
  return rows.map((row) => /\b([0-9]{6})\b/.exec(row.body)?.[1] ?? "");
}

export async function signInByPhone(page: Page, phone: string): Promise<void> {
  // As a page of the shop sends it: the route refuses another site's.
  const headers = { Origin: new URL(readE2eServerEnvironment().appUrl).origin };
  const sent = await page.request.post("/api/auth/phone-number/send-otp", { data: { phoneNumber: phone }, headers });
  expect(sent.status(), await sent.text()).toBe(200);
  const code = (await signInCodesFor(phoneKey(phone))).at(-1);
  expect(code, "a sign-in code in the outbox").toMatch(/^[0-9]{6}$/);
  const verified = await page.request.post("/api/auth/phone-number/verify", {
    data: { phoneNumber: phone, code },
    headers,
  });
  expect(verified.status(), await verified.text()).toBe(200);
}
