import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NextRequest } from "next/server";
import type { Actor } from "@/lib/admin/staff-events";
import { adminDashboard, currentDashboard } from "@/lib/dashboard/dashboard-admin";
import { dashboardCsv } from "@/lib/dashboard/dashboard-csv-admin";
import { periodOf, type Period } from "@/lib/dashboard/period";
import { asShown } from "@/lib/dashboard/weeks-admin";
import { EXPORT_COLUMNS, ordersCsv, parseExportRange, type ExportRange } from "@/lib/orders/export-admin";
import { REFUND_EXPORT_COLUMNS, refundsCsv } from "@/lib/orders/refund-export-admin";
import { recordRefund } from "@/lib/orders/refunds-admin";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { adminRequest, testPerson } from "../../../harness/support/admin";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// Refunds in the owner's figures, on a database of this file's own (so its refunds move no
// counter another file counts on): the dashboard's refunds, their series and the net revenue
// against direct sums in SQL, the orders CSV's refunded amount, and the refunds' CSV; then the
// refunds' route as staff and as the owner, on the suite's database. Refunds are recorded as the
// back office records them (lib/orders/refunds-admin.ts), dated when the money went back.

let database: TestDatabase;
let client: PrismaClient;
let owner: Pick<Actor, "id" | "name">;

/** 14 and 15 October 2026 (Luanda), against 12 and 13; seen at 13:00 on the 15th. */
const PERIOD = periodOf("custom", "2026-10-14", "2026-10-15");
const NOW = new Date("2026-10-15T12:00:00Z");
const THRESHOLD = 5;

const ids: Record<string, { id: string; externalTransactionId: string; variantId: string }> = {};

async function order(
  name: string,
  data: { status: "CON" | "CAN"; created: string; paid: string; quantity: number; feeAoa?: number; late?: boolean },
) {
  const product = await client.product.create({
    data: {
      slug: `p-${randomUUID()}`,
      name: `Café ${name}`,
      description: "-",
      imagePath: "/x.svg",
      priceAoa: 2_500,
      stock: 20,
    },
    include: { variants: true },
  });
  const variant = product.variants[0]!;
  const fee = data.feeAoa ?? 0;
  const created = await client.order.create({
    data: {
      externalTransactionId: `order_${randomUUID()}`,
      status: data.status,
      amountAoa: 2_500 * data.quantity + fee,
      subtotalAoa: 2_500 * data.quantity,
      deliveryFeeAoa: fee,
      deliveryMethod: fee > 0 ? "delivery" : "pickup",
      clientId: `shopper_${randomUUID()}`,
      createdAt: new Date(data.created),
      finalizedAt: new Date(data.paid),
      // Paid after its hold expired and the shop had cancelled it: never revenue.
      ...(data.late && {
        cancelReason: "hold_expired",
        paidAfterCancelAt: new Date(data.paid),
        attentionReason: "paid_after_cancel",
        attentionAt: new Date(data.paid),
      }),
      lines: {
        create: {
          productId: product.id,
          variantId: variant.id,
          productName: product.name,
          variantTitle: "",
          sku: `SKU-${name}`,
          unitPriceAoa: 2_500,
          quantity: data.quantity,
        },
      },
    },
  });
  ids[name] = { id: created.id, externalTransactionId: created.externalTransactionId, variantId: variant.id };
}

async function refund(name: string, fields: Record<string, unknown>) {
  const result = await recordRefund(client, ids[name]!.externalTransactionId, fields, owner);
  if (!result.ok) throw new Error(`refund of ${name}: ${result.code} ${result.message}`);
  return result.refund;
}

