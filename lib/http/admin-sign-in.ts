import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { clientAddress } from "./client-address";
import { limitRefusal } from "./client-limits";
import { db } from "../db/client";
import { getEnv } from "../env";
import { jsonError } from "./json-error";
import { errorKind } from "../log";
import { UNAVAILABLE_RETRY_SECONDS } from "../db/rate-limit";
import { logAttempt, logSession, logUnboundedAttempt, spendAttempt } from "./admin-sign-in-attempts";
import { backOfficeOff, refuseWithoutAdminSession } from "./admin-route-guard";
import { isFormPost, isJson, readFormOrJson, refuseCrossSite, seeOther } from "./admin-requests";
import { safeAdminPath } from "./return-path";
import { APIError } from "better-auth/api";
import { staffAuth, MAX_STAFF_PASSWORD_LENGTH, type StaffAuth } from "../admin/staff-auth";
import { ensureOwner } from "../admin/owner";
import { recordStaffEvent, type Actor } from "../admin/staff-events";
import {
  actorOfSession,
  ADMIN_TWO_FACTOR_COOKIE,
  adminCookieName,
  adminSessionCookie,
  adminSessionCookieName,
  adminTwoFactorCookie,
  clearedAdminSessionCookie,
  libraryCookiesOf,
  libraryHeaders,
  pruneExpiredSessions,
  staffIdOfTwoFactorStep,
} from "../admin/staff-session";

/**
 * Signing in and out of the back office, for the route handlers under app/api/admin/session:
 * e-mail and password (and, for a person with two-factor on, an authenticator's code) checked by
 * better-auth (lib/admin/staff-auth.ts) under the shop's limits, refusals and logs. Each answers
 * the page's form (application/x-www-form-urlencoded) with a 303 to /admin, its outcome in
 * `?error=`, and a JSON client with JSON. Nothing a client sends leads to a 500.
 */

/** Why /admin shows the sign-in form again; app/[lang]/admin/page.tsx has a sentence for each. */
export const SIGN_IN_ERRORS = [
  "wrong_password",
  "wrong_code",
  "rate_limited",
  "unavailable",
  "invalid_request",
] as const;
export type SignInError = (typeof SIGN_IN_ERRORS)[number];

const MAX_SIGN_IN_BYTES = 4096;
/**
 * `email` may be left out: then it is the owner's (ADMIN_EMAIL), so a script that signs in with
 * `{ password }` alone, as before people existed, still does. `next`: the page to go back to (the
 * sign-in form's hidden field), checked by safeAdminPath.
 */
const signInSchema = z.object({
  email: z
    .string()
    .trim()
    .max(320)
    .transform((value) => value || undefined)
    .optional(),
  password: z.string().min(1).max(MAX_STAFF_PASSWORD_LENGTH),
  next: z.string().max(2048).optional(),
});
const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[0-9]{6}$|^[A-Za-z0-9-]{8,24}$/),
  next: z.string().max(2048).optional(),
});

/** The sign-in form again, with the reason and the page it was to go back to. */
const backToSignIn = (error: SignInError, next: string | undefined, extra: Record<string, string> = {}) =>
  seeOther(`/admin?${new URLSearchParams({ error, ...extra, ...(next ? { expired: "1", next } : {}) })}`);

type Read<T> = { ok: true; value: T; next?: string } | { ok: false; response: Response; next?: string };

/** A sign-in form's or JSON body's fields by `schema`, or the answer to a request that carries none. */
async function readBody<T extends { next?: string }>(
  request: Request,
  schema: z.ZodType<T>,
  problem: string,
): Promise<Read<T>> {
  const body = await readFormOrJson(request, MAX_SIGN_IN_BYTES);
  if (!body.ok) return body;
  const next = safeAdminPath((body.input as { next?: unknown } | null)?.next);
  const parsed = schema.safeParse(body.input);
  if (!parsed.success) return { ok: false, next, response: jsonError(400, "invalid_request", problem) };
  return { ok: true, value: parsed.data, next };
}

