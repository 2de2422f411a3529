import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { clientAddress, rateLimitKeyOf } from "./client-address";
import { limitRefusal } from "./client-limits";
import { db } from "../db/client";
import { getEnv } from "../env";
import { jsonError } from "./json-error";
import { consoleLogger, errorKind, throttledLogger, type LogFields } from "../log";
import { consumeRateLimit, UNAVAILABLE_RETRY_SECONDS, type RateLimitVerdict } from "../db/rate-limit";
import { backOfficeOff, refuseWithoutAdminSession } from "./admin-route-guard";
import { isFormPost, isJson, readFormOrJson, refuseCrossSite, seeOther } from "./admin-requests";
import { safeAdminPath } from "./return-path";
import {
  adminConfig,
  adminSessionCookie,
  adminSessionCookieName,
  clearedAdminSessionCookie,
  endAdminSession,
  endAllAdminSessions,
  passwordMatches,
  startAdminSession,
  unsealAdminSession,
} from "../admin/session";

/**
 * Signing in and out of the back office, for the route handlers under app/api/admin/session.
 * Each answers the page's form (application/x-www-form-urlencoded) with a 303 to /admin, its
 * outcome in `?error=`, and a JSON client with JSON. Nothing a client sends leads to a 500.
 */

/** Why /admin shows the sign-in form again; app/[lang]/admin/page.tsx has a sentence for each. */
export const SIGN_IN_ERRORS = ["wrong_password", "rate_limited", "unavailable", "invalid_request"] as const;
export type SignInError = (typeof SIGN_IN_ERRORS)[number];

const MAX_SIGN_IN_BYTES = 4096;
/** `next`: the page to go back to (the sign-in form's hidden field), checked by safeAdminPath. */
const signInSchema = z.object({ password: z.string().min(1).max(1024), next: z.string().max(2048).optional() });

/** The sign-in form again, with the reason and the page it was to go back to. */
const backToSignIn = (error: SignInError, next: string | undefined) =>
  seeOther(`/admin?${new URLSearchParams({ error, ...(next ? { expired: "1", next } : {}) })}`);

/** The password (and the form's `next`) a sign-in request carries, or the answer to a request that carries none. */
async function readSignIn(
  request: Request,
): Promise<{ ok: true; password: string; next?: string } | { ok: false; response: Response; next?: string }> {
  const body = await readFormOrJson(request, MAX_SIGN_IN_BYTES);
  if (!body.ok) return body;
  const next = safeAdminPath((body.input as { next?: unknown } | null)?.next);
  const parsed = signInSchema.safeParse(body.input);
  if (!parsed.success)
    return { ok: false, next, response: jsonError(400, "invalid_request", "send the password, 1 to 1024 characters") };
  return { ok: true, password: parsed.data.password, next };
}

/** A log line of the back office's sessions: what happened, from which address, when. */
function logSession(
  level: "info" | "warn" | "error",
  event: string,
  address: string,
  fields: LogFields = {},
  log = consoleLogger,
) {
  log(level, event, { ...fields, address, at: new Date().toISOString() });
}

/** One log line per sign-in attempt past the cross-site check: the client's address and the time, never the password or a cookie. */
const logAttempt = (outcome: "succeeded" | "failed", address: string, fields: LogFields = {}) =>
  logSession(outcome === "succeeded" ? "info" : "warn", `admin.sign_in.${outcome}`, address, fields);

// The attempts no limit bounds (refused by the limit itself, or before it) can come by the
// thousand: their lines are throttled. Those the limits let through are each logged.
const unboundedAttemptLog = throttledLogger(consoleLogger);
const logUnboundedAttempt = (address: string, fields: LogFields) =>
  logSession("warn", "admin.sign_in.failed", address, fields, unboundedAttemptLog);

/**
 * The two limits every attempt counts against before the password is looked at, per address
 * then shop-wide (against a guess spread over many addresses); an attempt refused by the first
 * does not count against the second. Both fail closed: when their counters cannot be reached,
 * sign-in is refused (503) rather than left without a limit.
 */
async function spendAttempt(
  address: string,
): Promise<{ ok: true } | { ok: false; verdict: Extract<RateLimitVerdict, { ok: false }>; limit: string }> {
  const { adminSignInPerMinute, adminSignInShopPerMinute } = getEnv().rateLimits;
  const limits = [
    { name: "admin-sign-in", key: rateLimitKeyOf(address), pointsPerMinute: adminSignInPerMinute },
    { name: "admin-sign-in-shop", key: "shop", pointsPerMinute: adminSignInShopPerMinute },
  ];
  for (const limit of limits) {
    const verdict = await consumeRateLimit(limit.name, limit.key, { ...limit, failClosed: true });
    if (!verdict.ok) return { ok: false, verdict, limit: limit.name };
  }
  return { ok: true };
}

