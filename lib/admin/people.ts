import "server-only";
import { randomInt } from "node:crypto";
import { z } from "zod";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/known-error";
import { Prisma } from "../generated/prisma/client";
import { Rollback, rolledBack, type Refusal } from "../refusal";
import { formOptional, hasNoNul, invalidInput, NO_NUL, requiredText } from "../text-input";
import { newStaffId } from "./owner";
import { isRole, ROLES, type Role } from "./roles";
import { formFlag } from "./settings";
import { MAX_STAFF_PASSWORD_LENGTH, MIN_STAFF_PASSWORD_LENGTH, type StaffAuth } from "./staff-auth";
import { recordStaffEvent, type Actor } from "./staff-events";

/**
 * The shop's people, as the owner manages them on /admin/people (app/api/admin/people): add a
 * person with a role and a password (the owner's, or one made up here and answered once), change
 * the role, disable and enable (better-auth's ban), reset the password. A disabled person, a new
 * role or a new password ends every session of that person in the change's own transaction, and
 * so does the change's record (`person.create`, `person.update`). The shop always keeps one
 * active owner: changes that touch owners are serialised, and the last one can be neither
 * disabled nor demoted. Passwords are hashed by better-auth's own hasher and never kept in clear.
 */

export const PEOPLE_PAGE = "/admin/people";

/** A person as the back office shows them. */
export interface Person {
  id: string;
  name: string;
  email: string;
  role: Role;
  /** Not disabled: may sign in. */
  active: boolean;
  twoFactorEnabled: boolean;
}

export const PEOPLE_LIMITS = { name: 100, email: 320 } as const;

export const PEOPLE_DONE = ["added", "saved"] as const;
export type PeopleDone = (typeof PEOPLE_DONE)[number];
export const PEOPLE_ERRORS = ["invalid_input", "email_taken", "last_owner"] as const;
export type PeopleError = (typeof PEOPLE_ERRORS)[number];
/** The form fields a refusal may name (?field=). */
export const PEOPLE_FIELDS = ["name", "email", "role", "password", "active"] as const;
export type PeopleField = (typeof PEOPLE_FIELDS)[number];

type PeopleRefusal = Refusal<PeopleError | "not_found", PeopleField> & { status: 400 | 404 | 409 };
/** `password`: the one made up here, answered this once and never again. */
export type PersonResult =
  { ok: true; done: PeopleDone; person: Person; password?: string; sessionsEnded: number } | PeopleRefusal;

const notFound: PeopleRefusal = { ok: false, status: 404, code: "not_found", message: "no such person" };
const emailTaken: PeopleRefusal = {
  ok: false,
  status: 409,
  code: "email_taken",
  message: "another person already has this e-mail",
  field: "email",
};
const lastOwner = (field: "role" | "active"): PeopleRefusal => ({
  ok: false,
  status: 409,
  code: "last_owner",
  message: "the shop's last active owner can be neither disabled nor made staff; make another person owner first",
  field,
});

/** A password a person is given: long enough, not trimmed (every character counts), no NUL. */
const passwordRule = z
  .string({ error: "must be a text" })
  .min(MIN_STAFF_PASSWORD_LENGTH, { error: `must have at least ${MIN_STAFF_PASSWORD_LENGTH} characters` })
  .max(MAX_STAFF_PASSWORD_LENGTH, { error: `must have at most ${MAX_STAFF_PASSWORD_LENGTH} characters` })
  .refine(hasNoNul, NO_NUL);

const roleRule = z.enum(ROLES, { error: `must be ${ROLES.map((role) => `"${role}"`).join(" or ")}` });

/** A new person: no password (absent, "" from the form's empty field, or null) is one made up here. */
const addSchema = z.object({
  name: requiredText(PEOPLE_LIMITS.name),
  email: z
    .string({ error: "is required" })
    .trim()
    .toLowerCase()
    .max(PEOPLE_LIMITS.email, { error: `must have at most ${PEOPLE_LIMITS.email} characters` })
    .pipe(z.email({ error: "must be an e-mail address" })),
  role: roleRule,
  password: formOptional(passwordRule),
});

