import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminDashboard, currentDashboard, currentHome } from "@/lib/dashboard/dashboard-admin";
import { dashboardCsv, DASHBOARD_SERIES } from "@/lib/dashboard/dashboard-csv-admin";
import { namedPeriod, periodOf, type Period } from "@/lib/dashboard/period";
import { EXPORT_COLUMNS, ordersCsv, parseExportRange } from "@/lib/orders/export-admin";
import { listAdminOrders, parseOrdersQuery } from "@/lib/orders/orders-admin";
import { adminOverview } from "@/lib/orders/overview-admin";
import { pgRunner } from "@/lib/db/sql-runner";
import { asShown, readShownJson, shownJson } from "@/lib/dashboard/weeks-admin";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// The owner's dashboard (lib/dashboard/dashboard-admin.ts) on a database of this file's own, seeded
// with orders whose every outcome is known: paid (one across a Luanda midnight, one across the
// month's end), cancelled by the service, an expired hold, paid after cancel, a pending bank
// reference, an abandoned checkout, promo discounts, delivery fees, two zones and a pickup, a
// product with two variants (one low, one sold out). Every figure and series is asserted; then the
// dashboard, the home's totals, the orders list, the CSV export and the invoices must agree on
// what was paid, to the kwanza, on every period.

let database: TestDatabase;
let client: PrismaClient;

const THRESHOLD = 5;
/** 2026-12-01 10:00 in Luanda. */
const NOW = new Date("2026-12-01T09:00:00Z");
/** 30 Nov and 1 Dec (Luanda), against 28 and 29 Nov. */
const PERIOD = periodOf("custom", "2026-11-30", "2026-12-01");

const ids: Record<string, string> = {};
let invoiceNumber = 0;

interface Line {
  variant: "M" | "L" | "cafe";
  quantity: number;
  discountAoa?: number;
}

