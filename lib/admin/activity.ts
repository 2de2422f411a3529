import "server-only";
import { z } from "zod";
import type { Database } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { DAY_MS, inShopCalendar, luandaDate, luandaDayStart, luandaIso, shopDateRule } from "../luanda-time";
import { csvRecords } from "../orders/export-admin";
import { STAFF_EVENT_KINDS, type StaffEventKind } from "./staff-events";

/**
 * The owner's record of who did what (/admin/activity and GET /api/admin/activity/export): the
 * rows of staff_events, newest first, filtered by person, kind and a period of Luanda dates, a
 * page of {@link ACTIVITY_PAGE_SIZE} at a time by keyset (the instant and the id of the last row
 * shown), and the same filter as CSV, read in batches so a year of events is never in memory.
 */

export const ACTIVITY_PAGE_SIZE = 50;
export const ACTIVITY_EXPORT_BATCH_SIZE = 1000;

/** The longest a person's id may be in a query (better-auth's are 32 characters). */
const MAX_PERSON_ID = 200;

export interface ActivityFilter {
  /** The person's id (staff.id). */
  person?: string;
  kind?: StaffEventKind;
  /** The first and last Luanda dates of the period, both included. */
  from?: string;
  to?: string;
}

/** Where the page is in the list: the row after which it starts. */
export interface ActivityCursor {
  at: Date;
  id: string;
}

export type ActivityField = "person" | "kind" | "from" | "to" | "after";

/** A value of the query that could not be used, left out of the filter: the page says so. */
export interface ActivityProblem {
  field: ActivityField;
  message: string;
}

export interface ActivityQuery {
  filter: ActivityFilter;
  after?: ActivityCursor;
  problems: ActivityProblem[];
}

type Params = Record<string, string | string[] | undefined> | URLSearchParams;

const valueOf = (params: Params, name: string): string | undefined => {
  const value = params instanceof URLSearchParams ? params.get(name) : params[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === null || first.trim() === "" ? undefined : first.trim();
};

const isoDate = z.iso.date();
const isKind = (value: string): value is StaffEventKind => (STAFF_EVENT_KINDS as readonly string[]).includes(value);

/** `<ISO instant>_<uuid>`: the last row of the page before. */
const CURSOR =
  /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export const cursorOf = (event: { createdAt: Date; id: string }): string =>
  `${event.createdAt.toISOString()}_${event.id}`;

function parseCursor(value: string): ActivityCursor | undefined {
  const match = CURSOR.exec(value);
  if (!match) return undefined;
  const at = new Date(match[1]!);
  return Number.isNaN(at.getTime()) ? undefined : { at, id: match[2]! };
}

/**
 * The filter a query string asks for (`person`, `kind`, `from`, `to`: YYYY-MM-DD in Luanda, and
 * `after`, the page's cursor). A value that cannot be used is left out and named in `problems`, so
 * the page shows the rest of the filter and what was wrong, never an error page.
 */
export function parseActivityQuery(params: Params): ActivityQuery {
  const problems: ActivityProblem[] = [];
  const filter: ActivityFilter = {};
  const person = valueOf(params, "person");
  if (person !== undefined) {
    if (person.length <= MAX_PERSON_ID) filter.person = person;
    else problems.push({ field: "person", message: "person must be one of the people's ids" });
  }
  const kind = valueOf(params, "kind");
  if (kind !== undefined) {
    if (isKind(kind)) filter.kind = kind;
    else problems.push({ field: "kind", message: `kind must be one of ${STAFF_EVENT_KINDS.join(", ")}` });
  }
  for (const field of ["from", "to"] as const) {
    const date = valueOf(params, field);
    if (date === undefined) continue;
    if (isoDate.safeParse(date).success && inShopCalendar(date)) filter[field] = date;
    else problems.push({ field, message: shopDateRule(field) });
  }
  if (filter.from && filter.to && filter.to < filter.from) {
    problems.push({ field: "to", message: "to must not be before from" });
    delete filter.to;
  }
  const after = valueOf(params, "after");
  const cursor = after === undefined ? undefined : parseCursor(after);
  if (after !== undefined && !cursor) problems.push({ field: "after", message: "after must be a page's cursor" });
  return { filter, ...(cursor && { after: cursor }), problems };
}

/** The filter as a query string (the next page's link, the CSV's), without the cursor. */
export function activitySearch(filter: ActivityFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const field of ["person", "kind", "from", "to"] as const) {
    const value = filter[field];
    if (value) params.set(field, value);
  }
  return params;
}

function whereOf(filter: ActivityFilter, after?: ActivityCursor): Prisma.StaffEventWhereInput {
  const createdAt: Prisma.DateTimeFilter = {};
  if (filter.from) createdAt.gte = new Date(luandaDayStart(filter.from));
  if (filter.to) createdAt.lt = new Date(luandaDayStart(filter.to) + DAY_MS);
  return {
    ...(filter.person && { staffId: filter.person }),
    ...(filter.kind && { kind: filter.kind }),
    ...((filter.from || filter.to) && { createdAt }),
    // Older than the last row shown: by instant, then by id among rows of the same instant.
    ...(after && { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] }),
  };
}

