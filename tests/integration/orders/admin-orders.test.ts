import { randomInt, randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EXPORT_BATCH_SIZE, EXPORT_COLUMNS, parseExportRange } from "@/lib/orders/export-admin";
import { listAdminOrders, ORDERS_PAGE_SIZE, parseOrdersQuery, searchedPhoneKey } from "@/lib/orders/orders-admin";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// The back office's orders list (lib/orders/orders-admin.ts) and CSV export (lib/orders/export-admin.ts and
// GET /api/admin/orders/export), against a real PostgreSQL database of this file's own: the list
// reads every order, so no other test file's orders may be in it. The sign-in goes through the
// suite's database as in admin-session.test.ts (its limiter counts there); only db() is this file's.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  db: () => shared.client,
  dbPool: () => shared.pool,
}));

const APP = "http://localhost:3000";
let database: TestDatabase;
let client: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase("admin-orders");
  await applyMigrations({ connectionString: database.url });
  // One connection on embedded PGlite, which cannot keep concurrent connections' statements apart.
  const max = process.env.TEST_SERVER_DATABASE_URL ? 10 : 1;
  ({ client, pool: shared.pool } = clientOf(database.url, max));
  shared.client = client;
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});

interface NewOrder {
  createdAt: Date;
  status?: "PEN" | "CON" | "CAN";
  amountAoa?: number;
  referenceNumber?: string | null;
  paymentReference?: string | null;
  customerName?: string | null;
  customerPhone?: string | null;
  customerNif?: string | null;
  attentionReason?: string | null;
  finalizedAt?: Date | null;
  lines?: { productName: string; quantity: number; unitPriceAoa: number }[];
}

let product: { id: string } | undefined;
async function testProduct() {
  product ??= await client.product.create({
    data: {
      slug: `test-${randomUUID()}`,
      name: "Café",
      description: "Criado por um teste.",
      imagePath: "/products/cafe-amboim.svg",
      priceAoa: 2500,
      stock: 100,
    },
  });
  return product;
}

async function insertOrder(order: NewOrder) {
  const { id: productId } = await testProduct();
  return client.order.create({
    data: {
      externalTransactionId: `order_${randomUUID()}`,
      referenceNumber:
        order.referenceNumber === undefined ? String(randomInt(100_000_000, 999_999_999)) : order.referenceNumber,
      paymentReference: order.paymentReference ?? null,
      status: order.status ?? "PEN",
      amountAoa: order.amountAoa ?? 2500,
      clientId: `shopper_${randomUUID()}`,
      customerName: order.customerName ?? null,
      customerPhone: order.customerPhone ?? null,
      customerNif: order.customerNif ?? null,
      attentionReason: order.attentionReason ?? null,
      attentionAt: order.attentionReason ? order.createdAt : null,
      createdAt: order.createdAt,
      // A paid or cancelled order has its time (a check constraint): a minute after its creation.
      finalizedAt:
        order.finalizedAt ??
        (order.status && order.status !== "PEN" ? new Date(order.createdAt.getTime() + 60_000) : null),
      lines: { create: (order.lines ?? []).map((line) => ({ ...line, productId })) },
    },
  });
}

/** Removes every order, so each block starts from the rows it wrote. */
const clearOrders = async () => {
  await client.invoice.deleteMany();
  await client.order.deleteMany();
};