beforeAll(async () => {
  database = await createTestDatabase("dashboard");
  await applyMigrations({ connectionString: database.url });
  const max = process.env.TEST_SERVER_DATABASE_URL ? 4 : 1;
  client = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max }) });

  // A shirt in M (3 left: low) and L (sold out), and coffee without options (plenty).
  const shirt = await client.product.create({
    data: { slug: "camisa", name: "Camisa", description: "-", imagePath: "/x.svg", priceAoa: 5000, stock: 3 },
    include: { variants: true },
  });
  await client.productOption.create({
    data: { productId: shirt.id, position: 1, name: "Tamanho", values: ["M", "L"] },
  });
  await client.productVariant.update({ where: { id: shirt.variants[0]!.id }, data: { options: { Tamanho: "M" } } });
  const large = await client.productVariant.create({
    data: { productId: shirt.id, options: { Tamanho: "L" }, priceAoa: 5000, stock: 0, position: 1 },
  });
  const coffee = await client.product.create({
    data: { slug: "cafe", name: "Café", description: "-", imagePath: "/x.svg", priceAoa: 2500, stock: 50 },
    include: { variants: true },
  });
  const variants = {
    M: { productId: shirt.id, variantId: shirt.variants[0]!.id, name: "Camisa", title: "M", price: 5000 },
    L: { productId: shirt.id, variantId: large.id, name: "Camisa", title: "L", price: 5000 },
    cafe: { productId: coffee.id, variantId: coffee.variants[0]!.id, name: "Café", title: "", price: 2500 },
  };

  async function order(
    name: string,
    data: {
      status: "PEN" | "CON" | "CAN";
      created: string;
      finalized?: string;
      lines: Line[];
      method?: "pickup" | "delivery";
      zone?: string;
      feeAoa?: number;
      promo?: string;
      reference?: string;
      cancelReason?: string;
      paidAfterCancel?: string;
      /** When its invoice was issued (a paid order's job, which may run after midnight). */
      invoiced?: string;
    },
  ) {
    const subtotal = data.lines.reduce((sum, line) => sum + variants[line.variant].price * line.quantity, 0);
    const discount = data.lines.reduce((sum, line) => sum + (line.discountAoa ?? 0), 0);
    const fee = data.feeAoa ?? 0;
    const created = await client.order.create({
      data: {
        externalTransactionId: `order_${randomUUID()}`,
        status: data.status,
        amountAoa: subtotal - discount + fee,
        subtotalAoa: subtotal,
        discountAoa: discount,
        deliveryFeeAoa: fee,
        deliveryMethod: data.method ?? "pickup",
        deliveryZoneName: data.zone ?? null,
        promoCode: data.promo ?? null,
        paymentReference: data.reference ?? null,
        cancelReason: data.cancelReason ?? null,
        clientId: `shopper_${randomUUID()}`,
        createdAt: new Date(data.created),
        finalizedAt: data.finalized ? new Date(data.finalized) : null,
        paidAfterCancelAt: data.paidAfterCancel ? new Date(data.paidAfterCancel) : null,
        attentionReason: data.paidAfterCancel ? "paid_after_cancel" : null,
        attentionAt: data.paidAfterCancel ? new Date(data.paidAfterCancel) : null,
        lines: {
          create: data.lines.map((line) => ({
            productId: variants[line.variant].productId,
            variantId: variants[line.variant].variantId,
            productName: variants[line.variant].name,
            variantTitle: variants[line.variant].title,
            unitPriceAoa: variants[line.variant].price,
            quantity: line.quantity,
            discountAoa: line.discountAoa ?? 0,
          })),
        },
      },
    });
    if (data.status === "CON") {
      invoiceNumber += 1;
      await client.invoice.create({
        data: {
          orderId: created.id,
          number: invoiceNumber,
          amountAoa: created.amountAoa,
          issuedAt: new Date(data.invoiced ?? data.finalized!),
        },
      });
    }
    ids[name] = created.externalTransactionId;
  }

  // Created at 23:50 on 30 Nov in Luanda, paid at 00:10 on 1 Dec.
  await order("A", {
    status: "CON",
    created: "2026-11-30T22:50:00Z",
    finalized: "2026-11-30T23:10:00Z",
    lines: [{ variant: "M", quantity: 2, discountAoa: 1000 }],
    method: "delivery",
    zone: "Talatona",
    feeAoa: 2000,
    promo: "BEMVINDO",
    reference: "REF-A",
  });
  // Created at 23:30 on 29 Nov (the previous period), paid at 00:30 on 30 Nov (this one).
  await order("B", {
    status: "CON",
    created: "2026-11-29T22:30:00Z",
    finalized: "2026-11-29T23:30:00Z",
    lines: [{ variant: "cafe", quantity: 4 }],
  });
  // Paid in the previous period.
  await order("C", {
    status: "CON",
    created: "2026-11-28T10:00:00Z",
    finalized: "2026-11-28T10:05:00Z",
    lines: [{ variant: "cafe", quantity: 2 }],
    method: "delivery",
    zone: "Luanda Centro",
    feeAoa: 1500,
  });
  // Cancelled by the service (no reason of the shop's).
  await order("D", {
    status: "CAN",
    created: "2026-12-01T08:00:00Z",
    finalized: "2026-12-01T08:30:00Z",
    lines: [{ variant: "L", quantity: 1 }],
    method: "delivery",
    zone: "Luanda Centro",
    feeAoa: 1500,
  });
  // A bank reference whose hold expired unpaid.
  await order("E", {
    status: "CAN",
    created: "2026-11-30T12:00:00Z",
    finalized: "2026-12-01T01:00:00Z",
    lines: [{ variant: "cafe", quantity: 1 }],
    reference: "REF-E",
    cancelReason: "hold_expired",
  });
  // Expired, then paid after cancel: waiting for a decision, not revenue.
  await order("F", {
    status: "CAN",
    created: "2026-11-30T09:00:00Z",
    finalized: "2026-11-30T20:00:00Z",
    paidAfterCancel: "2026-11-30T21:00:00Z",
    lines: [
      { variant: "M", quantity: 1 },
      { variant: "cafe", quantity: 1 },
    ],
    reference: "REF-F",
    cancelReason: "hold_expired",
  });
  // A bank reference not yet paid.
  await order("G", {
    status: "PEN",
    created: "2026-12-01T07:00:00Z",
    lines: [{ variant: "cafe", quantity: 1 }],
    reference: "REF-G",
  });
  // Abandoned: created here, never at the service.
  await order("H", {
    status: "CAN",
    created: "2026-11-30T15:00:00Z",
    finalized: "2026-11-30T15:30:00Z",
    lines: [{ variant: "cafe", quantity: 1 }],
    cancelReason: "abandoned",
  });
  // Two lines, a promo code shared between them, delivered to the other zone.
  await order("I", {
    status: "CON",
    created: "2026-12-01T07:30:00Z",
    finalized: "2026-12-01T07:35:00Z",
    lines: [
      { variant: "L", quantity: 1, discountAoa: 1000 },
      { variant: "cafe", quantity: 2, discountAoa: 1000 },
    ],
    method: "delivery",
    zone: "Luanda Centro",
    feeAoa: 1500,
    promo: "NATAL",
    // Its invoice job ran late: issued at 00:05 on 2 Dec in Luanda.
    invoiced: "2026-12-01T23:05:00Z",
  });
  // Before the previous period, and on the first instant after this one (00:00 on 2 Dec).
  await order("K", {
    status: "CON",
    created: "2026-11-27T12:00:00Z",
    finalized: "2026-11-27T12:00:00Z",
    lines: [{ variant: "cafe", quantity: 1 }],
  });
  await order("L", {
    status: "CON",
    created: "2026-12-01T23:00:00Z",
    finalized: "2026-12-01T23:00:00Z",
    lines: [{ variant: "cafe", quantity: 1 }],
  });
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});

