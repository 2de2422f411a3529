import "server-only";
import { z } from "zod";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { Rollback, rolledBack, type Refusal } from "../refusal";
import type { SqlRunner } from "../db/sql-runner";
import { invalidInput } from "../text-input";
import { recordStaffEvent, type Actor } from "./staff-events";

/**
 * The owner's settings of the back office: one row of `back_office_settings` at most (none: the
 * defaults). Today one setting: every person must sign in with an authenticator's code besides
 * the password (lib/admin/two-factor-gate.ts says what such a person may still open). It is read
 * on every back-office request, so {@link backOfficeSettings} is one primary-key lookup.
 */

export interface BackOfficeSettings {
  requireTwoFactor: boolean;
}

export const DEFAULT_SETTINGS: BackOfficeSettings = { requireTwoFactor: false };

/** The settings as they stand: one row by its primary key, or the defaults. */
export async function backOfficeSettings(database: SqlRunner): Promise<BackOfficeSettings> {
  const [row] = await database.$queryRaw<{ requireTwoFactor: boolean }[]>(
    Prisma.sql`SELECT require_two_factor AS "requireTwoFactor" FROM back_office_settings WHERE id`,
  );
  return row ?? DEFAULT_SETTINGS;
}

/** On or off: JSON's true/false, or a form's checkbox (a hidden "false" before the box's "on"; the last counts). */
export const formFlag = z.preprocess(
  (value) => {
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (last === "on" || last === "true" || last === "1") return true;
    if (last === "false" || last === "0" || last === "off") return false;
    return last;
  },
  z.boolean({ error: "must be true or false" }),
);

const settingsSchema = z.object({ requireTwoFactor: formFlag });

export const SETTINGS_DONE = ["settings_saved"] as const;
export const SETTINGS_ERRORS = ["invalid_input", "own_two_factor_off"] as const;
export const SETTINGS_FIELDS = ["requireTwoFactor"] as const;
type SettingsField = (typeof SETTINGS_FIELDS)[number];

type SettingsRefusal = Refusal<(typeof SETTINGS_ERRORS)[number], SettingsField> & { status: 400 | 409 };
export type SettingsResult = { ok: true; done: "settings_saved"; settings: BackOfficeSettings } | SettingsRefusal;

/**
 * Requiring two-factor while one's own is off would leave the owner, at once, with nothing but
 * their account's page: they turn theirs on first.
 */
const ownTwoFactorOff: SettingsRefusal = {
  ok: false,
  status: 409,
  code: "own_two_factor_off",
  message: "turn on your own two-factor sign-in (/admin/account) before requiring it of everyone",
  field: "requireTwoFactor",
};

/** The owner's new settings, recorded (`settings.update`) in the same transaction; a setting left as it was records nothing. */
export async function updateSettings(
  input: unknown,
  { db, actor }: { db: Database; actor: Actor },
): Promise<SettingsResult> {
  const parsed = settingsSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error, SETTINGS_FIELDS);
  const wanted = parsed.data;
  try {
    await db.$transaction(async (tx) => {
      // One writer at a time: the row may not exist yet, so the lock is on the setting itself.
      await tx.$queryRaw(Prisma.sql`SELECT pg_advisory_xact_lock(hashtext('back_office_settings'))::text`);
      const before = await backOfficeSettings(tx);
      if (before.requireTwoFactor === wanted.requireTwoFactor) return;
      if (wanted.requireTwoFactor) {
        const self = await tx.staff.findUnique({ where: { id: actor.id }, select: { twoFactorEnabled: true } });
        if (!self?.twoFactorEnabled) throw new Rollback(ownTwoFactorOff);
      }
      await tx.backOfficeSettings.upsert({
        where: { id: true },
        create: { id: true, requireTwoFactor: wanted.requireTwoFactor },
        update: { requireTwoFactor: wanted.requireTwoFactor },
      });
      await recordStaffEvent(tx, actor, {
        kind: "settings.update",
        subject: "settings",
        details: { requireTwoFactor: { from: before.requireTwoFactor, to: wanted.requireTwoFactor } },
      });
    });
    return { ok: true, done: "settings_saved", settings: wanted };
  } catch (error) {
    const refused = rolledBack<SettingsRefusal>(error);
    if (refused) return refused;
    throw error;
  }
}