beforeAll(async () => {
  database = await createTestDatabase("dashboard-refunds");
  await applyMigrations({ connectionString: database.url });
  client = clientOf(database.url).client;
  const staff = await client.staff.create({
    data: { id: `owner-${randomUUID()}`, name: "Marta Owner", email: "marta@shop.example", role: "owner" },
  });
  owner = { id: staff.id, name: staff.name };

  // A: paid on the 12th (the previous period), part refunded on the 14th (this one).
  await order("A", { status: "CON", created: "2026-10-12T09:00:00Z", paid: "2026-10-12T09:05:00Z", quantity: 4 });
  await refund("A", { amountAoa: 3_000, method: "bank_transfer", refundedAt: "2026-10-14T13:00:00+01:00" });
  // B: paid on the 14th with a delivery fee; two units back at 00:30 on the 15th in Luanda (23:30
  // UTC on the 14th), one to stock and one damaged, with the fee, a note that looks like a formula.
  await order("B", {
    status: "CON",
    created: "2026-10-14T08:00:00Z",
    paid: "2026-10-14T08:10:00Z",
    quantity: 3,
    feeAoa: 1_500,
  });
  await refund("B", {
    method: "multicaixa_express",
    reference: "-TRF 77",
    note: '=HYPERLINK("http://evil.example","ver")',
    includeDeliveryFee: true,
    refundedAt: "2026-10-14T23:30:00Z",
    returns: [
      { variantId: ids.B!.variantId, quantity: 1, restock: true },
      { variantId: ids.B!.variantId, quantity: 1, restock: false },
    ],
  });
  // C: paid after the shop cancelled it, on the 14th; given back whole on the 15th (today).
  await order("C", {
    status: "CAN",
    created: "2026-10-13T10:00:00Z",
    paid: "2026-10-14T15:00:00Z",
    quantity: 3,
    late: true,
  });
  await refund("C", { method: "cash", refundedAt: "2026-10-15T09:00:00+01:00" });
  // D: paid and part refunded on the 13th (the previous period).
  await order("D", { status: "CON", created: "2026-10-13T07:00:00Z", paid: "2026-10-13T07:05:00Z", quantity: 2 });
  await refund("D", { amountAoa: 1_000, method: "other", refundedAt: "2026-10-13T12:00:00+01:00" });
  // E: paid on the 15th, part refunded on the first instant of the 16th in Luanda: after the period.
  await order("E", { status: "CON", created: "2026-10-15T07:00:00Z", paid: "2026-10-15T07:05:00Z", quantity: 1 });
  await refund("E", { amountAoa: 500, method: "cash", refundedAt: "2026-10-15T23:00:00Z" });
  // F: paid on the 15th, never refunded.
  await order("F", { status: "CON", created: "2026-10-15T08:00:00Z", paid: "2026-10-15T08:05:00Z", quantity: 2 });
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});

const dashboard = (period: Period = PERIOD, now = NOW) =>
  adminDashboard(client, period, { lowStockThreshold: THRESHOLD, now });

/** What SQL itself says of [start, end): revenue, all refunds, and refunds of orders counted as paid. */
async function sums(start: Date, end: Date) {
  const [row] = await client.$queryRaw<{ revenue: number; refunds: number; ofPaid: number }[]>`
    SELECT (SELECT COALESCE(sum(amount_aoa), 0) FROM orders
             WHERE status = 'CON' AND finalized_at >= ${start} AND finalized_at < ${end})::float8 AS revenue,
           (SELECT COALESCE(sum(amount_aoa), 0) FROM refunds
             WHERE refunded_at >= ${start} AND refunded_at < ${end})::float8 AS refunds,
           (SELECT COALESCE(sum(r.amount_aoa), 0) FROM refunds r JOIN orders o ON o.id = r.order_id
             WHERE o.status = 'CON' AND r.refunded_at >= ${start} AND r.refunded_at < ${end})::float8 AS "ofPaid"`;
  return row!;
}