/**
 * A change: any of the three. `password` "" (the reset form's empty field) is one made up here;
 * absent, the password stays.
 */
const updateSchema = z
  .object({
    role: roleRule.optional(),
    active: formFlag.optional(),
    password: z
      .string({ error: "must be a text" })
      .max(MAX_STAFF_PASSWORD_LENGTH, { error: `must have at most ${MAX_STAFF_PASSWORD_LENGTH} characters` })
      .refine(hasNoNul, NO_NUL)
      .refine((value) => value === "" || value.length >= MIN_STAFF_PASSWORD_LENGTH, {
        error: `must have at least ${MIN_STAFF_PASSWORD_LENGTH} characters, or be empty for one made up by the shop`,
      })
      .optional(),
  })
  .refine((input) => input.role !== undefined || input.active !== undefined || input.password !== undefined, {
    error: "send at least one of role, active and password",
  });

/** Lower-case letters and digits that cannot be mistaken for one another (no l, 1, o, 0). */
const GENERATED_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/**
 * A password for a person who is given one: four groups of five characters of 32 (100 bits),
 * easy to read out and type on a phone: `k7mq2-xw9ra-…`.
 */
export function generatePassword(): string {
  const group = () =>
    Array.from({ length: 5 }, () => GENERATED_ALPHABET[randomInt(GENERATED_ALPHABET.length)]).join("");
  return [group(), group(), group(), group()].join("-");
}

const personFields = { id: true, name: true, email: true, role: true, banned: true, twoFactorEnabled: true } as const;
type PersonRow = Prisma.StaffGetPayload<{ select: typeof personFields }>;

function personOf(row: PersonRow): Person {
  if (!isRole(row.role)) throw new Error("a person with a role the table does not know");
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    active: !row.banned,
    twoFactorEnabled: row.twoFactorEnabled,
  };
}

/** Everyone, owners first, then by name. */
export async function listPeople(db: Database): Promise<Person[]> {
  const rows = await db.staff.findMany({
    select: personFields,
    orderBy: [{ role: "asc" }, { name: "asc" }, { id: "asc" }],
  });
  return rows.map(personOf);
}

export interface PeopleDeps {
  db: Database;
  /** The back office's better-auth: its password hasher. */
  auth: StaffAuth;
  /** The owner making the change, for its record. */
  actor: Actor;
}

const hashOf = async (auth: StaffAuth, password: string) => (await auth.$context).password.hash(password);

/**
 * Every change to people takes this lock first, so that two of them never count the owners at the
 * same time (two owners demoting each other at once leave one).
 */
const lockPeople = (tx: Prisma.TransactionClient) =>
  tx.$queryRaw(Prisma.sql`SELECT pg_advisory_xact_lock(hashtext('staff.people'))::text`);

/** Adds a person, with the owner's password for them or one made up and answered once. */
export async function addPerson(input: unknown, { db, auth, actor }: PeopleDeps): Promise<PersonResult> {
  const parsed = addSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error, PEOPLE_FIELDS);
  const { name, email, role } = parsed.data;
  const generated = parsed.data.password === undefined ? generatePassword() : undefined;
  const hash = await hashOf(auth, parsed.data.password ?? generated!);
  const id = newStaffId();
  try {
    const row = await db.$transaction(async (tx) => {
      await lockPeople(tx);
      // Up front, so that a taken e-mail is a refusal, not a database error in the logs; the
      // unique index still refuses one taken meanwhile (the same 409).
      if (await tx.staff.findUnique({ where: { email }, select: { id: true } })) throw new Rollback(emailTaken);
      const created = await tx.staff.create({
        data: {
          id,
          name,
          email,
          role,
          logins: { create: { id: newStaffId(), accountId: id, providerId: "credential", password: hash } },
        },
        select: personFields,
      });
      await recordStaffEvent(tx, actor, {
        kind: "person.create",
        subject: `person:${id}`,
        details: { name, email, role, newCredential: generated ? "generated" : "set" },
      });
      return created;
    });
    return {
      ok: true,
      done: "added",
      person: personOf(row),
      sessionsEnded: 0,
      ...(generated ? { password: generated } : {}),
    };
  } catch (error) {
    return refusalOf(error);
  }
}

