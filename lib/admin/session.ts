import "server-only";
import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import { z } from "zod";
import type { Database } from "../db/client";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { getEnv, isLoopback } from "../env";

/**
 * The back office's session: a row of `admin_sessions` on the server, and one sealed (encrypted
 * and signed, iron-session's `sealData`) cookie under ADMIN_SESSION_SECRET that carries the
 * row's id, never the password. Nothing here logs or returns the password, the secret or a seal
 * to anyone but the cookie's owner. No Next.js here: the guards are in lib/http/admin-guard.ts.
 */

/** The cookie's name on this machine over plain http, where a Secure cookie cannot be set. */
export const ADMIN_SESSION_COOKIE = "admin_session";
/**
 * Its name over https: a `__Host-` cookie is only accepted by browsers when Secure, for Path=/
 * and without Domain, so nothing on another subdomain, nor a page over plain http, can set or
 * overwrite it.
 */
export const ADMIN_SESSION_HOST_COOKIE = `__Host-${ADMIN_SESSION_COOKIE}`;
/** A working day: the seal's own time-to-live, the row's and the cookie's Max-Age alike. */
export const ADMIN_SESSION_SECONDS = 8 * 3600;
/** Expired rows deleted by one sign-in, at most: the work a sign-in does for the table stays bounded. */
export const PRUNED_PER_SIGN_IN = 100;

export interface AdminConfig {
  password: string;
  sessionSecret: string;
}

/** What the seal holds: which session, when it was made, and for which password. */
const sealedSchema = z.object({ v: z.literal(2), sid: z.uuid(), iat: z.number().int(), pw: z.string().min(1) });

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

/** The cookie value of the session `sid`, made at `now`. */
export function sealAdminSession(admin: AdminConfig, sid: string, now = Date.now()): Promise<string> {
  const data: z.infer<typeof sealedSchema> = {
    v: 2,
    sid,
    iat: Math.floor(now / 1000),
    pw: passwordFingerprint(admin),
  };
  return sealData(data, { password: admin.sessionSecret, ttl: ADMIN_SESSION_SECONDS });
}

/**
 * The session id `cookieValue` carries when it is sealed under this secret, untampered, younger
 * than ADMIN_SESSION_SECONDS (by the seal's own expiry and by its `iat`), and made for the
 * current password; undefined for anything else, no cookie at all included. Whether the session
 * is still open is {@link liveAdminSession}'s question.
 */
export async function unsealAdminSession(
  cookieValue: string | undefined,
  admin: AdminConfig,
  now = Date.now(),
): Promise<string | undefined> {
  if (!cookieValue) return undefined;
  const sealed = await openedSeal(cookieValue, admin.sessionSecret);
  if (!sealed) return undefined;
  const ageSeconds = now / 1000 - sealed.iat;
  const fingerprint = Buffer.from(passwordFingerprint(admin));
  const sealedFingerprint = Buffer.from(sealed.pw);
  const live =
    ageSeconds >= -60 &&
    ageSeconds < ADMIN_SESSION_SECONDS &&
    sealedFingerprint.length === fingerprint.length &&
    timingSafeEqual(sealedFingerprint, fingerprint);
  return live ? sealed.sid : undefined;
}

/** Seals opened lately, by cookie value: a few owners' tabs, each asking on every page. */
const OPENED_SIZE = 256;
/** What each held, the secret it opened under, and the seal's own expiry (ms), which its HMAC covers. */
const opened = new Map<string, { data: z.infer<typeof sealedSchema>; secret: string; expiresAt: number }>();

/**
 * What `cookieValue` holds when it is a seal of ours under `secret`, untampered and not past its
 * own expiry; undefined for anything else. Opening one (key derivations, a decryption and an
 * HMAC) cost a back-office page more than any of its statements, so a seal opened once is
 * remembered until it expires; the checks on what it holds run every time. Only cookies that
 * opened are kept, so a client sending made-up ones fills nothing.
 */
