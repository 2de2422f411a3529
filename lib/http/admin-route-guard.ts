import "server-only";
import type { NextRequest } from "next/server";
import { dbPool } from "../db/client";
import { pgRunner } from "../db/sql-runner";
import { getEnv } from "../env";
import { jsonError } from "./json-error";
import { consoleLogger, errorKind } from "../log";
import { draftCookie, draftOf } from "./admin-draft";
import { answersWithRedirect, refuseCrossSite, seeOther } from "./admin-requests";
import { returnPathOf, withQueryParameter } from "./return-path";
import { adminConfig, adminSessionCookieName, liveAdminSession, type AdminConfig } from "../admin/session";

/**
 * The guard of every admin API route: a 404 JSON answer when the back office is off, and
 * undefined when the request has a live session and may go on. Without one, a JSON client gets
 * a 401, and a browser (a form post, or opening an address such as the CSV export) is sent to
 * the sign-in, which then brings it back to the page it came from, with the form's text fields
 * to put back ({@link toSignIn}). 503 when the sessions cannot be read.
 */
export async function refuseWithoutAdminSession(request: NextRequest): Promise<Response | undefined> {
  const admin = adminConfig();
  if (!admin) return backOfficeOff();
  const { appUrl } = getEnv();
  try {
    if (await liveAdminSession(pgRunner(dbPool()), request.cookies.get(adminSessionCookieName(appUrl))?.value, admin))
      return undefined;
  } catch (error) {
    consoleLogger("error", "admin.session_unavailable", { error: errorKind(error) });
    return jsonError(503, "unavailable", "the back office cannot read its sessions right now; try again soon", {
      "Retry-After": "5",
    });
  }
  if (answersWithRedirect(request) || isNavigation(request)) return toSignIn(request, admin, appUrl);
  return jsonError(401, "unauthorized", "sign in to the back office first");
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
async function toSignIn(request: NextRequest, admin: AdminConfig, appUrl: string): Promise<Response> {
  const crossSite = refuseCrossSite(request);
  if (crossSite) return crossSite;
  const page = returnPathOf(request.headers.get("referer"), appUrl, request.headers.get("host")) ?? "/admin";
  const draft = request.method === "GET" ? undefined : await draftOf(request);
  const next = draft ? withQueryParameter(page, "draft", draft.id) : page;
  const response = seeOther(`/admin?${new URLSearchParams({ expired: "1", next })}`);
  if (draft) response.cookies.set(await draftCookie(draft, admin, appUrl));
  return response;
}

/** What a back-office route answers while ADMIN_PASSWORD is unset. */
export function backOfficeOff(): Response {
  return jsonError(404, "back_office_off", "the back office is off: set ADMIN_PASSWORD (see README)");
}
