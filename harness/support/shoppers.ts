import { randomInt, randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import type { Database } from "@/lib/db/client";
import { appendForwardedFor } from "../../scripts/lib/forwarded-for.mjs";

/**
 * A shopper's account as better-auth's phone sign-in leaves it (lib/accounts/): a row of
 * `shoppers` under the phone's key, its placeholder e-mail under `.invalid`, for tests of what the
 * account's pages do with it.
 */
export async function insertTestShopper(db: Pick<Database, "shopper">, phoneNumber = randomPhoneKey()) {
  const id = randomUUID();
  return db.shopper.create({
    data: { id, name: "", email: `${id}@phone.invalid`, phoneNumber, phoneNumberVerified: true },
  });
}

/** An Angolan phone's key no other test uses (lib/phone.ts phoneKey): `9` and eight random digits. */
export const randomPhoneKey = () => `9${String(Math.floor(Math.random() * 100_000_000)).padStart(8, "0")}`;

/** The newest sign-in code the outbox (the `messages` table) holds for the phone whose key is `phoneKey`. */
export async function signInCodeInOutbox(db: Pick<Database, "message">, phoneKey: string): Promise<string | undefined> {
  const message = await db.message.findFirst({
    where: { recipient: phoneKey, purpose: "sign-in-code" },
    orderBy: { createdAt: "desc" },
  });
  return message ? /\b([0-9]{6})\b/.exec(message.body)?.[1] : undefined;
}

/** The sign-in route's POST (app/api/auth/[...all]/route.ts), imported by the test after its settings. */
type AuthPost = (request: NextRequest) => Promise<Response>;

/**
 * A session made as a browser makes it: the code asked for through the sign-in route with the
 * phone written `0…`, read from the outbox, and checked with it written `+244 …`. Its cookie (as a
 * Cookie header's part) and the account's id. Each request comes from an address of its own.
 */
export async function signInThroughRoute(
  db: Pick<Database, "message" | "shopper">,
  post: AuthPost,
  phoneKey = randomPhoneKey(),
  appUrl = "http://localhost:3000",
): Promise<{ phoneKey: string; cookie: string; shopperId: string }> {
  const call = (path: string, body: unknown) =>
    post(
      new NextRequest(`${appUrl}/api/auth${path}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Origin: appUrl,
          "X-Forwarded-For": appendForwardedFor(undefined, `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`),
        },
        body: JSON.stringify(body),
      }),
    );
  const sent = await call("/phone-number/send-otp", { phoneNumber: `0${phoneKey}` });
  if (sent.status !== 200) throw new Error(`send-otp answered ${sent.status}: ${await sent.text()}`);
  const code = await signInCodeInOutbox(db, phoneKey);
  const verified = await call("/phone-number/verify", { phoneNumber: `+244 ${phoneKey}`, code });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${await verified.text()}`);
  const cookie = verified.headers
    .getSetCookie()
    .find((value) => value.startsWith("shop.session_token="))
    ?.split(";")[0];
  if (!cookie) throw new Error("verify set no session cookie");
  const shopper = await db.shopper.findUniqueOrThrow({ where: { phoneNumber: phoneKey } });
  return { phoneKey, cookie, shopperId: shopper.id };
}
