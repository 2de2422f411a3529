import "server-only";
import { randomBytes } from "node:crypto";
import { db, type Database } from "../db/client";
import { getEnv } from "../env";
import { consoleLogger, errorKind } from "../log";
import { staffAuth, type StaffAuth } from "./staff-auth";

/**
 * The first owner, from the environment: when the back office has no owner yet, ADMIN_EMAIL and
 * ADMIN_PASSWORD make one, so a shop deployed before people existed opens with the password it
 * always had. Once an owner exists, the environment makes nobody: people and passwords live in
 * the database (docs/back-office.md says what moved).
 */

/** The owner's name until they change it. */
export const FIRST_OWNER_NAME = "Dono";

/** better-auth's ids: random and URL-safe, as its own generator makes them. */
export const newStaffId = () => randomBytes(24).toString("base64url");

let ensured = false;

/**
 * Makes the first owner when there is none; does nothing (and asks nothing, after it once found
 * one) otherwise. Two instances starting together make one owner: the e-mail is unique, and the
 * loser of the race finds the winner's.
 */
export async function ensureOwner(
  database: Database,
  auth: StaffAuth,
  owner: { email: string; password: string },
): Promise<void> {
  if (ensured) return;
  if ((await database.staff.count({ where: { role: "owner" } })) > 0) {
    ensured = true;
    return;
  }
  const context = await auth.$context;
  const id = newStaffId();
  try {
    await database.staff.create({
      data: {
        id,
        name: FIRST_OWNER_NAME,
        email: owner.email,
        emailVerified: true,
        role: "owner",
        logins: {
          create: {
            id: newStaffId(),
            accountId: id,
            providerId: "credential",
            password: await context.password.hash(owner.password),
          },
        },
      },
    });
  } catch (error) {
    // Another instance made it meanwhile (the e-mail's unique index), or a person already has
    // this e-mail: either way there is an account, and nothing is overwritten.
    if ((error as { code?: string }).code !== "P2002") throw error;
  }
  ensured = true;
}

/**
 * The first owner at the server's start (instrumentation-node.ts), when the back office is on:
 * never throws, so neither the start nor the requests wait for it. A failure (the database not
 * reachable yet) is logged by its kind, and the first sign-in, which asks ensureOwner again,
 * makes the owner then.
 */
export async function ensureOwnerAtStart(): Promise<void> {
  try {
    const admin = getEnv().admin;
    const auth = staffAuth();
    if (!admin || !auth) return;
    await ensureOwner(db(), auth, { email: admin.ownerEmail, password: admin.password });
  } catch (error) {
    consoleLogger("warn", "admin.owner_unavailable", { error: errorKind(error) });
  }
}

/** For tests that empty the tables: the next call looks again. */
export function forgetOwnerCheck(): void {
  ensured = false;
}
