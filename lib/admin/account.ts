import "server-only";
import { APIError } from "better-auth/api";
import { z } from "zod";
import type { Database } from "../db/client";
import { consumeRateLimit } from "../db/rate-limit";
import { getEnv } from "../env";
import type { Refusal } from "../refusal";
import { hasNoNul, invalidInput, NO_NUL } from "../text-input";
import { backOfficeSettings } from "./settings";
import { MAX_STAFF_PASSWORD_LENGTH, MIN_STAFF_PASSWORD_LENGTH, type StaffAuth } from "./staff-auth";
import { recordStaffEvent, type Actor } from "./staff-events";
import { libraryCookiesOf, libraryHeaders } from "./staff-session";

/**
 * A person's own account on /admin/account (app/api/admin/account): a new password, given with
 * the one they have, which ends their other sessions; and two-factor sign-in with an
 * authenticator app, through better-auth's two-factor plugin: turned on with the password (the
 * app's secret, as an otpauth:// address), confirmed by the app's first code (then the backup
 * codes are shown, once), turned off with the password. Every guess at a password or a code
 * counts against the person's own limit, which fails closed like the sign-in's.
 */

export const ACCOUNT_PAGE = "/admin/account";

export const ACCOUNT_DONE = ["password_changed", "two_factor_started", "two_factor_on", "two_factor_off"] as const;
export type AccountDone = (typeof ACCOUNT_DONE)[number];
export const ACCOUNT_ERRORS = [
  "invalid_input",
  "wrong_password",
  "wrong_code",
  "two_factor_on_already",
  "two_factor_not_started",
  "two_factor_required",
  "rate_limited",
  "unavailable",
] as const;
export type AccountError = (typeof ACCOUNT_ERRORS)[number];
export const ACCOUNT_FIELDS = ["currentPassword", "newPassword", "password", "code", "action"] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];

type AccountRefusal = Refusal<AccountError, AccountField>;

const wrongPassword = (field: "currentPassword" | "password"): AccountRefusal => ({
  ok: false,
  status: 400,
  code: "wrong_password",
  message: "the password is not this person's",
  field,
});
const wrongCode: AccountRefusal = {
  ok: false,
  status: 400,
  code: "wrong_code",
  message: "wrong or expired code: type the 6 digits the app shows now",
  field: "code",
};
const alreadyOn: AccountRefusal = {
  ok: false,
  status: 409,
  code: "two_factor_on_already",
  message: "two-factor sign-in is on already; turn it off first to set up another app",
};
const notStarted: AccountRefusal = {
  ok: false,
  status: 409,
  code: "two_factor_not_started",
  message: "turn two-factor sign-in on with the password first (action: enable)",
};
const required: AccountRefusal = {
  ok: false,
  status: 409,
  code: "two_factor_required",
  message: "the shop's owner requires two-factor sign-in of everyone: it cannot be turned off",
};

const currentPasswordRule = z
  .string({ error: "is required" })
  .min(1, { error: "is required" })
  .max(MAX_STAFF_PASSWORD_LENGTH, { error: `must have at most ${MAX_STAFF_PASSWORD_LENGTH} characters` });

const passwordSchema = z
  .object({
    currentPassword: currentPasswordRule,
    newPassword: z
      .string({ error: "is required" })
      .min(MIN_STAFF_PASSWORD_LENGTH, { error: `must have at least ${MIN_STAFF_PASSWORD_LENGTH} characters` })
      .max(MAX_STAFF_PASSWORD_LENGTH, { error: `must have at most ${MAX_STAFF_PASSWORD_LENGTH} characters` })
      .refine(hasNoNul, NO_NUL),
  })
  .refine((input) => input.newPassword !== input.currentPassword, {
    path: ["newPassword"],
    error: "must differ from the current password",
  });

