import "server-only";
import { cookies } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { getEnv } from "../env";
import { consoleLogger, errorKind } from "../log";
import { draftCookieName, unsealDraft, type AdminDraft } from "./admin-draft";
import { mayOpenPage } from "../admin/roles";
import type { Actor } from "../admin/staff-events";
import { staffAuth } from "../admin/staff-auth";
import { adminSessionCookieName, type StaffSessionRead } from "../admin/staff-session";
import type { BackOfficeSettings } from "../admin/settings";
import { blockedWithoutTwoFactor, TWO_FACTOR_PAGE } from "../admin/two-factor-gate";
import { staffSessionAndSettings } from "./admin-route-guard";

/**
 * The back office's guards for pages: every admin page but /admin itself starts with
 * `await requireStaff("/admin/…")` (its path as lib/admin/roles.ts names it), which sends a
 * signed-out browser to the sign-in and answers a role that may not open the page with the
 * back office's 403 page; while the owner requires two-factor sign-in, a person whose
 * authenticator is off is sent to their account's page to turn it on. API routes use
 * ./admin-route-guard.ts.
 */

export { guardAdminRoute, refuseWithoutAdminSession } from "./admin-route-guard";

export type AdminState = "off" | "signed-out" | "signed-in";

/**
 * The session signed in on this request (the person, whether their authenticator is on) and the
 * owner's settings, or undefined; asked once per render. Throws when the sessions cannot be read.
 */
export const currentStaffSession = cache(
  async (): Promise<(StaffSessionRead & { settings: BackOfficeSettings }) | undefined> => {
    const auth = staffAuth();
    if (!auth) return undefined;
    const value = (await cookies()).get(adminSessionCookieName(getEnv().appUrl))?.value;
    try {
      const { read, settings } = await staffSessionAndSettings(auth, value);
      return read && { ...read, settings };
    } catch (error) {
      consoleLogger("error", "admin.session_unavailable", { error: errorKind(error) });
      throw error;
    }
  },
);

/** The person signed in on this request, or undefined; asked once per render. Throws when the sessions cannot be read. */
export const currentStaff = cache(async (): Promise<Actor | undefined> => (await currentStaffSession())?.actor);

/** For pages: the back office is off, or the request has no live session, or it has one. */
export const adminState = cache(async (): Promise<AdminState> => {
  if (!staffAuth()) return "off";
  return (await currentStaff()) ? "signed-in" : "signed-out";
});

/**
 * The guard of every admin page (/admin itself once signed in): the person, or the sign-in, or
 * the 403 page, or (while the owner requires two-factor sign-in and theirs is off) their
 * account's page with a notice.
 */
export async function requireStaff(pagePath: string): Promise<Actor> {
  const found = await currentStaffSession();
  if (!found) redirect("/admin");
  const { actor } = found;
  if (!mayOpenPage(actor.role, pagePath)) forbidden();
  if (blockedWithoutTwoFactor({ ...found.settings, twoFactorEnabled: found.twoFactorEnabled }, "page", pagePath))
    redirect(`${TWO_FACTOR_PAGE}?notice=two_factor_required`);
  return actor;
}

/** For the back office's pages: the draft of a form refused for an ended session, once signed in again. */
export async function pendingDraft(): Promise<AdminDraft | undefined> {
  const admin = getEnv().admin;
  if (!admin || !(await currentStaff())) return undefined;
  return unsealDraft((await cookies()).get(draftCookieName(getEnv().appUrl))?.value, admin);
}