const readSignIn = (request: Request) =>
  readBody(request, signInSchema, `send the password (1 to ${MAX_STAFF_PASSWORD_LENGTH} characters) and the e-mail`);
const readCode = (request: Request) =>
  readBody(request, codeSchema, "send the 6 digits of the authenticator app, or a backup code");

/** What the checks before the password or code decided: go on, or this answer. */
async function beforeAttempt(
  request: NextRequest,
  address: string,
): Promise<{ ok: true; auth: StaffAuth; form: boolean } | { ok: false; response: Response }> {
  const crossSite = refuseCrossSite(request);
  if (crossSite) return { ok: false, response: crossSite };
  const form = isFormPost(request);
  if (!form && !isJson(request)) {
    logUnboundedAttempt(address, { reason: "invalid_request" });
    return {
      ok: false,
      response: jsonError(415, "unsupported_media_type", "send application/x-www-form-urlencoded or application/json"),
    };
  }
  const auth = staffAuth();
  if (!auth) return { ok: false, response: form ? seeOther("/admin") : backOfficeOff() };
  // Every attempt counts, well-formed or not, before the password is looked at.
  const spent = await spendAttempt(address);
  if (!spent.ok) {
    const unavailable = spent.verdict.reason === "unavailable";
    logUnboundedAttempt(address, { reason: unavailable ? "limiter_unavailable" : "rate_limited", limit: spent.limit });
    if (!form)
      return {
        ok: false,
        response: limitRefusal(spent.verdict, "too many sign-in attempts; wait a minute and try again"),
      };
    // The page's form is told in a sentence, and keeps the page it was to go back to.
    const next = (await readFormOrJson(request, MAX_SIGN_IN_BYTES).catch(() => undefined)) as
      { ok: true; input: unknown } | undefined;
    return {
      ok: false,
      response: backToSignIn(
        unavailable ? "unavailable" : "rate_limited",
        safeAdminPath((next?.ok ? (next.input as { next?: unknown } | null) : null)?.next),
      ),
    };
  }
  return { ok: true, auth, form };
}

/** The answer to a right password or code: the session's cookie, the person's event, and where to go. */
async function signedIn(
  auth: StaffAuth,
  token: string,
  form: boolean,
  next: string | undefined,
  address: string,
): Promise<Response> {
  const actor = await actorOfSession(auth, token);
  if (!actor) {
    // better-auth let in someone the back office does not (a role this code does not know):
    // the session it opened is ended at once, and the answer is a wrong password's.
    await auth.api.signOut({ headers: libraryHeaders({ session: token }) });
    throw new NobodyToSignIn();
  }
  await recordStaffEvent(db(), actor, { kind: "sign_in.succeeded" });
  logAttempt("succeeded", address);
  const { appUrl } = getEnv();
  const response = form
    ? seeOther(next ?? "/admin")
    : NextResponse.json({ signedIn: true, person: { id: actor.id, name: actor.name, role: actor.role } });
  response.cookies.set(adminSessionCookie(token, appUrl));
  response.cookies.set(adminTwoFactorCookie("", appUrl, 0));
  return response;
}

/**
 * A refused password or code, recorded against the person the e-mail (or the pending two-factor
 * step) names, when it names one; never with what was typed.
 */
async function recordFailure(who: { email?: string; staffId?: string }, reason: string): Promise<void> {
  const where = who.staffId ? { id: who.staffId } : who.email ? { email: who.email.toLowerCase() } : undefined;
  const person = where ? await db().staff.findUnique({ where, select: { id: true, name: true } }) : null;
  await recordStaffEvent(db(), person, { kind: "sign_in.failed", details: { reason } });
}

/** The refusal of an unavailable sign-in: the sessions or the record cannot be written. */
function unavailableAnswer(form: boolean, next: string | undefined): Response {
  return form
    ? backToSignIn("unavailable", next)
    : jsonError(503, "unavailable", "the session cannot be recorded right now; try again soon", {
        "Retry-After": String(UNAVAILABLE_RETRY_SECONDS),
      });
}