const twoFactorSchema = z.discriminatedUnion(
  "action",
  [
    z.object({ action: z.literal("enable"), password: currentPasswordRule }),
    z.object({
      action: z.literal("confirm"),
      code: z
        .string({ error: "is required" })
        .trim()
        .regex(/^[0-9]{6}$/, { error: "must be the 6 digits the app shows" }),
    }),
    z.object({ action: z.literal("disable"), password: currentPasswordRule }),
  ],
  { error: 'must be "enable", "confirm" or "disable"' },
);

/**
 * One guess at a password or a code, counted per person like the sign-in's per address: refused
 * over the limit, and refused too when the counters cannot be reached.
 */
async function spendGuess(actor: Actor): Promise<AccountRefusal | undefined> {
  const verdict = await consumeRateLimit("admin-account", actor.id, {
    pointsPerMinute: getEnv().rateLimits.adminSignInPerMinute,
    failClosed: true,
  });
  if (verdict.ok) return undefined;
  return verdict.reason === "unavailable"
    ? { ok: false, status: 503, code: "unavailable", message: "attempts cannot be counted right now; try again soon" }
    : { ok: false, status: 429, code: "rate_limited", message: "too many attempts; wait a minute and try again" };
}

/** Whether `password` is the person's own (better-auth's hash of it, checked by its own verifier). */
async function isOwnPassword(db: Database, auth: StaffAuth, staffId: string, password: string): Promise<boolean> {
  const login = await db.staffLogin.findFirst({
    where: { staffId, providerId: "credential" },
    select: { password: true },
  });
  if (!login?.password) return false;
  return (await auth.$context).password.verify({ hash: login.password, password });
}

export interface AccountDeps {
  db: Database;
  auth: StaffAuth;
  /** The person signed in, changing their own account. */
  actor: Actor;
  /** Their session: its row (kept by a new password, which ends the others) and the cookie's signed token. */
  session: { id: string; expiresAt: Date; cookie: string };
}

export type PasswordResult = { ok: true; done: "password_changed"; otherSessionsEnded: number } | AccountRefusal;

/** A new password for oneself, given with the current one; every other session of the person ends. */
export async function changeOwnPassword(
  input: unknown,
  { db, auth, actor, session }: AccountDeps,
): Promise<PasswordResult> {
  const parsed = passwordSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error, ACCOUNT_FIELDS);
  const spent = await spendGuess(actor);
  if (spent) return spent;
  if (!(await isOwnPassword(db, auth, actor.id, parsed.data.currentPassword))) return wrongPassword("currentPassword");
  const hash = await (await auth.$context).password.hash(parsed.data.newPassword);
  const otherSessionsEnded = await db.$transaction(async (tx) => {
    await tx.staffLogin.updateMany({
      where: { staffId: actor.id, providerId: "credential" },
      data: { password: hash },
    });
    const ended = await tx.staffSession.deleteMany({ where: { staffId: actor.id, NOT: { id: session.id } } });
    await recordStaffEvent(tx, actor, {
      kind: "account.password",
      subject: `person:${actor.id}`,
      details: { otherSessionsEnded: ended.count },
    });
    return ended.count;
  });
  return { ok: true, done: "password_changed", otherSessionsEnded };
}

export type TwoFactorResult =
  /** Turned on, waiting for the app's first code: the app's secret as an otpauth:// address. */
  | { ok: true; done: "two_factor_started"; totpURI: string }
  /** Confirmed: the session better-auth opened in place of the old one, and the backup codes, to show once. */
  | { ok: true; done: "two_factor_on"; sessionCookie: string; backupCodes: string[] }
  | { ok: true; done: "two_factor_off" }
  | AccountRefusal;

const isTwoFactorOn = async (db: Database, staffId: string) =>
  (await db.staff.findUnique({ where: { id: staffId }, select: { twoFactorEnabled: true } }))?.twoFactorEnabled ===
  true;

/** better-auth's refusal, by its HTTP status and code; anything else is a fault and is thrown again. */
function libraryRefusal(error: unknown): { status: number; code?: string } {
  if (!(error instanceof APIError)) throw error;
  if (error.statusCode >= 500) throw error;
  return { status: error.statusCode, code: (error.body as { code?: string } | undefined)?.code };
}