describe("the orders list", () => {
  const base = Date.parse("2026-05-01T10:00:00Z");
  let ids: string[] = [];
  beforeAll(async () => {
    await clearOrders();
    // 120 orders a minute apart: 0 is the oldest. Every third is paid, every fifth cancelled.
    ids = [];
    for (let index = 0; index < 120; index++) {
      const status = index % 5 === 0 ? "CAN" : index % 3 === 0 ? "CON" : "PEN";
      const order = await insertOrder({ createdAt: new Date(base + index * 60_000), status });
      ids.push(order.externalTransactionId);
    }
  });

  const list = (query: Parameters<typeof parseOrdersQuery>[0]) => listAdminOrders(client, parseOrdersQuery(query));

  it("newest first, 50 to a page, with the count and the last page's remainder", async () => {
    const first = await list({});
    expect(first.total).toBe(120);
    expect(first.pageCount).toBe(3);
    expect(first.orders).toHaveLength(ORDERS_PAGE_SIZE);
    expect(first.orders.map((order) => order.externalTransactionId)).toEqual(ids.slice(70).reverse());
    expect(first.orders[0]!.createdAt).toEqual(new Date(base + 119 * 60_000));

    const second = await list({ page: "2" });
    expect(second.orders.map((order) => order.externalTransactionId)).toEqual(ids.slice(20, 70).reverse());
    const third = await list({ page: "3" });
    expect(third.orders.map((order) => order.externalTransactionId)).toEqual(ids.slice(0, 20).reverse());
    const beyond = await list({ page: "4" });
    expect(beyond).toMatchObject({ orders: [], total: 120, page: 4, pageCount: 3 });
  });

  it("page boundaries: 64 orders are 50 and 14; exactly 50 are one page, 51 are two", async () => {
    // 120 orders: 24 cancelled (index % 5 == 0), 32 paid (index % 3 == 0 of the rest), 64 pending.
    const pending = await list({ status: "PEN" });
    expect(pending).toMatchObject({ total: 64, pageCount: 2 });
    expect((await list({ status: "PEN", page: "2" })).orders).toHaveLength(64 - ORDERS_PAGE_SIZE);

    const extra = [];
    for (let index = 0; index < 26; index++) {
      extra.push(await insertOrder({ createdAt: new Date(base - (index + 1) * 86_400_000), status: "CAN" }));
    }
    try {
      expect(await list({ status: "CAN" })).toMatchObject({ total: 50, pageCount: 1 });
      expect((await list({ status: "CAN" })).orders).toHaveLength(50);
      extra.push(await insertOrder({ createdAt: new Date(base - 100 * 86_400_000), status: "CAN" }));
      expect(await list({ status: "CAN" })).toMatchObject({ total: 51, pageCount: 2 });
      const last = await list({ status: "CAN", page: "2" });
      expect(last.orders.map((order) => order.externalTransactionId)).toEqual([extra.at(-1)!.externalTransactionId]);
    } finally {
      await client.order.deleteMany({ where: { id: { in: extra.map((order) => order.id) } } });
    }
  });

  it("filters by each status, newest first", async () => {
    for (const status of ["PEN", "CON", "CAN"] as const) {
      const page = await list({ status });
      expect(page.orders.length).toBeGreaterThan(0);
      expect(page.orders.every((order) => order.status === status)).toBe(true);
      const times = page.orders.map((order) => order.createdAt.getTime());
      expect(times).toEqual([...times].sort((a, b) => b - a));
    }
    expect((await list({ status: "CAN" })).total).toBe(24);
  });

  it.each([
    ["an unknown status", { status: "PAID" }],
    ["a lowercase status", { status: "con" }],
    ["page 0", { page: "0" }],
    ["a negative page", { page: "-2" }],
    ["a page that is not a number", { page: "dois" }],
    ["a fractional page", { page: "1.5" }],
    ["a huge page", { page: "1e9" }],
    ["an empty search", { q: "   " }],
    ["a search over 100 characters", { q: "x".repeat(101) }],
  ])("%s is ignored: the first page of every order", async (_what, query) => {
    expect(parseOrdersQuery(query)).toEqual({ page: 1 });
    const page = await list(query);
    expect(page).toMatchObject({ total: 120, page: 1 });
  });

  it("a repeated parameter counts once", () => {
    expect(parseOrdersQuery({ status: ["CAN", "CON"], page: ["2", "3"], q: [" abc ", "x"] })).toEqual({
      status: "CAN",
      page: 2,
      search: "abc",
    });
  });
});