/** The dashboard on 1 Dec at 10:00: the days before it come from the kept days, 1 Dec and later from the orders. */
const dashboard = (period: Period = PERIOD, now = NOW) =>
  adminDashboard(client, period, { lowStockThreshold: THRESHOLD, now });

describe("the dashboard of 30 Nov and 1 Dec, against 28 and 29 Nov", () => {
  it("has the period and the previous one as Luanda days", async () => {
    const { period } = await dashboard();
    expect(period).toMatchObject({
      from: "2026-11-30",
      to: "2026-12-01",
      previousFrom: "2026-11-28",
      previousTo: "2026-11-29",
      days: 2,
      start: new Date("2026-11-29T23:00:00Z"),
      end: new Date("2026-12-01T23:00:00Z"),
      previousStart: new Date("2026-11-27T23:00:00Z"),
    });
  });

  it("counts paid orders on the Luanda day they were paid: revenue, orders, average, discounts, fees", async () => {
    const { figures } = await dashboard();
    // A (11 000, paid 00:10 on 1 Dec), B (10 000, created in the previous period, paid in this one), I (9 500).
    expect(figures.revenueAoa).toEqual({ current: 30_500, previous: 6_500 });
    expect(figures.paidOrders).toEqual({ current: 3, previous: 1 });
    expect(figures.averageOrderAoa).toEqual({ current: 10_167, previous: 6_500 });
    expect(figures.discountsAoa).toEqual({ current: 3_000, previous: 0 });
    expect(figures.deliveryFeesAoa).toEqual({ current: 3_500, previous: 1_500 });
  });

  it("counts checkouts on the Luanda day they started, by how they ended", async () => {
    const { figures } = await dashboard();
    expect(figures.checkouts).toEqual({ current: 7, previous: 2 });
    expect(figures.outcomes).toEqual({
      paid: { current: 2, previous: 2 },
      serviceCancelled: { current: 1, previous: 0 },
      expired: { current: 2, previous: 0 },
      pending: { current: 1, previous: 0 },
      other: { current: 1, previous: 0 },
    });
    // A, E, F and G were given a bank reference; only A's was paid in time.
    expect(figures.references).toEqual({ current: 4, previous: 0 });
    expect(figures.referencesPaid).toEqual({ current: 1, previous: 0 });
  });

  it("keeps payments after cancel out of revenue and lists them apart", async () => {
    expect((await dashboard()).paidAfterCancel).toEqual({ orders: 1, amountAoa: 7_500 });
  });

  it("has a point for every day, with the previous period's day beside it", async () => {
    const { revenueByDay, checkoutsByDay } = await dashboard();
    // No refund in this file (tests/integration/dashboard/refunds.test.ts has them): net is gross.
    expect(revenueByDay).toEqual([
      {
        date: "2026-11-30",
        previousDate: "2026-11-28",
        revenueAoa: 10_000,
        previousRevenueAoa: 6_500,
        orders: 1,
        refundsAoa: 0,
        netRevenueAoa: 10_000,
      },
      {
        date: "2026-12-01",
        previousDate: "2026-11-29",
        revenueAoa: 20_500,
        previousRevenueAoa: 0,
        orders: 2,
        refundsAoa: 0,
        netRevenueAoa: 20_500,
      },
    ]);
    expect(checkoutsByDay).toEqual([
      { date: "2026-11-30", paid: 1, serviceCancelled: 0, expired: 2, pending: 0, other: 1 },
      { date: "2026-12-01", paid: 1, serviceCancelled: 1, expired: 0, pending: 1, other: 0 },
    ]);
  });

  it("ranks products and variants by revenue after discounts and by units", async () => {
    const { topProducts } = await dashboard();
    const named = (rows: typeof topProducts.byRevenue) =>
      rows.map(({ productName, variantTitle, units, revenueAoa }) => ({
        productName,
        variantTitle,
        units,
        revenueAoa,
      }));
    const cafe = { productName: "Café", variantTitle: "", units: 6, revenueAoa: 14_000 };
    const medium = { productName: "Camisa", variantTitle: "M", units: 2, revenueAoa: 9_000 };
    const large = { productName: "Camisa", variantTitle: "L", units: 1, revenueAoa: 4_000 };
    expect(named(topProducts.byRevenue)).toEqual([cafe, medium, large]);
    expect(named(topProducts.byUnits)).toEqual([cafe, medium, large]);
  });

  it("splits paid orders between pickup and each delivery zone, by hour placed and by promo code", async () => {
    const { delivery, byHour, promoCodes } = await dashboard();
    expect(delivery).toEqual([
      { method: "delivery", zone: "Talatona", orders: 1, revenueAoa: 11_000, deliveryFeesAoa: 2_000 },
      { method: "pickup", zone: "", orders: 1, revenueAoa: 10_000, deliveryFeesAoa: 0 },
      { method: "delivery", zone: "Luanda Centro", orders: 1, revenueAoa: 9_500, deliveryFeesAoa: 1_500 },
    ]);
    expect(byHour).toHaveLength(24);
    expect(byHour.filter((hour) => hour.orders > 0)).toEqual([
      { hour: 8, orders: 1, revenueAoa: 9_500 },
      { hour: 23, orders: 2, revenueAoa: 21_000 },
    ]);
    expect(promoCodes).toEqual([
      { code: "NATAL", orders: 1, discountAoa: 2_000, revenueAoa: 9_500 },
      { code: "BEMVINDO", orders: 1, discountAoa: 1_000, revenueAoa: 11_000 },
    ]);
  });

  it("lists low and sold-out variants with their rate of sale and days left", async () => {
    const { stock } = await dashboard();
    expect(stock).toMatchObject({ threshold: THRESHOLD, lowStockTotal: 1, soldOutTotal: 1 });
    expect(stock.lowStock).toEqual([
      expect.objectContaining({
        productName: "Camisa",
        variantTitle: "M",
        stock: 3,
        unitsSold: 2,
        perDay: 1,
        daysLeft: 3,
      }),
    ]);
    expect(stock.soldOut).toEqual([
      expect.objectContaining({
        productName: "Camisa",
        variantTitle: "L",
        stock: 0,
        unitsSold: 1,
        perDay: 0.5,
        daysLeft: 0,
      }),
    ]);
  });

  it("writes each series as CSV, escaped as the orders export is", async () => {
    const data = await dashboard();
    const records = (series: (typeof DASHBOARD_SERIES)[number]) =>
      parse(dashboardCsv(data, series), { bom: true }) as string[][];
    expect(records("revenue")).toEqual([
      ["date", "revenue_aoa", "paid_orders", "previous_date", "previous_revenue_aoa"],
      ["2026-11-30", "10000", "1", "2026-11-28", "6500"],
      ["2026-12-01", "20500", "2", "2026-11-29", "0"],
    ]);
    expect(records("checkouts")[1]).toEqual(["2026-11-30", "1", "0", "2", "0", "1"]);
    expect(records("zones")).toContainEqual(["delivery", "Talatona", "1", "11000", "2000"]);
    expect(records("hours")).toHaveLength(25);
    for (const series of DASHBOARD_SERIES) expect(records(series).length).toBeGreaterThan(1);
  });

  it("an empty period is zeros, not gaps", async () => {
    const empty = await dashboard(periodOf("custom", "2025-01-01", "2025-01-03"));
    expect(empty.figures.revenueAoa).toEqual({ current: 0, previous: 0 });
    expect(empty.figures.averageOrderAoa).toEqual({ current: 0, previous: 0 });
    expect(empty.revenueByDay.map((day) => day.revenueAoa)).toEqual([0, 0, 0]);
    expect(empty.checkoutsByDay).toHaveLength(3);
    expect(empty.topProducts).toEqual({ byRevenue: [], byUnits: [] });
  });
});

