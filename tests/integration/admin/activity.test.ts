import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ACTIVITY_EXPORT_COLUMNS,
  ACTIVITY_PAGE_SIZE,
  activityPage,
  activityPeople,
  parseActivityQuery,
  type ActivityQuery,
} from "@/lib/admin/activity";
import type { Actor } from "@/lib/admin/staff-events";
import { forgetOwnerCheck } from "@/lib/admin/owner";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { adminRequest, testOwner, testPerson } from "../../../harness/support/admin";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// The owner's record of who did what (lib/admin/activity.ts, /admin/activity and GET
// /api/admin/activity/export), against a real database of this file's own, so that every event
// listed is one this file wrote: filters by person, kind and Luanda dates, pages by keyset, and the
// CSV of the same filter, escaped as the orders export is.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  db: () => shared.client,
  dbPool: () => shared.pool,
}));

const server = Boolean(process.env.TEST_SERVER_DATABASE_URL);
let database: TestDatabase;
let client: PrismaClient;
let owner: Actor;
let ana: Actor;
let bento: Actor;
/** A person whose name a spreadsheet would run as a formula. */
let mallory: Actor;

/** An event written as recordStaffEvent writes one, at a given instant. */
const event = (actor: Actor, kind: string, at: string, subject: string | null = null, details: object = {}) =>
  client.staffEvent.create({
    data: { staffId: actor.id, staffName: actor.name, kind, subject, details, createdAt: new Date(at) },
  });

const page = (params: Record<string, string>) => activityPage(client, parseActivityQuery(params));

beforeAll(async () => {
  database = await createTestDatabase("activity");
  await applyMigrations({ connectionString: database.url });
  ({ client, pool: shared.pool } = clientOf(database.url, server ? 10 : 1));
  shared.client = client;
  forgetOwnerCheck();
  owner = await testOwner();
  ana = await testPerson("staff", "Ana");
  bento = await testPerson("staff", "Bento");
  mallory = await testPerson("staff", '=HYPERLINK("http://evil.example","ver")');

  // Around Luanda's midnight of 15 March 2026 (UTC+1): 23:00 UTC on the 14th is its first instant.
  await event(ana, "order.fulfilment", "2026-03-14T22:59:59.999Z", "order:a", { state: "shipped", note: null });
  await event(ana, "order.fulfilment", "2026-03-14T23:00:00.000Z", "order:b", { state: "shipped", note: "Seg" });
  await event(ana, "promo_code.update", "2026-03-15T10:00:00.000Z", "promo_code:p", {
    promo: "BEMVINDO",
    changes: { value: { from: 10, to: 20 } },
  });
  await event(bento, "order.refresh", "2026-03-15T12:00:00.000Z", "order:b", { status: "PEN", outcome: "unchanged" });
  await event(ana, "order.resolve", "2026-03-16T22:59:59.999Z", "order:c", { note: "Feito" });
  await event(ana, "order.resolve", "2026-03-16T23:00:00.000Z", "order:d", { note: "Dia seguinte" });
  await event(mallory, "delivery_zone.create", "2026-03-15T11:00:00.000Z", "delivery_zone:z", {
    name: "=1+2",
    feeAoa: 1500,
  });
});
afterAll(async () => {
  forgetOwnerCheck();
  await client?.$disconnect();
  await database?.drop();
});

describe("the filter from a query string", () => {
  it("keeps what it can use and names the rest, never an error", () => {
    expect(parseActivityQuery({ person: "abc", kind: "order.resolve", from: "2026-03-15", to: "2026-03-16" })).toEqual({
      filter: { person: "abc", kind: "order.resolve", from: "2026-03-15", to: "2026-03-16" },
      problems: [],
    });
    const bad: ActivityQuery = parseActivityQuery({
      person: "x".repeat(201),
      kind: "order.delete",
      from: "2026-02-30",
      to: "ontem",
      after: "não",
    });
    expect(bad.filter).toEqual({});
    expect(bad.problems.map((problem) => problem.field)).toEqual(["person", "kind", "from", "to", "after"]);
    // The last date before the first: the first is kept.
    expect(parseActivityQuery({ from: "2026-03-16", to: "2026-03-15" })).toMatchObject({
      filter: { from: "2026-03-16" },
      problems: [{ field: "to" }],
    });
    // Empty fields (the form's "everyone", "all kinds") are no filter; a date outside the shop's calendar is a problem.
    expect(parseActivityQuery({ person: "", kind: " ", from: "1999-12-31" })).toMatchObject({
      filter: {},
      problems: [{ field: "from" }],
    });
  });
});