describe("searching the orders", () => {
  let target: Awaited<ReturnType<typeof insertOrder>>;
  beforeAll(async () => {
    await clearOrders();
    target = await insertOrder({
      createdAt: new Date("2026-06-01T12:00:00Z"),
      status: "CON",
      referenceNumber: "555111222",
      paymentReference: "PAYREF-778899",
      customerName: "Ana Tchissola",
      customerPhone: "+244 923-456 789",
      attentionReason: "paid_after_cancel",
    });
    // Near misses for every kind of search.
    await insertOrder({
      createdAt: new Date("2026-06-01T11:00:00Z"),
      referenceNumber: "555111223",
      customerPhone: "923456788",
    });
    await insertOrder({
      createdAt: new Date("2026-06-01T10:00:00Z"),
      paymentReference: "PAYREF-7788",
      customerPhone: "(244) 91 234 5678",
    });
    await insertOrder({ createdAt: new Date("2026-06-01T09:00:00Z"), customerPhone: null, referenceNumber: null });
  });

  const search = async (q: string, status?: string) =>
    (await listAdminOrders(client, parseOrdersQuery({ q, status }))).orders.map((order) => order.externalTransactionId);

  it("finds the order by its id, exactly", async () => {
    expect(await search(target.externalTransactionId)).toEqual([target.externalTransactionId]);
    expect(await search(`  ${target.externalTransactionId} `)).toEqual([target.externalTransactionId]);
    expect(await search(target.externalTransactionId.slice(0, 20))).toEqual([]);
    expect(await search("order_")).toEqual([]);
  });

  it("by its reference number and by its payment reference, exactly", async () => {
    expect(await search("555111222")).toEqual([target.externalTransactionId]);
    expect(await search("55511122")).toEqual([]);
    expect(await search("PAYREF-778899")).toEqual([target.externalTransactionId]);
    expect(await search("PAYREF-77")).toEqual([]);
  });

  it("by phone: the national number, whatever the spacing or the +244", async () => {
    for (const phone of ["923456789", "923 456 789", "+244923456789", "244 923 456 789", "(+244) 923-456-789"]) {
      expect(await search(phone), phone).toEqual([target.externalTransactionId]);
    }
    expect(searchedPhoneKey("+244 923-456 789")).toBe("923456789");
    // A part of the number finds nothing (the search is exact), nor do fewer than 9 digits.
    expect(await search("92345678")).toEqual([]);
    expect(await search("456789")).toEqual([]);
    expect(searchedPhoneKey("2345678")).toBeUndefined();
    expect(searchedPhoneKey("abc923456789")).toBeUndefined();
    // A number stored with its code in brackets.
    expect(await search("912345678")).toHaveLength(1);
  });

  it("by phone: one Angolan number whatever its form, a trunk 0 and dots included, on either side", async () => {
    for (const phone of ["0923456789", "0923 456 789", "+244 0923 456 789", "00244 923.456.789", "923.456.789"]) {
      expect(await search(phone), phone).toEqual([target.externalTransactionId]);
    }
    const trunk = await insertOrder({ createdAt: new Date("2026-06-01T08:00:00Z"), customerPhone: "0931 222 333" });
    const foreign = await insertOrder({ createdAt: new Date("2026-06-01T07:00:00Z"), customerPhone: "+376 931 222" });
    try {
      for (const phone of ["931222333", "+244 931 222 333", "(+244) 0931-222-333"])
        expect(await search(phone), phone).toEqual([trunk.externalTransactionId]);
      // Another country's number is not an Angolan one with the same digits, either way round.
      expect(await search("+376 931 222")).toEqual([foreign.externalTransactionId]);
      expect(await search("376 931 222")).toEqual([]);
    } finally {
      await client.order.deleteMany({ where: { id: { in: [trunk.id, foreign.id] } } });
    }
  });

  it("search and status together; the attention reason comes with the row", async () => {
    expect(await search("555111222", "CON")).toEqual([target.externalTransactionId]);
    expect(await search("555111222", "PEN")).toEqual([]);
    const [row] = (await listAdminOrders(client, { search: "555111222", page: 1 })).orders;
    expect(row).toEqual({
      externalTransactionId: target.externalTransactionId,
      referenceNumber: "555111222",
      status: "CON",
      amountAoa: 2500,
      customerName: "Ana Tchissola",
      customerPhone: "+244 923-456 789",
      createdAt: new Date("2026-06-01T12:00:00Z"),
      attentionReason: "paid_after_cancel",
      deliveryMethod: null,
      fulfilmentState: null,
    });
  });

  it("a search full of SQL stays a search", async () => {
    expect(await search("' OR 1=1 --")).toEqual([]);
    expect(await search("%")).toEqual([]);
  });
});

