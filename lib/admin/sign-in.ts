import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { refuseOverClientLimit } from "../client-limits";
import { getEnv } from "../env";
import { jsonError } from "../http";
import { isFormPost, isJson, readFormOrJson, refuseCrossSite, seeOther } from "./requests";
import {
  adminConfig,
  adminSessionCookie,
  backOfficeOff,
  clearedAdminSessionCookie,
  passwordMatches,
  sealAdminSession,
} from "./session";

/**
 * Signing in and out of the back office, for the route handlers under app/api/admin/session.
 * Both answer the sign-in form (application/x-www-form-urlencoded) with a 303 to /admin, its
 * outcome in `?error=`, and a JSON client with JSON. Nothing a client sends leads to a 500.
 */

/** Why /admin shows the sign-in form again; app/admin/page.tsx has a sentence for each. */
export const SIGN_IN_ERRORS = ["wrong_password", "rate_limited", "invalid_request"] as const;
export type SignInError = (typeof SIGN_IN_ERRORS)[number];

const MAX_SIGN_IN_BYTES = 4096;
const signInSchema = z.object({ password: z.string().min(1).max(1024) });

const backToSignIn = (error: SignInError) => seeOther(`/admin?error=${error}`);

/** The password a sign-in request carries, or the answer to a request that carries none. */
async function readPassword(
  request: Request,
): Promise<{ ok: true; password: string } | { ok: false; response: Response }> {
  const body = await readFormOrJson(request, MAX_SIGN_IN_BYTES);
  if (!body.ok) return body;
  const parsed = signInSchema.safeParse(body.input);
  if (!parsed.success)
    return { ok: false, response: jsonError(400, "invalid_request", "send the password, 1 to 1024 characters") };
  return { ok: true, password: parsed.data.password };
}

/** POST /api/admin/session: a right password gets the session cookie; a wrong one a 401 (or the form again). */
export async function signIn(request: NextRequest): Promise<Response> {
  const crossSite = refuseCrossSite(request);
  if (crossSite) return crossSite;
  const form = isFormPost(request);
  if (!form && !isJson(request))
    return jsonError(415, "unsupported_media_type", "send application/x-www-form-urlencoded or application/json");
  const admin = adminConfig();
  if (!admin) return form ? seeOther("/admin") : backOfficeOff();
  const { appUrl, rateLimits } = getEnv();
  // Every attempt counts, well-formed or not, before the password is looked at.
  const limited = await refuseOverClientLimit(request, {
    name: "admin-sign-in",
    pointsPerMinute: rateLimits.adminSignInPerMinute,
    message: "too many sign-in attempts from this address; wait a minute and try again",
  });
  if (limited) return form ? backToSignIn("rate_limited") : limited;
  const input = await readPassword(request);
  if (!input.ok) return form ? backToSignIn("invalid_request") : input.response;
  if (!passwordMatches(input.password, admin.password))
    return form ? backToSignIn("wrong_password") : jsonError(401, "wrong_password", "wrong password");

  const response = form ? seeOther("/admin") : NextResponse.json({ signedIn: true });
  response.cookies.set(adminSessionCookie(await sealAdminSession(admin), appUrl));
  return response;
}

/** Sign-out (DELETE /api/admin/session, or the form's POST /api/admin/session/sign-out): the cookie is cleared. */
export function signOut(request: NextRequest): Response {
  const crossSite = refuseCrossSite(request);
  if (crossSite) return crossSite;
  const response = isFormPost(request) ? seeOther("/admin") : NextResponse.json({ signedIn: false });
  response.cookies.set(clearedAdminSessionCookie(getEnv().appUrl));
  return response;
}