const NEWEST_FIRST: Prisma.StaffEventOrderByWithRelationInput[] = [{ createdAt: "desc" }, { id: "desc" }];

export interface ActivityEvent {
  id: string;
  createdAt: Date;
  staffId: string | null;
  /** The person's name when it happened. */
  staffName: string;
  kind: string;
  subject: string | null;
  details: Record<string, unknown>;
}

const eventFields = {
  id: true,
  createdAt: true,
  staffId: true,
  staffName: true,
  kind: true,
  subject: true,
  details: true,
} as const;

const detailsOf = (value: Prisma.JsonValue): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

async function eventsAfter(
  db: Pick<Database, "staffEvent">,
  filter: ActivityFilter,
  after: ActivityCursor | undefined,
  take: number,
): Promise<ActivityEvent[]> {
  const rows = await db.staffEvent.findMany({
    where: whereOf(filter, after),
    orderBy: NEWEST_FIRST,
    take,
    select: eventFields,
  });
  return rows.map((row) => ({ ...row, details: detailsOf(row.details) }));
}

export interface ActivityPage {
  events: ActivityEvent[];
  /** The next (older) page's cursor, when there is one. */
  next?: string;
}

/** One page of the filter's events, newest first, from `after` on. */
export async function activityPage(
  db: Pick<Database, "staffEvent">,
  query: Pick<ActivityQuery, "filter" | "after">,
): Promise<ActivityPage> {
  const rows = await eventsAfter(db, query.filter, query.after, ACTIVITY_PAGE_SIZE + 1);
  const events = rows.slice(0, ACTIVITY_PAGE_SIZE);
  const last = events.at(-1);
  return rows.length > ACTIVITY_PAGE_SIZE && last ? { events, next: cursorOf(last) } : { events };
}

/** Everyone the filter may name, by name (a disabled person too: what they did stays theirs). */
export function activityPeople(db: Pick<Database, "staff">): Promise<{ id: string; name: string }[]> {
  return db.staff.findMany({ select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}

/** A value of `details` as one line of text: a change as `before → after`, lists and objects as JSON. */
function detailText(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  if (typeof value === "object" && !Array.isArray(value) && "from" in value && "to" in value) {
    const change = value as { from: unknown; to: unknown };
    return `${detailText(change.from)} → ${detailText(change.to)}`;
  }
  return JSON.stringify(value);
}

/**
 * An event's details as `field: value` lines for the page: an edit's `changes` one line per field
 * changed, the rest as they are.
 */
export function detailLines(details: Record<string, unknown>): string[] {
  return Object.entries(details).flatMap(([field, value]) =>
    field === "changes" && typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.entries(value).map(([changed, change]) => `${changed}: ${detailText(change)}`)
      : [`${field}: ${detailText(value)}`],
  );
}

export const ACTIVITY_EXPORT_COLUMNS = ["at", "person", "person_id", "kind", "subject", "details"] as const;

/** The export's name: the period it covers, or all of it. */
export function activityExportName(filter: ActivityFilter, now = new Date()): string {
  const period = filter.from || filter.to ? `${filter.from ?? "start"}-${filter.to ?? luandaDate(now)}` : "all";
  return `activity-${period}.csv`;
}

/**
 * The filter's events as CSV (header first, newest first, as the page lists them), a stream read
 * batch by batch. Escaped as every CSV of the back office is (lib/orders/export-admin.ts
 * `csvRecords`): a person named `=HYPERLINK(…)` stays text in a spreadsheet. The instant is
 * Luanda's; the details are their JSON.
 */
export function activityCsv(db: Pick<Database, "staffEvent">, filter: ActivityFilter): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: ActivityCursor | undefined;
  let done = false;
  return new ReadableStream({
    start(controller) {
      // A BOM first, so that Excel reads the file as UTF-8 (names are Portuguese).
      controller.enqueue(encoder.encode(`\uFEFF${csvRecords([[...ACTIVITY_EXPORT_COLUMNS]])}`));
    },
    async pull(controller) {
      if (done) return;
      const events = await eventsAfter(db, filter, after, ACTIVITY_EXPORT_BATCH_SIZE);
      const last = events.at(-1);
      if (last) {
        after = { at: last.createdAt, id: last.id };
        const rows = events.map((event) => [
          luandaIso(event.createdAt),
          event.staffName,
          event.staffId ?? "",
          event.kind,
          event.subject ?? "",
          JSON.stringify(event.details),
        ]);
        controller.enqueue(encoder.encode(csvRecords(rows)));
      }
      if (events.length < ACTIVITY_EXPORT_BATCH_SIZE) {
        done = true;
        controller.close();
      }
    },
  });
}
