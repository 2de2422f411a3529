import { NextRequest } from "next/server";
import { sealAdminSession } from "@/lib/admin/session";

/** Requests to the back office's API routes, as its pages (or another site, or nobody signed in) send them. */

export const ADMIN_APP = "http://localhost:3000";

/** A live admin_session cookie for the suite's ADMIN_PASSWORD and ADMIN_SESSION_SECRET (scripts/lib/isolated-shop.ts). */
export const adminSessionCookie = async () =>
  `admin_session=${await sealAdminSession({
    password: process.env.ADMIN_PASSWORD!,
    sessionSecret: process.env.ADMIN_SESSION_SECRET!,
  })}`;

export interface AdminCaller {
  method?: string;
  /** Signed in unless false. */
  session?: boolean;
  /** Origin: another site's instead of the shop's. */
  crossSite?: boolean;
  /** A form post of these fields (answered with a 303). */
  form?: Record<string, string>;
  /** A JSON body (answered with JSON). */
  json?: unknown;
}

export async function adminRequest(path: string, caller: AdminCaller = {}): Promise<NextRequest> {
  const headers = new Headers({ origin: caller.crossSite ? "https://evil.example" : ADMIN_APP });
  if (caller.session !== false) headers.set("cookie", await adminSessionCookie());
  let body: string | undefined;
  if (caller.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(caller.form).toString();
  } else if (caller.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(caller.json);
  }
  return new NextRequest(`${ADMIN_APP}${path}`, { method: caller.method ?? "POST", headers, body });
}