/**
 * Changes a person's role, turns them off or on, or gives them a new password (the owner's, or
 * one made up and answered once). A new role, a disabling or a new password ends all of their
 * sessions at once; the last active owner stays one (409 last_owner).
 */
export async function updatePerson(id: string, input: unknown, { db, auth, actor }: PeopleDeps): Promise<PersonResult> {
  // Ids are better-auth's (lib/admin/owner.ts newStaffId): anything else names nobody.
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) return notFound;
  const parsed = updateSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error, PEOPLE_FIELDS);
  const { role, active } = parsed.data;
  const generated = parsed.data.password === "" ? generatePassword() : undefined;
  const newPassword = parsed.data.password || generated;
  const hash = newPassword === undefined ? undefined : await hashOf(auth, newPassword);
  try {
    const outcome = await db.$transaction(async (tx) => {
      await lockPeople(tx);
      const current = await tx.staff.findUnique({ where: { id }, select: personFields });
      if (!current) throw new Rollback(notFound);
      const roleChanged = role !== undefined && role !== current.role;
      const activeChanged = active !== undefined && active === current.banned;
      const demotes = roleChanged && current.role === "owner";
      const disables = activeChanged && active === false;
      if (current.role === "owner" && !current.banned && (demotes || disables)) {
        const owners = await tx.staff.count({ where: { role: "owner", banned: false } });
        if (owners <= 1) throw new Rollback(lastOwner(demotes ? "role" : "active"));
      }
      if (!roleChanged && !activeChanged && hash === undefined) return { row: current, sessionsEnded: 0 };
      const row = await tx.staff.update({
        where: { id },
        data: {
          ...(roleChanged ? { role } : {}),
          ...(activeChanged ? { banned: !active, banReason: null, banExpires: null } : {}),
        },
        select: personFields,
      });
      if (hash !== undefined) {
        const replaced = await tx.staffLogin.updateMany({
          where: { staffId: id, providerId: "credential" },
          data: { password: hash },
        });
        if (replaced.count === 0)
          await tx.staffLogin.create({
            data: { id: newStaffId(), staffId: id, accountId: id, providerId: "credential", password: hash },
          });
      }
      // Whatever the person had open was opened under the old role or password: none of it stays.
      const sessionsEnded =
        roleChanged || disables || hash !== undefined
          ? (await tx.staffSession.deleteMany({ where: { staffId: id } })).count
          : 0;
      await recordStaffEvent(tx, actor, {
        kind: "person.update",
        subject: `person:${id}`,
        details: {
          ...(roleChanged ? { role: { from: current.role, to: role } } : {}),
          ...(activeChanged ? { active: { from: !current.banned, to: active } } : {}),
          ...(hash !== undefined ? { newCredential: generated ? "generated" : "set" } : {}),
          sessionsEnded,
        },
      });
      return { row, sessionsEnded };
    });
    return {
      ok: true,
      done: "saved",
      person: personOf(outcome.row),
      sessionsEnded: outcome.sessionsEnded,
      ...(generated ? { password: generated } : {}),
    };
  } catch (error) {
    return refusalOf(error);
  }
}

/** A write's error as the owner's refusal, or the error again when it is a fault. */
function refusalOf(error: unknown): PeopleRefusal {
  const refused = rolledBack<PeopleRefusal>(error);
  if (refused) return refused;
  if (isUniqueViolation(error)) return emailTaken;
  throw error;
}