/** POST /api/admin/session: a right password opens a session; a wrong one gets a 401 (or the form again). */
export async function signIn(request: NextRequest): Promise<Response> {
  const crossSite = refuseCrossSite(request);
  if (crossSite) return crossSite;
  const form = isFormPost(request);
  const address = addressOf(request);
  if (!form && !isJson(request)) {
    logUnboundedAttempt(address, { reason: "invalid_request" });
    return jsonError(415, "unsupported_media_type", "send application/x-www-form-urlencoded or application/json");
  }
  const admin = adminConfig();
  if (!admin) return form ? seeOther("/admin") : backOfficeOff();
  // Every attempt counts, well-formed or not, before the password is looked at.
  const spent = await spendAttempt(address);
  if (!spent.ok) {
    const unavailable = spent.verdict.reason === "unavailable";
    logUnboundedAttempt(address, { reason: unavailable ? "limiter_unavailable" : "rate_limited", limit: spent.limit });
    if (!form) return limitRefusal(spent.verdict, "too many sign-in attempts; wait a minute and try again");
    // The page's form is told in a sentence, and keeps the page it was to go back to.
    return backToSignIn(unavailable ? "unavailable" : "rate_limited", (await readSignIn(request)).next);
  }
  const input = await readSignIn(request);
  if (!input.ok) {
    logAttempt("failed", address, { reason: "invalid_request" });
    return form ? backToSignIn("invalid_request", input.next) : input.response;
  }
  if (!passwordMatches(input.password, admin.password)) {
    logAttempt("failed", address, { reason: "wrong_password" });
    return form ? backToSignIn("wrong_password", input.next) : jsonError(401, "wrong_password", "wrong password");
  }
  let seal: string;
  try {
    seal = await startAdminSession(db(), admin);
  } catch (error) {
    // The right password, but no session can be recorded: refused, as when the attempts cannot be counted.
    logAttempt("failed", address, { reason: "session_unavailable", error: errorKind(error) });
    return form
      ? backToSignIn("unavailable", input.next)
      : jsonError(503, "unavailable", "the session cannot be recorded right now; try again soon", {
          "Retry-After": String(UNAVAILABLE_RETRY_SECONDS),
        });
  }
  logAttempt("succeeded", address);
  const response = form ? seeOther(input.next ?? "/admin") : NextResponse.json({ signedIn: true });
  const { appUrl } = getEnv();
  response.cookies.set(adminSessionCookie(seal, appUrl));
  return response;
}

/**
 * Sign-out (DELETE /api/admin/session, or the form's POST /api/admin/session/sign-out): the
 * session the cookie names is ended, so a copy of the cookie is no session either, and the
 * cookie is cleared. Without a valid cookie there is nothing to end, and the answer is the same.
 */
export async function signOut(request: NextRequest): Promise<Response> {
  const crossSite = refuseCrossSite(request);
  if (crossSite) return crossSite;
  const admin = adminConfig();
  const { appUrl } = getEnv();
  const sid = admin && (await unsealAdminSession(request.cookies.get(adminSessionCookieName(appUrl))?.value, admin));
  let ended = true;
  if (sid) {
    try {
      await endAdminSession(db(), sid);
      logSession("info", "admin.sign_out", addressOf(request));
    } catch (error) {
      // The cookie is cleared all the same; a copy of it lives on until its 8 hours are up, so say so.
      ended = false;
      logSession("error", "admin.sign_out_failed", addressOf(request), { error: errorKind(error) });
    }
  }
  const response = isFormPost(request)
    ? seeOther("/admin")
    : ended
      ? NextResponse.json({ signedIn: false })
      : NextResponse.json(
          {
            error: {
              code: "unavailable",
              message: "the cookie is cleared, but the session could not be ended; try again soon",
            },
          },
          { status: 503 },
        );
  response.cookies.set(clearedAdminSessionCookie(appUrl));
  return response;
}

/**
 * "Sign out everywhere" (POST /api/admin/session/sign-out-everywhere): every session is ended,
 * this one included: a cookie left on another computer, or copied, is no session from now on.
 * Only a signed-in request may do it (or anyone could sign the owner out at will).
 */
export async function signOutEverywhere(request: NextRequest): Promise<Response> {
  const refusal = (await refuseWithoutAdminSession(request)) ?? refuseCrossSite(request);
  if (refusal) return refusal;
  const ended = await endAllAdminSessions(db());
  logSession("info", "admin.sign_out_everywhere", addressOf(request), { ended });
  const response = isFormPost(request)
    ? seeOther("/admin?signedOut=everywhere")
    : NextResponse.json({ signedIn: false, ended });
  response.cookies.set(clearedAdminSessionCookie(getEnv().appUrl));
  return response;
}

const addressOf = (request: Request) => clientAddress(request.headers, getEnv().clientAddress);