async function openedSeal(cookieValue: string, secret: string): Promise<z.infer<typeof sealedSchema> | undefined> {
  const kept = opened.get(cookieValue);
  if (kept && kept.secret === secret && kept.expiresAt > Date.now()) return kept.data;
  const parsed = sealedSchema.safeParse(
    await unsealData(cookieValue, { password: secret, ttl: ADMIN_SESSION_SECONDS }),
  );
  if (!parsed.success) return undefined;
  // iron's format: Fe26.2*id*salt*iv*data*expiration*hmac salt*hmac, then ~2 (iron-session's version).
  const expiresAt = Number(cookieValue.split("~")[0]!.split("*")[5]);
  if (Number.isSafeInteger(expiresAt)) {
    opened.delete(cookieValue);
    opened.set(cookieValue, { data: parsed.data, secret, expiresAt });
    if (opened.size > OPENED_SIZE) opened.delete(opened.keys().next().value!);
  }
  return parsed.data;
}

/** The id of the open session `cookieValue` stands for, or undefined: a valid seal whose row is still there and unexpired. */
export async function liveAdminSession(
  database: SqlRunner,
  cookieValue: string | undefined,
  admin: AdminConfig,
  now = Date.now(),
): Promise<string | undefined> {
  const sid = await unsealAdminSession(cookieValue, admin, now);
  if (!sid) return undefined;
  const [row] = await database.$queryRaw<{ expiresAt: Date }[]>(
    Prisma.sql`SELECT expires_at AS "expiresAt" FROM admin_sessions WHERE id = ${sid}::uuid`,
  );
  return row && row.expiresAt.getTime() > now ? sid : undefined;
}

/**
 * Opens a session (its row) and returns its cookie value. Expired rows go first, at most
 * PRUNED_PER_SIGN_IN of them, so the table holds about as many rows as there were sign-ins in
 * the last eight hours.
 */
export async function startAdminSession(database: Database, admin: AdminConfig, now = Date.now()): Promise<string> {
  await database.$executeRaw`
    DELETE FROM admin_sessions WHERE id IN (
      SELECT id FROM admin_sessions WHERE expires_at <= ${new Date(now)} LIMIT ${PRUNED_PER_SIGN_IN}
    )`;
  const sid = randomUUID();
  await database.adminSession.create({
    data: { id: sid, createdAt: new Date(now), expiresAt: new Date(now + ADMIN_SESSION_SECONDS * 1000) },
  });
  return sealAdminSession(admin, sid, now);
}

/** Ends one session: its cookie, and every copy of it, is no session from now on. */
export async function endAdminSession(database: Database, sid: string): Promise<void> {
  await database.adminSession.deleteMany({ where: { id: sid } });
}

/** Ends every session ("sign out everywhere"); how many were open. */
export async function endAllAdminSessions(database: Database): Promise<number> {
  return (await database.adminSession.deleteMany({})).count;
}

/**
 * Whether the cookie is Secure, and so `__Host-`: over https, and anywhere but this machine
 * (where plain http is allowed only for development: lib/env.ts).
 */
const secureCookies = (appUrl: string) => {
  const url = new URL(appUrl);
  return url.protocol === "https:" || !isLoopback(url.hostname);
};

/** A back-office cookie's name for a shop served at `appUrl`: the only name read. */
export const adminCookieName = (name: string, appUrl: string) => (secureCookies(appUrl) ? `__Host-${name}` : name);

/** The session cookie's name for a shop served at `appUrl`. */
export const adminSessionCookieName = (appUrl: string) => adminCookieName(ADMIN_SESSION_COOKIE, appUrl);

/**
 * A back-office cookie (the session's, a draft's): httpOnly, SameSite=Strict, Path=/, no
 * Domain; Secure and `__Host-` unless the shop is on this machine over plain http.
 */
export function adminCookie(name: string, value: string, appUrl: string, maxAge: number) {
  return {
    name: adminCookieName(name, appUrl),
    value,
    httpOnly: true,
    sameSite: "strict" as const,
    secure: secureCookies(appUrl),
    path: "/",
    maxAge,
  };
}

/** The session cookie, for ADMIN_SESSION_SECONDS. */
export const adminSessionCookie = (value: string, appUrl: string) =>
  adminCookie(ADMIN_SESSION_COOKIE, value, appUrl, ADMIN_SESSION_SECONDS);

/** The same cookie, emptied and expired: what sign-out sends. */
export function clearedAdminSessionCookie(appUrl: string) {
  return { ...adminSessionCookie("", appUrl), maxAge: 0 };
}
