import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { NextRequest } from "next/server";
import { jsonError } from "../http";
import { ADMIN_SESSION_COOKIE, adminConfig, backOfficeOff, isAdminSession } from "./session";

/**
 * The back office's guards, one for pages and one for API routes: every admin page but /admin
 * itself starts with `await requireAdminSession()`, every admin API route with
 * `refuseWithoutAdminSession(request)` (and every mutation with `refuseCrossSite`, ./requests.ts).
 */

export type AdminState = "off" | "signed-out" | "signed-in";

/** For pages: the back office is off, or the request has no live session, or it has one. */
export async function adminState(): Promise<AdminState> {
  const admin = adminConfig();
  if (!admin) return "off";
  const value = (await cookies()).get(ADMIN_SESSION_COOKIE)?.value;
  return (await isAdminSession(value, admin)) ? "signed-in" : "signed-out";
}

/** The guard of every admin page but /admin itself: without a live session, to the sign-in at /admin. */
export async function requireAdminSession(): Promise<void> {
  if ((await adminState()) !== "signed-in") redirect("/admin");
}

/**
 * The guard of every admin API route: a 404 JSON answer when the back office is off, 401
 * without a live session, undefined when the request may go on.
 */
export async function refuseWithoutAdminSession(request: NextRequest): Promise<Response | undefined> {
  const admin = adminConfig();
  if (!admin) return backOfficeOff();
  if (await isAdminSession(request.cookies.get(ADMIN_SESSION_COOKIE)?.value, admin)) return undefined;
  return jsonError(401, "unauthorized", "sign in to the back office first");
}