describe("one definition of paid", () => {
  /** What each part of the back office says was paid in `period`. */
  async function paidBy(period: Period) {
    const list = await listAdminOrders(client, parseOrdersQuery({ paidFrom: period.from, paidTo: period.to }));
    const range = parseExportRange(period.from, period.to);
    if (!range.ok) throw new Error(range.message);
    const records: string[][] = parse(await new Response(ordersCsv(client, range.range, "paid")).text(), {
      bom: true,
    });
    const [header, ...rows] = records;
    const amount = header!.indexOf("amount_aoa");
    const status = header!.indexOf("status");
    expect(header).toEqual([...EXPORT_COLUMNS]);
    const [invoices] = await client.$queryRaw<{ total: number }[]>`
      SELECT COALESCE(sum(i.amount_aoa), 0)::float8 AS total FROM invoices i JOIN orders o ON o.id = i.order_id
      WHERE o.status = 'CON' AND o.finalized_at >= ${period.start} AND o.finalized_at < ${period.end}`;
    return {
      dashboard: (await dashboard(period)).figures.revenueAoa.current,
      list: list.amountAoa,
      listCount: list.total,
      csv: rows.reduce((sum, row) => sum + (row[status] === "CON" ? Number(row[amount]) : 0), 0),
      csvCount: rows.length,
      invoices: invoices!.total,
    };
  }

  it.each([
    ["the two days", PERIOD, 30_500, 3],
    ["the previous two", periodOf("custom", "2026-11-28", "2026-11-29"), 6_500, 1],
    ["30 Nov alone", periodOf("custom", "2026-11-30", "2026-11-30"), 10_000, 1],
    ["1 Dec alone (today)", namedPeriod("today", NOW), 20_500, 2],
    ["2 Dec, from its first instant", periodOf("custom", "2026-12-02", "2026-12-02"), 2_500, 1],
    ["December", periodOf("custom", "2026-12-01", "2026-12-31"), 23_000, 3],
    ["November", periodOf("custom", "2026-11-01", "2026-11-30"), 19_000, 3],
    ["last month, seen on 1 Dec", namedPeriod("last-month", NOW), 19_000, 3],
    ["the last 30 days", namedPeriod("30d", NOW), 39_500, 5],
  ])(
    "%s: the dashboard, the orders list, the paid export and the invoices agree",
    async (_name, period, amount, count) => {
      expect(await paidBy(period)).toEqual({
        dashboard: amount,
        list: amount,
        listCount: count,
        csv: amount,
        csvCount: count,
        invoices: amount,
      });
    },
  );

  it("the home's totals are the dashboard's today and this month, up to now", async () => {
    const overview = await adminOverview(client, NOW);
    const today = (await dashboard(namedPeriod("today", NOW))).figures.revenueAoa.current;
    const month = (await dashboard(namedPeriod("month", NOW))).figures.revenueAoa.current;
    expect(overview).toMatchObject({ paidTodayAoa: 20_500, paidThisMonthAoa: 20_500, pendingOrders: 1 });
    expect([today, month]).toEqual([20_500, 20_500]);
  });

  it("an invoice issued after midnight still counts on the day its order was paid", async () => {
    const [late] = await client.$queryRaw<{ issued: Date; paid: Date }[]>`
      SELECT i.issued_at AS issued, o.finalized_at AS paid FROM invoices i JOIN orders o ON o.id = i.order_id
      WHERE o.external_transaction_id = ${ids.I}`;
    // Paid at 08:35 on 1 Dec, invoiced at 00:05 on 2 Dec (Luanda).
    expect([late!.paid.toISOString(), late!.issued.toISOString()]).toEqual([
      "2026-12-01T07:35:00.000Z",
      "2026-12-01T23:05:00.000Z",
    ]);
    expect((await paidBy(namedPeriod("today", NOW))).invoices).toBe(20_500);
  });
});

