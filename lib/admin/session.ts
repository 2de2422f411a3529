import "server-only";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import { z } from "zod";
import { getEnv, isLoopback } from "../env";
import { jsonError } from "../http";

/**
 * The back office's session: one sealed (encrypted and signed, iron-session's `sealData`)
 * cookie under ADMIN_SESSION_SECRET, never the password. The seal holds when it was made and a
 * fingerprint of the password it was made for, so a new ADMIN_PASSWORD signs every session
 * out. Nothing here logs or returns the password, the secret or a seal to anyone but the
 * cookie's owner. No Next.js here: the guards of pages and routes are in ./guard.ts.
 */

export const ADMIN_SESSION_COOKIE = "admin_session";
/** A working day: the seal's own time-to-live and the cookie's Max-Age alike. */
export const ADMIN_SESSION_SECONDS = 8 * 3600;

export interface AdminConfig {
  password: string;
  sessionSecret: string;
}

/** What the seal holds: when it was made, and for which password. */
const sealedSchema = z.object({ v: z.literal(1), iat: z.number().int(), pw: z.string().min(1) });

/** The back office's settings; undefined when ADMIN_PASSWORD is unset (the back office is off). */
export function adminConfig(): AdminConfig | undefined {
  return getEnv().admin;
}

/** Whether `candidate` is the password, in constant time whatever either length. */
export function passwordMatches(candidate: string, password: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(candidate), digest(password));
}

/**
 * A short keyed digest of the password: it changes when the password does, and without the
 * secret it says nothing about the password (the seal is encrypted besides).
 */
function passwordFingerprint(admin: AdminConfig): string {
  return createHmac("sha256", admin.sessionSecret)
    .update(`admin-password\u0000${admin.password}`)
    .digest("base64url")
    .slice(0, 22);
}

/** A new session's cookie value, made at `now`. */
export function sealAdminSession(admin: AdminConfig, now = Date.now()): Promise<string> {
  const data: z.infer<typeof sealedSchema> = { v: 1, iat: Math.floor(now / 1000), pw: passwordFingerprint(admin) };
  return sealData(data, { password: admin.sessionSecret, ttl: ADMIN_SESSION_SECONDS });
}

/**
 * Whether `cookieValue` is a live session: sealed under this secret, untampered, younger than
 * ADMIN_SESSION_SECONDS (by the seal's own expiry and by its `iat`), and made for the current
 * password. Anything else, including no cookie at all, is false.
 */
export async function isAdminSession(
  cookieValue: string | undefined,
  admin: AdminConfig,
  now = Date.now(),
): Promise<boolean> {
  if (!cookieValue) return false;
  const parsed = sealedSchema.safeParse(
    await unsealData(cookieValue, { password: admin.sessionSecret, ttl: ADMIN_SESSION_SECONDS }),
  );
  if (!parsed.success) return false;
  const ageSeconds = now / 1000 - parsed.data.iat;
  const fingerprint = Buffer.from(passwordFingerprint(admin));
  const sealedFingerprint = Buffer.from(parsed.data.pw);
  return (
    ageSeconds >= -60 &&
    ageSeconds < ADMIN_SESSION_SECONDS &&
    sealedFingerprint.length === fingerprint.length &&
    timingSafeEqual(sealedFingerprint, fingerprint)
  );
}

/** The session cookie: httpOnly, SameSite=Strict, Secure unless the shop is on this machine. */
export function adminSessionCookie(value: string, appUrl: string) {
  return {
    name: ADMIN_SESSION_COOKIE,
    value,
    httpOnly: true,
    sameSite: "strict" as const,
    secure: !isLoopback(new URL(appUrl).hostname),
    path: "/",
    maxAge: ADMIN_SESSION_SECONDS,
  };
}

/** The same cookie, emptied and expired: what sign-out sends. */
export function clearedAdminSessionCookie(appUrl: string) {
  return { ...adminSessionCookie("", appUrl), maxAge: 0 };
}

export function backOfficeOff(): Response {
  return jsonError(404, "back_office_off", "the back office is off: set ADMIN_PASSWORD (see README)");
}