/** A right password of a person the back office lets in nowhere (a role lib/admin/roles.ts does not name). */
class NobodyToSignIn extends Error {
  override name = "NobodyToSignIn";
}

/** better-auth's refusal of the credentials (wrong, unknown or disabled), or ours, told apart from a failure. */
const isRefusal = (error: unknown) =>
  error instanceof NobodyToSignIn || (error instanceof APIError && [400, 401, 403].includes(error.statusCode));

/**
 * POST /api/admin/session: a right e-mail and password open a session, or, for a person with
 * two-factor on, a ten-minute step that waits for the authenticator's code
 * (POST /api/admin/session/two-factor); anything else gets a 401 (or the form again), which
 * says the same for an unknown e-mail, a wrong password and a disabled person.
 */
export async function signIn(request: NextRequest): Promise<Response> {
  const address = addressOf(request);
  const before = await beforeAttempt(request, address);
  if (!before.ok) return before.response;
  const { auth, form } = before;
  const input = await readSignIn(request);
  if (!input.ok) {
    logAttempt("failed", address, { reason: "invalid_request" });
    return form ? backToSignIn("invalid_request", input.next) : input.response;
  }
  const admin = getEnv().admin!;
  const email = input.value.email ?? admin.ownerEmail;
  try {
    await ensureOwner(db(), auth, { email: admin.ownerEmail, password: admin.password });
    await pruneExpiredSessions(db());
    const { headers, response } = await auth.api.signInEmail({
      body: { email, password: input.value.password, rememberMe: true },
      headers: libraryHeaders({}),
      returnHeaders: true,
    });
    const cookies = libraryCookiesOf(headers);
    if ("twoFactorRedirect" in response && response.twoFactorRedirect) {
      if (!cookies.twoFactor) throw new Error("the two-factor step set no cookie");
      logAttempt("succeeded", address, { step: "two_factor" });
      const answer = form
        ? seeOther(`/admin?${new URLSearchParams({ step: "two-factor", ...(input.next ? { next: input.next } : {}) })}`)
        : NextResponse.json({ signedIn: false, twoFactorRequired: true });
      answer.cookies.set(adminTwoFactorCookie(cookies.twoFactor, getEnv().appUrl));
      return answer;
    }
    if (!cookies.session) throw new Error("the sign-in set no session cookie");
    return await signedIn(auth, cookies.session, form, input.next, address);
  } catch (error) {
    if (isRefusal(error)) {
      logAttempt("failed", address, { reason: "wrong_password" });
      await recordFailure({ email }, "wrong_password").catch(() => undefined);
      return form
        ? backToSignIn("wrong_password", input.next)
        : jsonError(401, "wrong_password", "wrong e-mail or password");
    }
    // The right password, perhaps, but no session can be recorded: refused, as when the attempts cannot be counted.
    logAttempt("failed", address, { reason: "session_unavailable", error: errorKind(error) });
    return unavailableAnswer(form, input.next);
  }
}

/**
 * POST /api/admin/session/two-factor: the code of the authenticator app (or a backup code) for a
 * sign-in waiting in the two-factor cookie; counted by the same limits as a password.
 */