/** An order of 1 000 Kz made outside the seeded ones, for a change the page's memo must see. */
const extraOrder = (fields: { status: "CON" | "PEN"; createdAt: Date; finalizedAt?: Date; updatedAt?: Date }) =>
  client.order.create({
    data: {
      externalTransactionId: `order_${randomUUID()}`,
      amountAoa: 1_000,
      clientId: `shopper_${randomUUID()}`,
      ...fields,
    },
  });

describe("the page's dashboard", () => {
  it("is computed again once an order changes, and reused while nothing does", async () => {
    const first = await currentDashboard(client, PERIOD, { lowStockThreshold: THRESHOLD, now: NOW });
    expect(await currentDashboard(client, PERIOD, { lowStockThreshold: THRESHOLD, now: NOW })).toBe(first);
    expect(first.figures.revenueAoa.current).toBe(30_500);

    const late = await extraOrder({
      status: "CON",
      createdAt: new Date("2026-12-01T10:00:00Z"),
      finalizedAt: new Date("2026-12-01T10:01:00Z"),
    });
    try {
      const second = await currentDashboard(client, PERIOD, { lowStockThreshold: THRESHOLD, now: NOW });
      expect(second.figures.revenueAoa.current).toBe(31_500);
      // A stock change alone, made in SQL without touching updated_at, is seen too.
      await client.$executeRaw`UPDATE product_variants SET stock = stock + 10 WHERE stock = 3`;
      const third = await currentDashboard(client, PERIOD, { lowStockThreshold: THRESHOLD, now: NOW });
      expect(third.stock.lowStock).toEqual([]);
    } finally {
      await client.$executeRaw`UPDATE product_variants SET stock = stock - 10 WHERE stock = 13`;
      await client.order.delete({ where: { id: late.id } });
    }
    expect(
      (await currentDashboard(client, PERIOD, { lowStockThreshold: THRESHOLD, now: NOW })).figures.revenueAoa.current,
    ).toBe(30_500);
  });
});