/** Two-factor sign-in: `{ action: "enable", password }`, then `{ action: "confirm", code }`; `{ action: "disable", password }`. */
export async function changeOwnTwoFactor(input: unknown, deps: AccountDeps): Promise<TwoFactorResult> {
  const parsed = twoFactorSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error, ACCOUNT_FIELDS);
  const spent = await spendGuess(deps.actor);
  if (spent) return spent;
  const body = parsed.data;
  if (body.action === "enable") return startTwoFactor(body.password, deps);
  if (body.action === "confirm") return confirmTwoFactor(body.code, deps);
  return stopTwoFactor(body.password, deps);
}

async function startTwoFactor(password: string, { db, auth, actor, session }: AccountDeps): Promise<TwoFactorResult> {
  if (await isTwoFactorOn(db, actor.id)) return alreadyOn;
  try {
    // A new secret each time, until the app's first code confirms one (the last one asked).
    const answer = await auth.api.enableTwoFactor({
      body: { password },
      headers: libraryHeaders({ session: session.cookie }),
    });
    if (!("totpURI" in answer) || !answer.totpURI) throw new Error("two-factor was turned on without a secret");
    return { ok: true, done: "two_factor_started", totpURI: answer.totpURI };
  } catch (error) {
    const refused = libraryRefusal(error);
    if (refused.code === "TOTP_ALREADY_ENABLED") return alreadyOn;
    if (refused.status === 400) return wrongPassword("password");
    throw error;
  }
}

async function confirmTwoFactor(code: string, { db, auth, actor, session }: AccountDeps): Promise<TwoFactorResult> {
  if (await isTwoFactorOn(db, actor.id)) return alreadyOn;
  let sessionCookie: string | undefined;
  try {
    const { headers } = await auth.api.verifyTOTP({
      body: { code },
      headers: libraryHeaders({ session: session.cookie }),
      returnHeaders: true,
    });
    // better-auth turns two-factor on and opens a session in place of this one.
    sessionCookie = libraryCookiesOf(headers).session;
  } catch (error) {
    const refused = libraryRefusal(error);
    if (refused.status === 401) return wrongCode;
    if (refused.code === "TOTP_NOT_ENABLED") return notStarted;
    throw error;
  }
  if (!sessionCookie) throw new Error("two-factor was confirmed without a new session");
  // The signed cookie is `<token>.<signature>`; the token has no dot.
  const token = sessionCookie.split(".")[0]!;
  await db.$transaction(async (tx) => {
    // The new session ends when the old one would have: eight hours from the sign-in, not from now.
    await tx.staffSession.updateMany({ where: { token, staffId: actor.id }, data: { expiresAt: session.expiresAt } });
    await recordStaffEvent(tx, actor, {
      kind: "account.two_factor",
      subject: `person:${actor.id}`,
      details: { enabled: true },
    });
  });
  const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId: actor.id } });
  return { ok: true, done: "two_factor_on", sessionCookie, backupCodes };
}

async function stopTwoFactor(password: string, { db, auth, actor }: AccountDeps): Promise<TwoFactorResult> {
  if ((await backOfficeSettings(db)).requireTwoFactor) return required;
  if (!(await isOwnPassword(db, auth, actor.id, password))) return wrongPassword("password");
  await db.$transaction(async (tx) => {
    const turnedOff = await tx.staff.updateMany({
      where: { id: actor.id, twoFactorEnabled: true },
      data: { twoFactorEnabled: false },
    });
    // A secret set up and never confirmed goes too.
    await tx.staffTwoFactor.deleteMany({ where: { staffId: actor.id } });
    if (turnedOff.count === 0) return;
    await recordStaffEvent(tx, actor, {
      kind: "account.two_factor",
      subject: `person:${actor.id}`,
      details: { enabled: false },
    });
  });
  return { ok: true, done: "two_factor_off" };
}
