import "server-only";
import type { NextRequest } from "next/server";
import { getEnv } from "../env";
import { jsonError } from "./json-error";
import { consoleLogger, errorKind } from "../log";
import { draftCookie, draftOf } from "./admin-draft";
import { answersWithRedirect, refuseCrossSite, seeOther } from "./admin-requests";
import { returnPathOf, withQueryParameter } from "./return-path";
import { mayCallRoute } from "../admin/roles";
import type { Actor } from "../admin/staff-events";
import { staffAuth, type StaffAuth } from "../admin/staff-auth";
import { staffSessionOf, adminSessionCookieName, type StaffSessionRead } from "../admin/staff-session";
import { backOfficeSettings, DEFAULT_SETTINGS, type BackOfficeSettings } from "../admin/settings";
import { blockedWithoutTwoFactor, TWO_FACTOR_PAGE } from "../admin/two-factor-gate";
import { db } from "../db/client";

/**
 * The guard of every admin API route: who is asking (a live session of an enabled person) and
 * whether their role may call this route (lib/admin/roles.ts, a route the table does not name
 * refused to everyone). A 404 JSON answer when the back office is off; without a session, a JSON
 * client gets a 401, and a browser (a form post, or opening an address such as the CSV export)
 * is sent to the sign-in, which then brings it back to the page it came from, with the form's
 * text fields to put back ({@link toSignIn}); a role that may not gets a 403; 503 when the
 * sessions cannot be read. While the owner requires two-factor sign-in, a person whose
 * authenticator is off gets a 403 `two_factor_required` from every route but their account's and
 * signing out (lib/admin/two-factor-gate.ts).
 */

export type AdminGuard = { ok: true; actor: Actor } | { ok: false; response: Response };

export async function guardAdminRoute(request: NextRequest): Promise<AdminGuard> {
  const auth = staffAuth();
  if (!auth) return { ok: false, response: backOfficeOff() };
  const { appUrl } = getEnv();
  let read: StaffSessionRead | undefined;
  let settings: BackOfficeSettings;
  try {
    ({ read, settings } = await staffSessionAndSettings(
      auth,
      request.cookies.get(adminSessionCookieName(appUrl))?.value,
    ));
  } catch (error) {
    consoleLogger("error", "admin.session_unavailable", { error: errorKind(error) });
    return {
      ok: false,
      response: jsonError(503, "unavailable", "the back office cannot read its sessions right now; try again soon", {
        "Retry-After": "5",
      }),
    };
  }
  if (!read) {
    if (answersWithRedirect(request) || isNavigation(request))
      return { ok: false, response: await toSignIn(request, appUrl) };
    return { ok: false, response: jsonError(401, "unauthorized", "sign in to the back office first") };
  }
  const { actor } = read;
  const path = request.nextUrl.pathname;
  if (!mayCallRoute(actor.role, path, request.method))
    return {
      ok: false,
      response: jsonError(403, "forbidden", `the ${actor.role} role may not do this; ask the shop's owner`),
    };
  if (blockedWithoutTwoFactor({ ...settings, twoFactorEnabled: read.twoFactorEnabled }, "route", path))
    return {
      ok: false,
      response: jsonError(
        403,
        "two_factor_required",
        `the shop's owner requires two-factor sign-in: turn it on at ${TWO_FACTOR_PAGE} first`,
      ),
    };
  return { ok: true, actor };
}

/**
 * The session a cookie carries and the owner's settings, read together: the settings are one
 * primary-key lookup beside the session's read, and only asked when there is a cookie.
 */
export async function staffSessionAndSettings(
  auth: StaffAuth,
  cookie: string | undefined,
): Promise<{ read: StaffSessionRead | undefined; settings: BackOfficeSettings }> {
  if (!cookie) return { read: undefined, settings: DEFAULT_SETTINGS };
  const [read, settings] = await Promise.all([staffSessionOf(auth, cookie), backOfficeSettings(db())]);
  return { read, settings };
}

/** The guard for a route that needs only the refusal: a Response, or undefined to go on. */
export async function refuseWithoutAdminSession(request: NextRequest): Promise<Response | undefined> {
  const guard = await guardAdminRoute(request);
  return guard.ok ? undefined : guard.response;
}

/** A browser opening the address itself (a link, the address bar), not a script or a fetch. */
const isNavigation = (request: Request) =>
  request.method === "GET" && request.headers.get("sec-fetch-mode") === "navigate";

/**
 * A browser whose session ended goes to the sign-in (`/admin?expired=1&next=…`), never to raw
 * JSON. `next` is the page it came from (its Referer, when that is one of this shop's back-office
 * pages; /admin otherwise). A form post's text fields go into a sealed draft cookie, named in
 * `next` (`?draft=<id>`), for the page to put back. Another site's post gets its 403 and no draft:
 * nothing it sends ends up in the owner's forms.
 */
async function toSignIn(request: NextRequest, appUrl: string): Promise<Response> {
  const crossSite = refuseCrossSite(request);
  if (crossSite) return crossSite;
  const page = returnPathOf(request.headers.get("referer"), appUrl, request.headers.get("host")) ?? "/admin";
  const draft = request.method === "GET" ? undefined : await draftOf(request);
  const next = draft ? withQueryParameter(page, "draft", draft.id) : page;
  const response = seeOther(`/admin?${new URLSearchParams({ expired: "1", next })}`);
  if (draft) response.cookies.set(await draftCookie(draft, getEnv().admin!, appUrl));
  return response;
}

/** What a back-office route answers while ADMIN_PASSWORD is unset. */
export function backOfficeOff(): Response {
  return jsonError(404, "back_office_off", "the back office is off: set ADMIN_PASSWORD (see README)");
}
