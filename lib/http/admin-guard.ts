import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { dbPool } from "../db/client";
import { pgRunner } from "../db/sql-runner";
import { getEnv } from "../env";
import { draftCookieName, unsealDraft, type AdminDraft } from "./admin-draft";
import { adminConfig, adminSessionCookieName, liveAdminSession } from "../admin/session";

/**
 * The back office's guards: every admin page but /admin itself starts with
 * `await requireAdminSession()`, every admin API route with `refuseWithoutAdminSession(request)`
 * (./admin-route-guard.ts, without Next's page APIs, so that ./admin-sign-in.ts can use it too).
 */

export { refuseWithoutAdminSession } from "./admin-route-guard";

export type AdminState = "off" | "signed-out" | "signed-in";

/** For pages: the back office is off, or the request has no live session, or it has one. Asked once per render. */
export const adminState = cache(async (): Promise<AdminState> => {
  const admin = adminConfig();
  if (!admin) return "off";
  const value = (await cookies()).get(adminSessionCookieName(getEnv().appUrl))?.value;
  return (await liveAdminSession(pgRunner(dbPool()), value, admin)) ? "signed-in" : "signed-out";
});

/** The guard of every admin page but /admin itself: without a live session, to the sign-in at /admin. */
export async function requireAdminSession(): Promise<void> {
  if ((await adminState()) !== "signed-in") redirect("/admin");
}

/** For the back office's pages: the draft of a form refused for an ended session, once signed in again. */
export async function pendingDraft(): Promise<AdminDraft | undefined> {
  const admin = adminConfig();
  if (!admin || (await adminState()) !== "signed-in") return undefined;
  return unsealDraft((await cookies()).get(draftCookieName(getEnv().appUrl))?.value, admin);
}
