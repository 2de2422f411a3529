import { NextRequest } from "next/server";
import { adminSessionCookieName, startAdminSession } from "@/lib/admin/session";
import { db } from "@/lib/db/client";

/** Requests to the back office's API routes, as its pages (or another site, or nobody signed in) send them. */

export const ADMIN_APP = "http://localhost:3000";

/**
 * The Cookie header of a live session for the suite's ADMIN_PASSWORD and ADMIN_SESSION_SECRET
 * (harness/isolated-shop.ts): a session opened in `db()`'s database (the suite's, or the one a
 * test file points `db()` at), as a sign-in opens it.
 */
export const adminSessionCookie = async () =>
  `${adminSessionCookieName(ADMIN_APP)}=${await startAdminSession(db(), {
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
  /** A multipart form of these fields and one `image` file (an empty one when absent), as a file input posts it. */
  multipart?: { fields: Record<string, string>; image?: Buffer; imageName?: string };
  /** Any other body, with its Content-Type. */
  raw?: { body: string; contentType: string };
  /** The Accept header, e.g. a multipart client that wants JSON. */
  accept?: string;
  /** More headers (Referer, Sec-Fetch-Mode…). */
  headers?: Record<string, string>;
}

export async function adminRequest(path: string, caller: AdminCaller = {}): Promise<NextRequest> {
  const headers = new Headers({ origin: caller.crossSite ? "https://evil.example" : ADMIN_APP });
  if (caller.session !== false) headers.set("cookie", await adminSessionCookie());
  if (caller.accept) headers.set("accept", caller.accept);
  for (const [name, value] of Object.entries(caller.headers ?? {})) headers.set(name, value);
  let body: BodyInit | undefined;
  if (caller.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(caller.form).toString();
  } else if (caller.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(caller.json);
  } else if (caller.multipart) {
    const { fields, image, imageName } = caller.multipart;
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    form.set("image", new File(image ? [new Uint8Array(image)] : [], image ? (imageName ?? "photo.png") : ""));
    body = form;
  } else if (caller.raw) {
    headers.set("content-type", caller.raw.contentType);
    body = caller.raw.body;
  }
  return new NextRequest(`${ADMIN_APP}${path}`, { method: caller.method ?? "POST", headers, body });
}