describe("the dashboard's refunds and net revenue", () => {
  it("are the direct sums of the period and of the one before, by the Luanda day the money went back", async () => {
    const { figures } = await dashboard();
    const current = await sums(PERIOD.start, PERIOD.end);
    const previous = await sums(PERIOD.previousStart, PERIOD.start);
    expect(figures.revenueAoa).toEqual({ current: current.revenue, previous: previous.revenue });
    expect(figures.refundsAoa).toEqual({ current: current.refunds, previous: previous.refunds });
    expect(figures.netRevenueAoa).toEqual({
      current: current.revenue - current.ofPaid,
      previous: previous.revenue - previous.ofPaid,
    });
    expect(figures.refundsOutsideRevenueAoa).toEqual({
      current: current.refunds - current.ofPaid,
      previous: previous.refunds - previous.ofPaid,
    });
    // By hand: B 9 000, E 2 500 and F 5 000 paid; A's 3 000 (paid in the previous period), B's two
    // units and fee (2 × 2 500 + 1 500) and C's 7 500 went back. C was never revenue: net revenue
    // takes off A's and B's refunds alone. Before: A 10 000 and D 5 000 paid, D's 1 000 back.
    expect(figures.revenueAoa).toEqual({ current: 16_500, previous: 15_000 });
    expect(figures.refundsAoa).toEqual({ current: 17_000, previous: 1_000 });
    expect(figures.refundsOutsideRevenueAoa).toEqual({ current: 7_500, previous: 0 });
    expect(figures.netRevenueAoa).toEqual({ current: 7_000, previous: 14_000 });
    // Revenue itself is gross, as before refunds existed.
    expect(figures.paidOrders).toEqual({ current: 3, previous: 2 });
  });

  it("has each day's refunds and net revenue, summed by SQL per Luanda day", async () => {
    const { revenueByDay } = await dashboard();
    const days = await client.$queryRaw<{ day: string; refunds: number; ofPaid: number }[]>`
      SELECT to_char((r.refunded_at + interval '1 hour')::date, 'YYYY-MM-DD') AS day,
             sum(r.amount_aoa)::float8 AS refunds,
             COALESCE(sum(r.amount_aoa) FILTER (WHERE o.status = 'CON'), 0)::float8 AS "ofPaid"
      FROM refunds r JOIN orders o ON o.id = r.order_id
      WHERE r.refunded_at >= ${PERIOD.start} AND r.refunded_at < ${PERIOD.end} GROUP BY 1`;
    const byDay = new Map(days.map((day) => [day.day, day]));
    for (const day of revenueByDay) {
      expect(day.refundsAoa, day.date).toBe(byDay.get(day.date)?.refunds ?? 0);
      expect(day.netRevenueAoa, day.date).toBe(day.revenueAoa - (byDay.get(day.date)?.ofPaid ?? 0));
    }
    // B's refund at 00:30 on the 15th counts on the 15th, with C's.
    expect(
      revenueByDay.map(({ date, revenueAoa, refundsAoa, netRevenueAoa }) => [
        date,
        revenueAoa,
        refundsAoa,
        netRevenueAoa,
      ]),
    ).toEqual([
      ["2026-10-14", 9_000, 3_000, 6_000],
      ["2026-10-15", 7_500, 14_000, 1_000],
    ]);
    // The series as CSV, and as the page sends it: a week sums its days.
    expect(parse(dashboardCsv(await dashboard(), "refunds"), { bom: true })).toEqual([
      ["date", "refunds_aoa", "revenue_aoa", "net_revenue_aoa"],
      ["2026-10-14", "3000", "9000", "6000"],
      ["2026-10-15", "14000", "7500", "1000"],
    ]);
    const year = asShown(await dashboard(periodOf("custom", "2025-10-16", "2026-10-15")));
    expect(year.weekly).toBe(true);
    expect(year.revenue.reduce((sum, week) => sum + week.refundsAoa, 0)).toBe(18_000);
    expect(year.revenue.reduce((sum, week) => sum + week.netRevenueAoa, 0)).toBe(31_500 - 10_500);
  });

  it("reads the same from the kept days as from the orders alone", async () => {
    await client.$executeRaw`DELETE FROM dashboard_days`;
    const fromOrders = await dashboard(PERIOD, new Date("2026-01-01T12:00:00Z"));
    expect(await dashboard()).toEqual(fromOrders);
    expect(await dashboard()).toEqual(fromOrders);
  });

  it("is computed again once a refund is recorded, though no order changed", async () => {
    const options = { lowStockThreshold: THRESHOLD, now: NOW };
    const first = await currentDashboard(client, PERIOD, options);
    expect(await currentDashboard(client, PERIOD, options)).toBe(first);
    await refund("F", { amountAoa: 200, method: "cash", refundedAt: "2026-10-15T10:00:00+01:00" });
    const second = await currentDashboard(client, PERIOD, options);
    expect(second.figures.refundsAoa.current).toBe(first.figures.refundsAoa.current + 200);
    expect(second.figures.netRevenueAoa.current).toBe(first.figures.netRevenueAoa.current - 200);
  });
});

/** The CSV `stream` as records, its BOM checked. */
async function records(stream: ReadableStream<Uint8Array>): Promise<string[][]> {
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parse(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), { bom: true });
}

function rangeOf(from: string, to: string): ExportRange {
  const parsed = parseExportRange(from, to);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.range;
}

describe("the orders CSV", () => {
  it("has each order's refunded amount, whenever it was refunded: the sum of its refunds", async () => {
    const [header, ...rows] = await records(ordersCsv(client, rangeOf("2026-10-12", "2026-10-16")));
    expect(header).toEqual([...EXPORT_COLUMNS]);
    const refunded = header!.indexOf("refunded_aoa");
    expect(refunded).toBe(EXPORT_COLUMNS.length - 1);
    const sums = await client.$queryRaw<{ externalTransactionId: string; amount: number }[]>`
      SELECT o.external_transaction_id AS "externalTransactionId", COALESCE(sum(r.amount_aoa), 0)::int AS amount
      FROM orders o LEFT JOIN refunds r ON r.order_id = o.id GROUP BY o.id`;
    const expected = new Map(sums.map((sum) => [sum.externalTransactionId, String(sum.amount)]));
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row[refunded], row[0]).toBe(expected.get(row[0]!));
    const of = (name: string) => rows.find((row) => row[0] === ids[name]!.externalTransactionId)![refunded];
    expect(["A", "B", "C", "D", "E", "F"].map(of)).toEqual(["3000", "6500", "7500", "1000", "500", "200"]);
  });
});