describe("the list", () => {
  it("is newest first, and lists the people by name", async () => {
    const { events, next } = await page({});
    expect(next).toBeUndefined();
    const times = events.map((found) => found.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(events).toHaveLength(7);
    // By name in the database's collation (which may or may not look past the "=").
    const people = await activityPeople(client);
    expect(people.map((person) => person.name).sort()).toEqual(
      ['=HYPERLINK("http://evil.example","ver")', "Ana", "Bento", owner.name].sort(),
    );
    expect(people.map((person) => person.name).indexOf("Ana")).toBeLessThan(
      people.map((person) => person.name).indexOf("Bento"),
    );
  });

  it("by person, by kind, by both", async () => {
    expect((await page({ person: bento.id })).events.map((found) => [found.staffName, found.kind])).toEqual([
      ["Bento", "order.refresh"],
    ]);
    expect((await page({ kind: "order.fulfilment" })).events.map((found) => found.subject)).toEqual([
      "order:b",
      "order:a",
    ]);
    expect((await page({ person: ana.id, kind: "order.resolve" })).events.map((found) => found.subject)).toEqual([
      "order:d",
      "order:c",
    ]);
    expect((await page({ person: owner.id })).events).toEqual([]);
  });

  it("by Luanda dates, both included", async () => {
    const subjects = async (params: Record<string, string>) =>
      (await page({ person: ana.id, ...params })).events.map((found) => found.subject);
    expect(await subjects({ from: "2026-03-15", to: "2026-03-16" })).toEqual(["order:c", "promo_code:p", "order:b"]);
    expect(await subjects({ from: "2026-03-17" })).toEqual(["order:d"]);
    expect(await subjects({ to: "2026-03-14" })).toEqual(["order:a"]);
  });

  it("pages fifty at a time by keyset: every event once, in order, ties at one instant by id", async () => {
    const carla = await testPerson("staff", "Carla");
    // 120 events, ten at each instant.
    await client.staffEvent.createMany({
      data: Array.from({ length: 120 }, (_, index) => ({
        staffId: carla.id,
        staffName: carla.name,
        kind: "order.fulfilment",
        subject: `order:${index}`,
        createdAt: new Date(Date.UTC(2026, 4, 1, 8, Math.floor(index / 10))),
      })),
    });
    const seen: string[] = [];
    let after: string | undefined;
    const sizes: number[] = [];
    do {
      const shown = await page({ person: carla.id, ...(after && { after }) });
      sizes.push(shown.events.length);
      seen.push(...shown.events.map((found) => found.id));
      after = shown.next;
    } while (after);
    expect(sizes).toEqual([ACTIVITY_PAGE_SIZE, ACTIVITY_PAGE_SIZE, 20]);
    const all = await client.staffEvent.findMany({
      where: { staffId: carla.id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    expect(seen).toEqual(all.map((found) => found.id));
  });
});

describe("GET /api/admin/activity/export", () => {
  const get = async (query: string, session: Actor | false = owner) =>
    (await import("@/app/api/admin/activity/export/route")).GET(
      await adminRequest(`/api/admin/activity/export${query}`, { method: "GET", session }),
    );
  const records = async (response: Response): Promise<string[][]> => {
    const bytes = new Uint8Array(await response.arrayBuffer());
    // A BOM first, as the orders export writes it, so that Excel reads UTF-8.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    return parse(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), { bom: true });
  };

  it("is the owner's: staff get a 403, nobody signed in a 401", async () => {
    const refused = await get("", ana);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: "forbidden" } });
    expect((await get("", false)).status).toBe(401);
  });

  it("holds the filter's events, newest first, with Luanda's time and the details' JSON", async () => {
    const response = await get(`?person=${ana.id}&from=2026-03-15&to=2026-03-16`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="activity-2026-03-15-2026-03-16.csv"',
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    const [header, ...rows] = await records(response);
    expect(header).toEqual([...ACTIVITY_EXPORT_COLUMNS]);
    // The details as JSON (jsonb keeps its own order of keys).
    expect(rows.map((row) => [...row.slice(0, -1), JSON.parse(row.at(-1)!)])).toEqual([
      ["2026-03-16T23:59:59+01:00", "Ana", ana.id, "order.resolve", "order:c", { note: "Feito" }],
      [
        "2026-03-15T11:00:00+01:00",
        "Ana",
        ana.id,
        "promo_code.update",
        "promo_code:p",
        { promo: "BEMVINDO", changes: { value: { from: 10, to: 20 } } },
      ],
      ["2026-03-15T00:00:00+01:00", "Ana", ana.id, "order.fulfilment", "order:b", { state: "shipped", note: "Seg" }],
    ]);
  });

  it("neutralises a value a spreadsheet would run as a formula, as the orders export does", async () => {
    const [, ...rows] = await records(await get(`?person=${mallory.id}`));
    expect(rows).toEqual([
      [
        "2026-03-15T12:00:00+01:00",
        '\'=HYPERLINK("http://evil.example","ver")',
        mallory.id,
        "delivery_zone.create",
        "delivery_zone:z",
        '{"name":"=1+2","feeAoa":1500}',
      ],
    ]);
  });

  it("refuses a filter it cannot use with a 400 JSON, never another file", async () => {
    for (const query of ["?kind=order.delete", "?from=2026-02-30", "?from=2026-03-16&to=2026-03-15"]) {
      const response = await get(query);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { code: "invalid_filter", message: expect.any(String) } });
    }
  });

  it("with no filter, every event (all pages of the list)", async () => {
    const [, ...rows] = await records(await get(""));
    expect(rows).toHaveLength(await client.staffEvent.count());
  });
});
