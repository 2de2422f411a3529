import "server-only";
import type { Database } from "../db/client";
import { getEnv, isLoopback } from "../env";
import { isRole } from "./roles";
import type { Actor } from "./staff-events";
import { STAFF_SESSION_SECONDS, type StaffAuth } from "./staff-auth";

/**
 * The back office's session on the wire: better-auth keeps the session (a row of
 * `staff_sessions`, lib/admin/staff-auth.ts) and signs its token; the browser holds that signed
 * token in the back office's own cookie, `__Host-admin_session` over https (SameSite=Strict,
 * httpOnly, Path=/, no Domain), which no subdomain and no page over plain http can set. The names
 * better-auth reads and writes (`shop-admin.*`) never leave the server: a request's cookie is
 * handed to better-auth under its name, and better-auth's Set-Cookie is read back from its answer.
 * And the rows' upkeep better-auth leaves to us: expired sessions deleted as people sign in.
 */

/** The cookie's name on this machine over plain http, where a Secure cookie cannot be set. */
export const ADMIN_SESSION_COOKIE = "admin_session";
/** A sign-in waiting for its authenticator's code (better-auth's `two_factor` cookie), for ten minutes. */
export const ADMIN_TWO_FACTOR_COOKIE = "admin_two_factor";
export const ADMIN_TWO_FACTOR_SECONDS = 10 * 60;

/** better-auth's own cookie names (lib/admin/staff-auth.ts: cookiePrefix `shop-admin`, never Secure-prefixed). */
const LIBRARY_COOKIES = {
  session: "shop-admin.session_token",
  twoFactor: "shop-admin.two_factor",
} as const;

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

/** The session cookie, for the session's eight hours. */
export const adminSessionCookie = (value: string, appUrl: string) =>
  adminCookie(ADMIN_SESSION_COOKIE, value, appUrl, STAFF_SESSION_SECONDS);

/** The same cookie, emptied and expired: what sign-out sends. */
export const clearedAdminSessionCookie = (appUrl: string) => ({ ...adminSessionCookie("", appUrl), maxAge: 0 });

/** The pending two-factor step's cookie. */
export const adminTwoFactorCookie = (value: string, appUrl: string, maxAge = ADMIN_TWO_FACTOR_SECONDS) =>
  adminCookie(ADMIN_TWO_FACTOR_COOKIE, value, appUrl, maxAge);

/** Headers for a call to better-auth that carry the back office's cookies under better-auth's names. */
export function libraryHeaders(cookies: { session?: string; twoFactor?: string }): Headers {
  const pairs = (Object.keys(LIBRARY_COOKIES) as (keyof typeof LIBRARY_COOKIES)[])
    .filter((key) => cookies[key])
    .map((key) => `${LIBRARY_COOKIES[key]}=${encodeURIComponent(cookies[key]!)}`);
  const headers = new Headers({ origin: new URL(getEnv().appUrl).origin });
  if (pairs.length > 0) headers.set("cookie", pairs.join("; "));
  return headers;
}

/**
 * The values better-auth set in its answer's headers, by the back office's names: a new session's
 * signed token, a pending two-factor step's, or an empty string where it cleared one.
 */
export function libraryCookiesOf(headers: Headers): { session?: string; twoFactor?: string } {
  const found: { session?: string; twoFactor?: string } = {};
  for (const line of headers.getSetCookie()) {
    for (const key of Object.keys(LIBRARY_COOKIES) as (keyof typeof LIBRARY_COOKIES)[]) {
      const match = new RegExp(`^${LIBRARY_COOKIES[key].replace(".", "\\.")}=([^;]*)`).exec(line);
      if (!match) continue;
      const expired = /;\s*max-age=0/i.test(line);
      found[key] = expired ? "" : decodeURIComponent(match[1]!);
    }
  }
  return found;
}

/** A live session of the back office: the person, whether their authenticator is on, and the session's row. */
export interface StaffSessionRead {
  actor: Actor;
  twoFactorEnabled: boolean;
  session: { id: string; expiresAt: Date };
}

/**
 * The session `cookieValue` carries: a live session of an enabled person with a role of the
 * table; undefined for anything else, no cookie included. Throws when the sessions cannot be read
 * (the guard answers 503).
 */
export async function staffSessionOf(
  auth: StaffAuth,
  cookieValue: string | undefined,
): Promise<StaffSessionRead | undefined> {
  if (!cookieValue) return undefined;
  const found = await auth.api.getSession({
    headers: libraryHeaders({ session: cookieValue }),
    query: { disableCookieCache: true, disableRefresh: true },
  });
  if (!found) return undefined;
  const { user, session } = found;
  if (user.banned || !isRole(user.role)) return undefined;
  return {
    actor: { id: user.id, name: user.name, email: user.email, role: user.role },
    twoFactorEnabled: user.twoFactorEnabled === true,
    session: { id: session.id, expiresAt: new Date(session.expiresAt) },
  };
}

/** The person whose session `cookieValue` carries (see {@link staffSessionOf}). */
export async function actorOfSession(auth: StaffAuth, cookieValue: string | undefined): Promise<Actor | undefined> {
  return (await staffSessionOf(auth, cookieValue))?.actor;
}

/** Expired sessions one sign-in deletes at most: the work a sign-in does for the table stays bounded. */
export const PRUNED_PER_SIGN_IN = 100;

/**
 * Deletes expired sessions' rows, PRUNED_PER_SIGN_IN at most; each sign-in does, so the table
 * holds about as many rows as there were sign-ins in the last eight hours. better-auth deletes an
 * expired session only when its cookie comes back, which most never do.
 */
export async function pruneExpiredSessions(database: Database, now = new Date()): Promise<number> {
  return database.$executeRaw`
    DELETE FROM staff_sessions WHERE id IN (
      SELECT id FROM staff_sessions WHERE expires_at <= ${now} LIMIT ${PRUNED_PER_SIGN_IN}
    )`;
}

/**
 * Whose sign-in a pending two-factor step (its cookie's value) is, while the step is open;
 * undefined otherwise. Only for the record of a wrong code: whether a code is right, and the step
 * itself, are better-auth's to check (its identifier is random, its cookie signed).
 */
export async function staffIdOfTwoFactorStep(auth: StaffAuth, cookieValue: string): Promise<string | undefined> {
  const identifier = cookieValue.slice(0, cookieValue.lastIndexOf("."));
  if (!identifier) return undefined;
  const step = await (await auth.$context).internalAdapter.findVerificationValue(identifier);
  return step && new Date(step.expiresAt).getTime() > Date.now() ? step.value : undefined;
}
