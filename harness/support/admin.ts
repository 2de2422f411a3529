import { createHmac, randomBytes } from "node:crypto";
import { NextRequest } from "next/server";
import { adminSessionCookieName } from "@/lib/admin/staff-session";
import { STAFF_SESSION_SECONDS, staffAuth } from "@/lib/admin/staff-auth";
import { ensureOwner, newStaffId } from "@/lib/admin/owner";
import type { Role } from "@/lib/admin/roles";
import type { Actor } from "@/lib/admin/staff-events";
import { db } from "@/lib/db/client";

/** Requests to the back office's API routes, as its pages (or another site, or nobody signed in) send them. */

export const ADMIN_APP = "http://localhost:3000";

/** The owner made from the suite's ADMIN_EMAIL and ADMIN_PASSWORD (harness/isolated-shop.ts), in `db()`'s database. */
export async function testOwner(): Promise<Actor> {
  await ensureOwner(db(), staffAuth()!, {
    email: process.env.ADMIN_EMAIL ?? "owner@shop.example",
    password: process.env.ADMIN_PASSWORD!,
  });
  const owner = await db().staff.findFirstOrThrow({ where: { role: "owner" }, orderBy: { createdAt: "asc" } });
  return { id: owner.id, name: owner.name, email: owner.email, role: "owner" };
}

/**
 * A person of `role` with a password, as the owner adds one: `staff` gets a new person each call
 * (named `name`), `owner` the suite's owner.
 */
export async function testPerson(
  role: Role = "staff",
  name = "Ana",
  password = "a staff password",
): Promise<Actor & { password: string }> {
  if (role === "owner") return { ...(await testOwner()), password: process.env.ADMIN_PASSWORD! };
  const context = await staffAuth()!.$context;
  const id = newStaffId();
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, ".")}.${id.slice(0, 8).toLowerCase()}@shop.example`;
  await db().staff.create({
    data: {
      id,
      name,
      email,
      role,
      logins: {
        create: {
          id: newStaffId(),
          accountId: id,
          providerId: "credential",
          password: await context.password.hash(password),
        },
      },
    },
  });
  return { id, name, email, role, password };
}

/**
 * The Cookie header of a live session of `person` (the owner by default), opened in `db()`'s
 * database as better-auth opens one: a row of staff_sessions, and its token signed with the
 * suite's ADMIN_SESSION_SECRET in the back office's cookie.
 */
export async function adminSessionCookie(person?: Pick<Actor, "id">): Promise<string> {
  const staffId = person?.id ?? (await testOwner()).id;
  const token = randomBytes(24).toString("base64url");
  await db().staffSession.create({
    data: {
      id: newStaffId(),
      staffId,
      token,
      expiresAt: new Date(Date.now() + STAFF_SESSION_SECONDS * 1000),
    },
  });
  const signature = createHmac("sha256", process.env.ADMIN_SESSION_SECRET!).update(token).digest("base64");
  return `${adminSessionCookieName(ADMIN_APP)}=${encodeURIComponent(`${token}.${signature}`)}`;
}

export interface AdminCaller {
  method?: string;
  /** Signed in (as the owner, or as this person) unless false. */
  session?: boolean | Pick<Actor, "id">;
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
  if (caller.session !== false)
    headers.set("cookie", await adminSessionCookie(typeof caller.session === "object" ? caller.session : undefined));
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