describe("the refunds CSV", () => {
  it("has one row per refund made on the dates, by when the money went back, escaped as the orders export", async () => {
    const [header, ...rows] = await records(refundsCsv(client, rangeOf("2026-10-14", "2026-10-15")));
    expect(header).toEqual([...REFUND_EXPORT_COLUMNS]);
    const numbers = await client.refund.findMany({
      where: { refundedAt: { gte: PERIOD.start, lt: PERIOD.end } },
      orderBy: [{ refundedAt: "asc" }, { number: "asc" }],
      select: { number: true },
    });
    expect(rows.map((row) => row[0])).toEqual(numbers.map((refund) => String(refund.number)));
    const byOrder = (name: string) => rows.find((row) => row[2] === ids[name]!.externalTransactionId)!;
    expect(rows.map((row) => row[2])).toEqual(["A", "B", "C", "F"].map((name) => ids[name]!.externalTransactionId));
    expect(byOrder("B")).toEqual([
      expect.any(String),
      // 23:30 UTC on the 14th is 00:30 on the 15th in Luanda.
      "2026-10-15T00:30:00+01:00",
      ids.B!.externalTransactionId,
      "6500",
      "1500",
      "multicaixa_express",
      // Text a spreadsheet would run as a formula gets an apostrophe.
      "'-TRF 77",
      '\'=HYPERLINK("http://evil.example","ver")',
      "Marta Owner",
      "1 x Café B [SKU-B] restocked; 1 x Café B [SKU-B] damaged",
      "",
    ]);
    expect(byOrder("C").slice(1)).toEqual([
      "2026-10-15T09:00:00+01:00",
      ids.C!.externalTransactionId,
      "7500",
      "0",
      "cash",
      "",
      "",
      "Marta Owner",
      "",
      "",
    ]);
    // D's (the 13th) and E's (00:00 on the 16th) are outside the dates.
    const outside = await records(refundsCsv(client, rangeOf("2026-10-13", "2026-10-13")));
    expect(outside.slice(1).map((row) => row[2])).toEqual([ids.D!.externalTransactionId]);
    const after = await records(refundsCsv(client, rangeOf("2026-10-16", "2026-10-16")));
    expect(after.slice(1).map((row) => [row[1], row[2]])).toEqual([
      ["2026-10-16T00:00:00+01:00", ids.E!.externalTransactionId],
    ]);
  });

  it("reads past a batch, refunds of the same instant in the order of their numbers", async () => {
    // 1 005 refunds of 1 Kz at one instant on 1 September, written as a shop's years would leave them.
    await client.$executeRaw`
      INSERT INTO refunds (number, order_id, amount_aoa, method, refunded_at, staff_id, staff_name)
      SELECT c.last_number + n, ${ids.F!.id}::uuid, 1, 'cash', '2026-09-01T10:00:00', ${owner.id}, ${owner.name}
      FROM refund_counter c, generate_series(1, 1005) AS n`;
    await client.$executeRaw`UPDATE refund_counter SET last_number = last_number + 1005`;
    const rows = (await records(refundsCsv(client, rangeOf("2026-09-01", "2026-09-01")))).slice(1);
    expect(rows).toHaveLength(1005);
    const numbers = rows.map((row) => Number(row[0]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(1005);
  });
});

describe("GET /api/admin/refunds/export", () => {
  const get = async (query: string, session: Pick<Actor, "id">) => {
    const { GET } = await import("@/app/api/admin/refunds/export/route");
    return GET((await adminRequest(`/api/admin/refunds/export${query}`, { method: "GET", session })) as NextRequest);
  };

  it("is the owner's: 403 for staff, a CSV for the owner, a 400 for dates it cannot read", async () => {
    const staff = await testPerson("staff", "Rui");
    const refused = await get("?from=2026-10-14&to=2026-10-15", staff);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: "forbidden" } });

    const owner = await testPerson("owner");
    const response = await get("?from=2026-10-14&to=2026-10-15", owner);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="refunds-2026-10-14-2026-10-15.csv"',
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await records(response.body!))[0]).toEqual([...REFUND_EXPORT_COLUMNS]);

    for (const query of ["?from=2026-10-15&to=2026-10-14", "?from=ontem", "?from=2024-01-01&to=2026-01-01"]) {
      const bad = await get(query, owner);
      expect(bad.status, query).toBe(400);
      expect(await bad.json()).toMatchObject({ error: { code: "invalid_range" } });
    }
  });
});