describe("the export's date range", () => {
  it("defaults to today in Luanda, which starts at 23:00 UTC the day before", () => {
    const range = parseExportRange(null, null, new Date("2026-03-14T23:30:00Z"));
    expect(range).toEqual({
      ok: true,
      range: {
        from: "2026-03-15",
        to: "2026-03-15",
        start: new Date("2026-03-14T23:00:00Z"),
        end: new Date("2026-03-15T23:00:00Z"),
      },
    });
  });

  it.each([
    ["from after to", "2026-03-15", "2026-03-14"],
    ["a date that does not exist", "2026-02-30", "2026-03-01"],
    ["not a date", "ontem", "2026-03-01"],
    ["a time instead of a date", "2026-03-01T00:00", "2026-03-01"],
    ["an empty date", "", "2026-03-01"],
    ["367 days", "2025-01-01", "2026-01-02"],
  ])("refuses %s", (_what, from, to) => {
    expect(parseExportRange(from, to)).toMatchObject({ ok: false });
  });

  it("accepts 366 days", () => {
    expect(parseExportRange("2024-01-01", "2024-12-31")).toMatchObject({ ok: true });
  });
});

describe("GET /api/admin/orders/export", () => {
  const exportRoute = async () => (await import("@/app/api/admin/orders/export/route")).GET;
  let cookie: string;

  beforeAll(async () => {
    // Signed in through the sign-in route, as the browser does.
    const { POST } = await import("@/app/api/admin/session/route");
    const response = await POST(
      new NextRequest(`${APP}/api/admin/session`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`,
        },
        body: JSON.stringify({ password: process.env.ADMIN_PASSWORD }),
      }),
    );
    expect(response.status).toBe(200);
    cookie = /^(admin_session=[^;]*)/.exec(
      response.headers.getSetCookie().find((c) => c.startsWith("admin_session="))!,
    )![1]!;
  });

  const get = async (query: string, headers: HeadersInit = { cookie }) =>
    (await exportRoute())(new NextRequest(`${APP}/api/admin/orders/export${query}`, { headers }));

  it("refuses without a session (401 JSON), and with a forged one", async () => {
    for (const headers of [{}, { cookie: "admin_session=forged~2" }] as HeadersInit[]) {
      const response = await get("?from=2026-03-15&to=2026-03-15", headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    }
  });

  it.each([
    ["from after to", "?from=2026-03-16&to=2026-03-15"],
    ["over 366 days", "?from=2025-01-01&to=2026-03-15"],
    ["a bad date", "?from=2026-13-01&to=2026-03-15"],
    ["an empty from", "?from=&to=2026-03-15"],
  ])("%s is a 400 JSON", async (_what, query) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: { code: "invalid_range", message: expect.any(String) } });
  });

  describe("the CSV", () => {
    let inside: Awaited<ReturnType<typeof insertOrder>>;
    let lastMinute: Awaited<ReturnType<typeof insertOrder>>;
    let dayBefore: Awaited<ReturnType<typeof insertOrder>>;
    let dayAfter: Awaited<ReturnType<typeof insertOrder>>;
    beforeAll(async () => {
      await clearOrders();
      // 00:00:00 on the 15th in Luanda, which is 23:00 UTC on the 14th: the first instant of the range.
      inside = await insertOrder({
        createdAt: new Date("2026-03-14T23:00:00Z"),
        finalizedAt: new Date("2026-03-14T23:05:30Z"),
        status: "CON",
        amountAoa: 12500,
        referenceNumber: "987654321",
        paymentReference: "PR-1",
        customerName: '=HYPERLINK("http://evil.example","ver")',
        customerPhone: "+244 923 456 789",
        customerNif: "001234567LA042",
        lines: [
          { productName: "Café Amboim", quantity: 2, unitPriceAoa: 2500 },
          { productName: "Caneca, grande", quantity: 1, unitPriceAoa: 7500 },
        ],
      });
      await client.invoice.create({ data: { number: 42, orderId: inside.id, amountAoa: 12500 } });
      lastMinute = await insertOrder({
        createdAt: new Date("2026-03-16T22:59:59.999Z"),
        customerName: "@SUM(1)",
        customerPhone: "+351 912 345 678",
      });
      dayBefore = await insertOrder({ createdAt: new Date("2026-03-14T22:59:59.999Z") });
      dayAfter = await insertOrder({ createdAt: new Date("2026-03-16T23:00:00Z") });
    });

    it("holds the orders created on the Luanda dates, both included, oldest first, formulas neutralised, phones readable", async () => {
      const response = await get("?from=2026-03-15&to=2026-03-16");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("content-disposition")).toBe(
        'attachment; filename="orders-2026-03-15-2026-03-16.csv"',
      );
      expect(response.headers.get("cache-control")).toBe("no-store");
      const bytes = new Uint8Array(await response.arrayBuffer());
      // A BOM first: Excel then reads the Portuguese names as UTF-8. (Response.text() would drop it.)
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const records: string[][] = parse(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), { bom: true });
      expect(records[0]).toEqual([...EXPORT_COLUMNS]);
      expect(records.slice(1).map((record) => record[0])).toEqual([
        inside.externalTransactionId,
        lastMinute.externalTransactionId,
      ]);
      expect(records[1]).toEqual([
        inside.externalTransactionId,
        "2026-03-15T00:00:00+01:00",
        "2026-03-15T00:05:30+01:00",
        "CON",
        "12500",
        "987654321",
        "PR-1",
        '\'=HYPERLINK("http://evil.example","ver")',
        "923 456 789",
        "42",
        "2 x Café Amboim; 1 x Caneca, grande",
        // An order from before delivery methods: no delivery, no parts but the zero defaults, to prepare.
        ...["", "", "", "", "", "", "", "", "", "0", "", "0", "to_prepare", ""],
        // The buyer's NIF, as stored.
        "001234567LA042",
        // Nothing refunded.
        "0",
      ]);
      expect(records[2]).toEqual([
        lastMinute.externalTransactionId,
        "2026-03-16T23:59:59+01:00",
        "",
        "PEN",
        "2500",
        lastMinute.referenceNumber,
        "",
        "'@SUM(1)",
        // Phones are written without the leading + (lib/orders/export-admin.ts, spreadsheetPhone): no apostrophe.
        "00 351 912 345 678",
        "",
        "",
        ...["", "", "", "", "", "", "", "", "", "0", "", "0", "", ""],
        // No NIF given.
        "",
        "0",
      ]);
      const ids = records.map((record) => record[0]);
      expect(ids).not.toContain(dayBefore.externalTransactionId);
      expect(ids).not.toContain(dayAfter.externalTransactionId);
    });

    it("one day: the day before's last millisecond and the next day's first are out", async () => {
      const records: string[][] = parse(await (await get("?from=2026-03-15&to=2026-03-15")).text(), { bom: true });
      expect(records.slice(1).map((record) => record[0])).toEqual([inside.externalTransactionId]);
      const before: string[][] = parse(await (await get("?from=2026-03-14&to=2026-03-14")).text(), { bom: true });
      expect(before.slice(1).map((record) => record[0])).toEqual([dayBefore.externalTransactionId]);
    });

    it("today by default, in Luanda", async () => {
      const now = await insertOrder({ createdAt: new Date() });
      try {
        const today = new Date(Date.now() + 3600_000).toISOString().slice(0, 10);
        const response = await get("");
        expect(response.headers.get("content-disposition")).toBe(`attachment; filename="orders-${today}-${today}.csv"`);
        const records: string[][] = parse(await response.text(), { bom: true });
        expect(records.map((record) => record[0])).toContain(now.externalTransactionId);
      } finally {
        await client.order.delete({ where: { id: now.id } });
      }
    });

    it("an empty range is the header alone", async () => {
      const records: string[][] = parse(await (await get("?from=2020-01-01&to=2020-01-31")).text(), { bom: true });
      expect(records).toEqual([[...EXPORT_COLUMNS]]);
    });
  });

  it(`more than one batch of ${EXPORT_BATCH_SIZE}: every order once, in order`, async () => {
    await clearOrders();
    const start = Date.parse("2026-08-01T00:00:00Z");
    const count = EXPORT_BATCH_SIZE * 2 + 1;
    // Pairs with the same created_at, so the keyset's tie-break on id is exercised.
    await client.order.createMany({
      data: Array.from({ length: count }, (_, index) => ({
        externalTransactionId: `order_${randomUUID()}`,
        amountAoa: 100 + index,
        clientId: "shopper_batch",
        createdAt: new Date(start + Math.floor(index / 2) * 1000),
      })),
    });
    const records: string[][] = parse(await (await get("?from=2026-08-01&to=2026-08-02")).text(), { bom: true });
    expect(records).toHaveLength(count + 1);
    const ids = records.slice(1).map((record) => record[0]);
    expect(new Set(ids).size).toBe(count);
    const times = records.slice(1).map((record) => record[1]!);
    expect(times).toEqual([...times].sort());
  });
});