describe("the dashboard the page hands its view", () => {
  it("is carried whole by its JSON, for a period of days and one of weeks", async () => {
    for (const period of [PERIOD, periodOf("custom", "2026-01-01", "2026-12-01")]) {
      const computed = await dashboard(period);
      expect(readShownJson(shownJson(computed))).toStrictEqual(asShown(computed));
    }
  });
});

describe("the home's figures", () => {
  it("are reused while nothing changes, and counted again for an order that committed after a later one", async () => {
    const home = () => currentHome(client, PERIOD, { lowStockThreshold: THRESHOLD, now: NOW });
    const first = await home();
    expect(first.overview).toEqual(await adminOverview(client, NOW));
    const again = await home();
    expect(again.overview).toBe(first.overview);
    expect(again.dashboard).toBe(first.dashboard);

    // A checkout whose transaction began before the latest change but committed after it: its
    // updated_at is older than the newest pending order's, yet it shows.
    const [{ oldest }] = await client.$queryRaw<[{ oldest: Date }]>`SELECT min(updated_at) AS oldest FROM orders`;
    const late = await extraOrder({ status: "PEN", createdAt: new Date("2026-12-01T09:00:00Z"), updatedAt: oldest });
    try {
      const after = await home();
      expect(after.overview.pendingOrders).toBe(first.overview.pendingOrders + 1);
      expect(after.dashboard.figures.outcomes.pending.current).toBe(
        first.dashboard.figures.outcomes.pending.current + 1,
      );
    } finally {
      await client.order.delete({ where: { id: late.id } });
    }
    expect((await home()).overview).toEqual(first.overview);
  });
});

describe("the home's runner", () => {
  it("reads the same dashboard and figures through pg itself as through Prisma, keeping days in pg's transaction", async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    try {
      const sql = pgRunner(pool);
      await client.$executeRaw`DELETE FROM dashboard_days`;
      for (const period of [PERIOD, namedPeriod("30d", NOW), namedPeriod("month", NOW)]) {
        const throughPg = await adminDashboard(sql, period, { lowStockThreshold: THRESHOLD, now: NOW });
        expect(throughPg).toEqual(await adminDashboard(client, period, { lowStockThreshold: THRESHOLD, now: NOW }));
      }
      expect(await adminOverview(sql, NOW)).toEqual(await adminOverview(client, NOW));
    } finally {
      await pool.end();
    }
  });
});

