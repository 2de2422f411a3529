import "server-only";
import { Prisma } from "../generated/prisma/client";
import type { SqlExecutor, SqlRunner } from "../db/sql-runner";
import type { Role } from "./roles";

/**
 * Who did what in the back office: every change a person makes is a row of `staff_events`,
 * written by the change's own transaction (the change and its record commit or fail together),
 * and so is every sign-in, failed or not. The table is appended to, never edited: a trigger in
 * the database refuses an update or a deletion (prisma/migrations/20261223000000_staff_accounts).
 */

/** The person a request is made by, as the guard read it from the session (lib/http/admin-guard.ts). */
export interface Actor {
  id: string;
  name: string;
  email: string;
  role: Role;
}

/** Every kind of event, so that the activity page can offer them and a typo cannot invent one. */
export const STAFF_EVENT_KINDS = [
  "sign_in.succeeded",
  "sign_in.failed",
  "sign_out",
  "order.fulfilment",
  "order.note",
  "order.resolve",
  "order.refresh",
  "order.job_retry",
  "order.job_resolve",
  "order.refund",
  "order.refund_correction",
  "order.fulfil_after_cancel",
  "webhook.resolve",
  "product.create",
  "product.update",
  "product.archive",
  "product.restore",
  "product.stock",
  "product.options",
  "variant.create",
  "variant.update",
  "variant.archive",
  "variant.restore",
  "gallery.add",
  "gallery.update",
  "gallery.move",
  "gallery.delete",
  "category.create",
  "category.update",
  "category.delete",
  "catalogue.import",
  "promo_code.create",
  "promo_code.update",
  "delivery_zone.create",
  "delivery_zone.update",
  "pickup_point.create",
  "pickup_point.update",
  "person.create",
  "person.update",
  "account.password",
  "account.two_factor",
  "settings.update",
] as const;
export type StaffEventKind = (typeof STAFF_EVENT_KINDS)[number];

export interface StaffEventInput {
  kind: StaffEventKind;
  /** What it happened to: `order:<externalTransactionId>`, `product:<id>`. */
  subject?: string;
  /** What changed: the action's own fields, never a password or a code. */
  details?: Record<string, unknown>;
}

/** Fields that never go into a record, whatever an action passes. */
const SECRET_FIELDS = /pass(word)?|secret|code$|token/i;

function withoutSecrets(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(details).filter(([key, value]) => !SECRET_FIELDS.test(key) && value !== undefined),
  );
}

/**
 * The statement that records `event` by `actor` (null: an attempt nobody could be named for).
 * With `onlyFor`, a relation such as a CTE's `changed` rows, it records once for each of its rows
 * and not at all without one: a statement whose change is conditional (a compare and set) folds it
 * in as one more CTE, and a refused change records nothing.
 */
export function staffEventStatement(
  actor: Pick<Actor, "id" | "name"> | null,
  event: StaffEventInput,
  onlyFor?: Prisma.Sql,
): Prisma.Sql {
  const values = Prisma.sql`${actor?.id ?? null}::text, ${actor?.name ?? ""}::text, ${event.kind}::text,
            ${event.subject ?? null}::text, ${JSON.stringify(withoutSecrets(event.details ?? {}))}::jsonb`;
  return onlyFor
    ? Prisma.sql`
    INSERT INTO staff_events (staff_id, staff_name, kind, subject, details)
    SELECT ${values} FROM ${onlyFor}`
    : Prisma.sql`
    INSERT INTO staff_events (staff_id, staff_name, kind, subject, details)
    VALUES (${values})`;
}

/** Records `event` by `actor` on `tx`: call it inside the change's own transaction. */
export async function recordStaffEvent(
  tx: SqlExecutor,
  actor: Pick<Actor, "id" | "name"> | null,
  event: StaffEventInput,
): Promise<void> {
  await tx.$executeRaw(staffEventStatement(actor, event));
}

export interface StaffEventRow {
  id: string;
  createdAt: Date;
  staffId: string | null;
  staffName: string;
  kind: string;
  subject: string | null;
  details: Record<string, unknown>;
}

/** The events of one subject (an order's `order:<id>`), oldest first: for its page's timeline. */
export function eventsOfSubject(database: SqlRunner, subject: string): Promise<StaffEventRow[]> {
  return database.$queryRaw<StaffEventRow[]>(Prisma.sql`
    SELECT id::text, created_at AS "createdAt", staff_id AS "staffId", staff_name AS "staffName", kind, subject, details
    FROM staff_events WHERE subject = ${subject} ORDER BY created_at, id LIMIT 500`);
}

/**
 * The subjects of the catalogue's events: a product (its options, variants and gallery too), a
 * category, and the catalogue as a whole (a CSV import). Ids are UUIDs, which a route may be given
 * in either case: lower case here, so that one product is one subject.
 */
export const productSubject = (id: string) => `product:${id.toLowerCase()}`;
export const categorySubject = (id: string) => `category:${id.toLowerCase()}`;
export const CATALOGUE_SUBJECT = "catalogue";