export async function verifySignInCode(request: NextRequest): Promise<Response> {
  const address = addressOf(request);
  const before = await beforeAttempt(request, address);
  if (!before.ok) return before.response;
  const { auth, form } = before;
  const input = await readCode(request);
  const pending = request.cookies.get(adminCookieName(ADMIN_TWO_FACTOR_COOKIE, getEnv().appUrl))?.value;
  if (!input.ok || !pending) {
    logAttempt("failed", address, { reason: "invalid_request", step: "two_factor" });
    if (form)
      return backToSignIn(
        pending ? "invalid_request" : "wrong_code",
        input.next,
        pending ? { step: "two-factor" } : {},
      );
    return input.ok ? jsonError(401, "no_sign_in", "sign in with the e-mail and password first") : input.response;
  }
  const code = input.value.code;
  // Read before the code is checked: better-auth ends the step after too many wrong codes.
  const staffId = await staffIdOfTwoFactorStep(auth, pending).catch(() => undefined);
  try {
    const headers = libraryHeaders({ twoFactor: pending });
    const { headers: answer } = /^[0-9]{6}$/.test(code)
      ? await auth.api.verifyTOTP({ body: { code }, headers, returnHeaders: true })
      : await auth.api.verifyBackupCode({ body: { code }, headers, returnHeaders: true });
    const token = libraryCookiesOf(answer).session;
    if (!token) throw new Error("the code's check set no session cookie");
    return await signedIn(auth, token, form, input.next, address);
  } catch (error) {
    if (isRefusal(error)) {
      logAttempt("failed", address, { reason: "wrong_code", step: "two_factor" });
      await recordFailure({ staffId }, "wrong_code").catch(() => undefined);
      return form
        ? backToSignIn("wrong_code", input.next, { step: "two-factor" })
        : jsonError(401, "wrong_code", "wrong or expired code");
    }
    logAttempt("failed", address, { reason: "session_unavailable", error: errorKind(error), step: "two_factor" });
    return unavailableAnswer(form, input.next);
  }
}

/**
 * The person and session a request's cookie names (no `actor`: no live session), or undefined
 * without a cookie; never throws: `unreadable` holds the kind of error when the sessions could
 * not be read.
 */
async function sessionOf(
  request: NextRequest,
): Promise<{ auth: StaffAuth; token: string; actor?: Actor; unreadable?: string } | undefined> {
  const auth = staffAuth();
  const token = request.cookies.get(adminSessionCookieName(getEnv().appUrl))?.value;
  if (!auth || !token) return undefined;
  try {
    return { auth, token, actor: await actorOfSession(auth, token) };
  } catch (error) {
    return { auth, token, unreadable: errorKind(error) };
  }
}

/**
 * Sign-out (DELETE /api/admin/session, or the form's POST /api/admin/session/sign-out): the
 * session the cookie names is ended, so a copy of the cookie is no session either, and the
 * cookie is cleared. Without a valid cookie there is nothing to end, and the answer is the same.
 */
export async function signOut(request: NextRequest): Promise<Response> {
  const crossSite = refuseCrossSite(request);
  if (crossSite) return crossSite;
  const { appUrl } = getEnv();
  const session = await sessionOf(request);
  let ended = true;
  if (session?.unreadable) {
    // Whether the cookie names a live session cannot be told: it may, so it is not said ended.
    ended = false;
    logSession("error", "admin.sign_out_failed", addressOf(request), { error: session.unreadable });
  } else if (session?.actor) {
    try {
      await session.auth.api.signOut({ headers: libraryHeaders({ session: session.token }) });
      await recordStaffEvent(db(), session.actor, { kind: "sign_out" });
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
 * "Sign out everywhere" (POST /api/admin/session/sign-out-everywhere): every session of the
 * person signed in is ended, this one included: a cookie left on another computer, or copied,
 * is no session from now on. Only a signed-in request may do it.
 */
export async function signOutEverywhere(request: NextRequest): Promise<Response> {
  const refusal = (await refuseWithoutAdminSession(request)) ?? refuseCrossSite(request);
  if (refusal) return refusal;
  const session = (await sessionOf(request))!;
  const ended = await db().staffSession.deleteMany({ where: { staffId: session.actor!.id } });
  await recordStaffEvent(db(), session.actor!, { kind: "sign_out", details: { everywhere: true, ended: ended.count } });
  logSession("info", "admin.sign_out_everywhere", addressOf(request), { ended: ended.count });
  const response = isFormPost(request)
    ? seeOther("/admin?signedOut=everywhere")
    : NextResponse.json({ signedIn: false, ended: ended.count });
  response.cookies.set(clearedAdminSessionCookie(getEnv().appUrl));
  return response;
}

const addressOf = (request: Request) => clientAddress(request.headers, getEnv().clientAddress);