describe("the kept days", () => {
  /** A day before every order: each period is then read from the orders alone, nothing kept. */
  const BEFORE_EVERYTHING = new Date("2025-01-01T12:00:00Z");
  const forget = () => client.$executeRaw`DELETE FROM dashboard_days`;

  it.each([
    ["the two days", PERIOD],
    ["the previous two", periodOf("custom", "2026-11-28", "2026-11-29")],
    ["the last 30 days", namedPeriod("30d", NOW)],
    ["last month", namedPeriod("last-month", NOW)],
    ["a year to 2 Dec", periodOf("custom", "2025-12-03", "2026-12-02")],
  ])("%s: the kept days and today give what the orders alone give", async (_name, period) => {
    await forget();
    const fromOrders = await dashboard(period, BEFORE_EVERYTHING);
    const keptFirst = await dashboard(period);
    const keptThen = await dashboard(period);
    expect(keptFirst).toEqual(fromOrders);
    expect(keptThen).toEqual(fromOrders);
    expect(fromOrders.figures.revenueAoa.current + fromOrders.figures.revenueAoa.previous).toBeGreaterThan(0);
  });

  it("keeps a closed day once, and never today or a later day", async () => {
    await forget();
    await dashboard();
    const kept = await client.$queryRaw<{ day: string }[]>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day FROM dashboard_days ORDER BY day`;
    expect(kept.map((row) => row.day)).toEqual(["2026-11-28", "2026-11-29", "2026-11-30"]);
    const [{ paid } = { paid: 0 }] = await client.$queryRaw<{ paid: number }[]>`
      SELECT count(*)::int AS paid FROM dashboard_day_paid WHERE day = '2026-11-30' AND panel = 'total'`;
    expect(paid).toBe(1);
  });

  it("sees an order of a kept day that changes, or is written, after the day was kept", async () => {
    const before = await dashboard();
    // A checkout of 30 Nov still pending, then paid on 30 Nov (as a late webhook's state machine writes it).
    const late = await client.order.create({
      data: {
        externalTransactionId: `order_${randomUUID()}`,
        status: "PEN",
        amountAoa: 4_000,
        clientId: `shopper_${randomUUID()}`,
        createdAt: new Date("2026-11-30T15:00:00Z"),
      },
    });
    try {
      const pending = await dashboard();
      expect(pending.figures.checkouts.current).toBe(before.figures.checkouts.current + 1);
      expect(pending.figures.outcomes.pending.current).toBe(before.figures.outcomes.pending.current + 1);
      expect(pending).toEqual(await dashboard(PERIOD, BEFORE_EVERYTHING));
      await client.$executeRaw`
        UPDATE orders SET status = 'CON', finalized_at = '2026-11-30T16:00:00', updated_at = now() WHERE id = ${late.id}::uuid`;
      const paid = await dashboard();
      expect(paid.figures.revenueAoa.current).toBe(30_500 + 4_000);
      expect(paid.revenueByDay.find((day) => day.date === "2026-11-30")?.revenueAoa).toBe(10_000 + 4_000);
      expect(paid).toEqual(await dashboard(PERIOD, BEFORE_EVERYTHING));
    } finally {
      await client.order.delete({ where: { id: late.id } });
      // The shop never deletes an order; this test does, so it forgets what it kept.
      await forget();
    }
    expect((await dashboard()).figures.revenueAoa.current).toBe(30_500);
  });

  it("two keepings at once keep each day once and agree", async () => {
    await forget();
    const [one, two] = await Promise.all([dashboard(), dashboard(namedPeriod("30d", NOW))]);
    expect(one).toEqual(await dashboard(PERIOD, BEFORE_EVERYTHING));
    expect(two).toEqual(await dashboard(namedPeriod("30d", NOW), BEFORE_EVERYTHING));
    // The second keeping may forget days of orders changed moments ago (this file's own) outside
    // its range, for the next read that needs them: the next 30 days' read keeps them again, the 30
    // days to 1 Dec and the 30 before them, but 1 Dec, each once.
    await dashboard(namedPeriod("30d", NOW));
    const [{ days } = { days: 0 }] = await client.$queryRaw<
      { days: number }[]
    >`SELECT count(*)::int AS days FROM dashboard_days`;
    expect(days).toBe(59);
  });
});
