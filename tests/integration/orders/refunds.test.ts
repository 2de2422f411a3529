import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/admin/staff-events";
import { CATALOG_ROUTES } from "@/lib/catalog/cached-pages";
import { db } from "@/lib/db/client";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { recordRefund } from "@/lib/orders/refunds-admin";
import { orderRefunds } from "@/lib/orders/refund-views-admin";
import { adminRequest, testOwner, testPerson, type AdminCaller } from "../../../harness/support/admin";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestOrder, insertTestProduct, newExternalTransactionId } from "../../../harness/support/orders";
import { expectRefundNumbersWithoutGaps } from "../../../harness/support/refunds";
import { notification, postWebhook } from "../../../harness/support/webhooks";

// Refunds and returns (lib/orders/refunds-admin.ts) through POST /api/admin/orders/<id>/refunds,
// against the suite's real database: PostgreSQL with DATABASE_URL set, embedded PGlite without it
// (its pool's connections take turns, so the races below run one after the other there and the
// outcome must be the same). Each test makes orders and products of its own. Other files record
// refunds at the same time, so a number is checked to come after those before it and the whole
// table to have no gaps (harness/support/refunds.ts), never to be "the next one".

afterEach(() => settleAfterTasks());

// Which cached catalogue pages a refund marks stale (lib/catalog/cached-pages.ts). Outside Next's
// server revalidatePath has no cache to mark; here it records.
const revalidated = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/cache")>()),
  revalidatePath: (path: string) => void revalidated.paths.push(path),
}));

let owner: Actor;
beforeAll(async () => {
  owner = await testOwner();
});

async function postRefund(externalTransactionId: string, caller: AdminCaller) {
  const { POST } = await import("@/app/api/admin/orders/[externalTransactionId]/refunds/route");
  return POST(await adminRequest(`/api/admin/orders/${externalTransactionId}/refunds`, caller), {
    params: Promise.resolve({ externalTransactionId }),
  });
}

/** The request prepared first (its session opened), sent later: the races send them all at once. */
async function preparedRefund(externalTransactionId: string, json: unknown) {
  const { POST } = await import("@/app/api/admin/orders/[externalTransactionId]/refunds/route");
  const request = await adminRequest(`/api/admin/orders/${externalTransactionId}/refunds`, { json });
  return () => POST(request, { params: Promise.resolve({ externalTransactionId }) });
}

const refundsOf = (orderId: string) =>
  db().refund.findMany({ where: { orderId }, orderBy: { number: "asc" }, include: { lines: true } });
const lastNumber = async () => (await db().refundCounter.findUniqueOrThrow({ where: { id: 1 } })).lastNumber;
const stockOf = async (variantId: string) =>
  (await db().productVariant.findUniqueOrThrow({ where: { id: variantId }, select: { stock: true } })).stock;
const eventsOf = (externalTransactionId: string) =>
  db().staffEvent.findMany({ where: { subject: `order:${externalTransactionId}` }, orderBy: { createdAt: "asc" } });

/**
 * A paid order of two lines, as a checkout with a promo code and a delivery writes it: A, 3 × 1 000
 * with 300 of the discount; B, 2 × 2 000 with the other 300; delivery 2 000. Paid: 8 400.
 */
async function paidOrderOfTwoLines() {
  const a = await insertTestProduct({ priceAoa: 1_000, stock: 5 });
  const b = await insertTestProduct({ priceAoa: 2_000, stock: 7 });
  const externalTransactionId = newExternalTransactionId();
  const order = await db().order.create({
    data: {
      externalTransactionId,
      status: "CON",
      finalizedAt: new Date(),
      amountAoa: 8_400,
      subtotalAoa: 7_000,
      discountAoa: 600,
      deliveryFeeAoa: 2_000,
      deliveryMethod: "delivery",
      clientId: `shopper_${randomUUID()}`,
      lines: {
        create: [
          {
            productId: a.id,
            variantId: a.variantId,
            productName: a.name,
            unitPriceAoa: 1_000,
            quantity: 3,
            discountAoa: 300,
          },
          {
            productId: b.id,
            variantId: b.variantId,
            productName: b.name,
            unitPriceAoa: 2_000,
            quantity: 2,
            discountAoa: 300,
          },
        ],
      },
    },
  });
  return { id: order.id, externalTransactionId, a, b };
}

/** A cancelled order the service then said was paid: raised for attention by the state machine. */
async function paidAfterCancel() {
  const order = await insertTestOrder({ status: "CAN" });
  const answer = await postWebhook(notification(order.externalTransactionId, "CON"));
  expect(answer.body.outcome).toBe("paid_after_cancel");
  return order;
}

describe("a refund of a paid order", () => {
  it("is answered 201 with the refund, stored with who recorded it, and recorded as an order.refund event", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const before = await lastNumber();
    const response = await postRefund(order.externalTransactionId, {
      json: { amountAoa: 1_000, method: "bank_transfer", reference: " TRF-2026-0042 ", note: "Chegou partido." },
    });
    expect(response.status).toBe(201);
    const { refund } = await response.json();
    expect(refund.number).toBeGreaterThan(before);
    expect(refund).toMatchObject({
      externalTransactionId: order.externalTransactionId,
      amountAoa: 1_000,
      deliveryFeeAoa: 0,
      method: "bank_transfer",
      reference: "TRF-2026-0042",
      note: "Chegou partido.",
      staffName: owner.name,
      lines: [],
    });
    const [row] = await refundsOf(order.id);
    expect(row).toMatchObject({
      id: refund.id,
      number: refund.number,
      amountAoa: 1_000,
      method: "bank_transfer",
      staffId: owner.id,
      staffName: owner.name,
    });
    expect(row!.refundedAt.toISOString()).toBe(refund.refundedAt);
    await expectRefundNumbersWithoutGaps();
    const events = await eventsOf(order.externalTransactionId);
    expect(events).toEqual([
      expect.objectContaining({
        kind: "order.refund",
        staffId: owner.id,
        staffName: owner.name,
        details: expect.objectContaining({
          number: refund.number,
          amountAoa: 1_000,
          method: "bank_transfer",
          reference: "TRF-2026-0042",
          returns: [],
        }),
      }),
    ]);
  });

  it("gives back all that remains when no amount is given, and then nothing more (409 exceeds_paid)", async () => {
    const order = await insertTestOrder({ status: "CON" }); // 2 × 2 500
    expect((await postRefund(order.externalTransactionId, { json: { amountAoa: 1_500, method: "cash" } })).status).toBe(
      201,
    );
    const rest = await postRefund(order.externalTransactionId, { json: { method: "multicaixa_express" } });
    expect(rest.status).toBe(201);
    expect((await rest.json()).refund.amountAoa).toBe(3_500);
    const more = await postRefund(order.externalTransactionId, { json: { amountAoa: 1, method: "cash" } });
    expect(more.status).toBe(409);
    expect((await more.json()).error).toMatchObject({
      code: "exceeds_paid",
      message: expect.stringMatching(/nothing remains/),
    });
    expect((await refundsOf(order.id)).map((refund) => refund.amountAoa)).toEqual([1_500, 3_500]);
    expect(await orderRefunds(db(), order.externalTransactionId)).toMatchObject({
      paidAoa: 5_000,
      refundedAoa: 5_000,
      remainingAoa: 0,
    });
  });

  it("is dated when the person says the money went back (Luanda's time from the form), never in the future", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const placed = new Date(Date.now() - 3 * 86_400_000);
    await db().order.update({ where: { id: order.id }, data: { createdAt: placed } });
    const yesterday = new Date(Date.now() - 86_400_000);
    const local = new Date(yesterday.getTime() + 3_600_000).toISOString().slice(0, 16); // Luanda is UTC+1
    const response = await postRefund(order.externalTransactionId, {
      json: { amountAoa: 100, method: "cash", refundedAt: local },
    });
    expect(response.status).toBe(201);
    const [row] = await refundsOf(order.id);
    expect(Math.abs(row!.refundedAt.getTime() - yesterday.getTime())).toBeLessThan(60_000);

    for (const refundedAt of [
      new Date(Date.now() + 86_400_000).toISOString(),
      new Date(placed.getTime() - 60_000).toISOString(),
    ]) {
      const refused = await postRefund(order.externalTransactionId, {
        json: { amountAoa: 100, method: "cash", refundedAt },
      });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.message).toMatch(/^refundedAt /);
    }
    expect(await refundsOf(order.id)).toHaveLength(1);
  });
});

describe("the cap: an order's refunds never pass what it paid", () => {
  it("10 refunds of 40 % each at once, over separate connections: exactly 2 are recorded, the rest 409", async () => {
    const order = await insertTestOrder({ status: "CON", quantity: 4 }); // 4 × 2 500 = 10 000
    const share = order.amountAoa * 0.4;
    const sends = await Promise.all(
      Array.from({ length: 10 }, () =>
        preparedRefund(order.externalTransactionId, { amountAoa: share, method: "cash" }),
      ),
    );
    const responses = await Promise.all(sends.map((send) => send()));
    const statuses = responses.map((response) => response.status).sort();
    const refused = await Promise.all(
      responses.filter((response) => response.status === 409).map(async (response) => (await response.json()).error),
    );
    const rows = await refundsOf(order.id);
    const sum = rows.reduce((total, row) => total + row.amountAoa, 0);
    expect({ statuses, recorded: rows.length, sum }).toEqual({
      statuses: [201, 201, ...Array(8).fill(409)],
      recorded: 2,
      sum: 8_000,
    });
    expect(sum).toBeLessThanOrEqual(order.amountAoa);
    for (const error of refused)
      expect(error).toEqual({
        code: "exceeds_paid",
        message: `4000 AOA would take the refunds past what the order paid (10000 AOA): 2000 AOA remains refundable`,
      });
    expect(await eventsOf(order.externalTransactionId)).toHaveLength(2);
  });

  it("numbers refunds consecutively with no gap, however many are recorded at once, and a refused one draws none", async () => {
    const orders = await Promise.all(Array.from({ length: 6 }, () => insertTestOrder({ status: "CON" })));
    const before = await lastNumber();
    // Each order twice at once: its whole amount, and more than it paid (always refused).
    const sends = await Promise.all(
      orders.flatMap((order) => [
        preparedRefund(order.externalTransactionId, { method: "cash" }),
        preparedRefund(order.externalTransactionId, { amountAoa: order.amountAoa + 1, method: "cash" }),
      ]),
    );
    const statuses = (await Promise.all(sends.map((send) => send()))).map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(6);
    const numbers = (await db().refund.findMany({ where: { orderId: { in: orders.map((order) => order.id) } } }))
      .map((refund) => refund.number)
      .sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(6);
    expect(numbers[0]).toBeGreaterThan(before);
    await expectRefundNumbersWithoutGaps();
  });
});

describe("returns", () => {
  it("partial returns restock or write off each unit, give back the lines' value after their discount, and add up to what was paid", async () => {
    const order = await paidOrderOfTwoLines();
    const [stockA, stockB] = [await stockOf(order.a.variantId), await stockOf(order.b.variantId)];

    // One unit of A back on the shelf, one damaged: worth 2 000 less ⌊300 × 2 / 3⌋ = 1 800.
    const first = await postRefund(order.externalTransactionId, {
      json: {
        method: "bank_transfer",
        returns: [
          { variantId: order.a.variantId, quantity: 1, restock: true },
          { variantId: order.a.variantId, quantity: 1, restock: false },
        ],
      },
    });
    expect(first.status).toBe(201);
    const firstRefund = (await first.json()).refund;
    expect(firstRefund).toMatchObject({ amountAoa: 1_800, deliveryFeeAoa: 0 });
    expect(await stockOf(order.a.variantId)).toBe(stockA + 1);
    const adjustments = await db().stockAdjustment.findMany({
      where: { variantId: order.a.variantId, kind: "return" },
    });
    expect(adjustments).toEqual([
      expect.objectContaining({
        productId: order.a.id,
        delta: 1,
        stockAfter: stockA + 1,
        reason: `Return: refund ${firstRefund.number}, order ${order.externalTransactionId.slice(6, 14).toUpperCase()}`,
      }),
    ]);

    // The last unit of A restocked, both of B damaged, and the delivery fee: 900 + 3 700 + 2 000.
    const second = await postRefund(order.externalTransactionId, {
      form: {
        method: "cash",
        includeDeliveryFee: "on",
        [`returns.${order.a.variantId}.restock`]: "1",
        [`returns.${order.a.variantId}.damaged`]: "",
        [`returns.${order.b.variantId}.restock`]: "0",
        [`returns.${order.b.variantId}.damaged`]: "2",
      },
    });
    expect(second.status).toBe(303);
    expect(second.headers.get("location")).toBe(`/admin/orders/${order.externalTransactionId}?refund=refunded#refund`);
    expect(await stockOf(order.a.variantId)).toBe(stockA + 2);
    expect(await stockOf(order.b.variantId)).toBe(stockB);
    expect(await db().stockAdjustment.count({ where: { variantId: order.b.variantId, kind: "return" } })).toBe(0);

    const rows = await refundsOf(order.id);
    expect(rows.map((row) => [row.amountAoa, row.deliveryFeeAoa])).toEqual([
      [1_800, 0],
      [6_600, 2_000],
    ]);
    expect(rows.reduce((sum, row) => sum + row.amountAoa, 0)).toBe(8_400);
    const lineIds = Object.fromEntries(
      (await db().orderLine.findMany({ where: { orderId: order.id } })).map((line) => [line.variantId, line.id]),
    );
    const summary = (rows: Awaited<ReturnType<typeof refundsOf>>[number]["lines"]) =>
      rows
        .map((line) => ({
          orderLineId: line.orderLineId,
          variantId: line.variantId,
          quantity: line.quantity,
          restock: line.restock,
        }))
        .sort((x, y) => `${x.variantId}${x.restock}`.localeCompare(`${y.variantId}${y.restock}`));
    expect(summary(rows[0]!.lines)).toEqual(
      summary([
        { orderLineId: lineIds[order.a.variantId]!, variantId: order.a.variantId, quantity: 1, restock: false },
        { orderLineId: lineIds[order.a.variantId]!, variantId: order.a.variantId, quantity: 1, restock: true },
      ] as never),
    );
    expect(summary(rows[1]!.lines)).toEqual(
      summary([
        { orderLineId: lineIds[order.a.variantId]!, variantId: order.a.variantId, quantity: 1, restock: true },
        { orderLineId: lineIds[order.b.variantId]!, variantId: order.b.variantId, quantity: 2, restock: false },
      ] as never),
    );
    const events = await eventsOf(order.externalTransactionId);
    expect(events.map((event) => (event.details as { returns: unknown[] }).returns.length)).toEqual([2, 2]);
    expect(await orderRefunds(db(), order.externalTransactionId)).toMatchObject({
      remainingAoa: 0,
      lines: expect.arrayContaining([
        expect.objectContaining({ variantId: order.a.variantId, returned: 3, returnable: 0 }),
        expect.objectContaining({ variantId: order.b.variantId, returned: 2, returnable: 0 }),
      ]),
    });
  });

  it("marks the cached catalogue pages stale when units go back to stock, and only then", async () => {
    const order = await paidOrderOfTwoLines();
    const refund = async (json: unknown) => {
      revalidated.paths = [];
      expect((await postRefund(order.externalTransactionId, { json })).status).toBe(201);
      return [...new Set(revalidated.paths)].sort();
    };
    expect(await refund({ amountAoa: 100, method: "cash" })).toEqual([]);
    expect(
      await refund({ method: "cash", returns: [{ variantId: order.b.variantId, quantity: 1, restock: false }] }),
    ).toEqual([]);
    expect(
      await refund({ method: "cash", returns: [{ variantId: order.a.variantId, quantity: 1, restock: true }] }),
    ).toEqual([...CATALOG_ROUTES].sort());
  });

  it("never returns more units of a line than were bought, counting earlier returns: 409, and nothing is written", async () => {
    const order = await paidOrderOfTwoLines();
    const stockA = await stockOf(order.a.variantId);
    const tooMany = await postRefund(order.externalTransactionId, {
      json: { amountAoa: 100, method: "cash", returns: [{ variantId: order.a.variantId, quantity: 4, restock: true }] },
    });
    expect(tooMany.status).toBe(409);
    expect((await tooMany.json()).error.code).toBe("exceeds_bought");

    expect(
      (
        await postRefund(order.externalTransactionId, {
          json: { method: "cash", returns: [{ variantId: order.a.variantId, quantity: 2, restock: true }] },
        })
      ).status,
    ).toBe(201);
    // Two came back; one restocked and one damaged is one too many, refused as a whole.
    const oneTooMany = await postRefund(order.externalTransactionId, {
      json: {
        method: "cash",
        returns: [
          { variantId: order.a.variantId, quantity: 1, restock: true },
          { variantId: order.a.variantId, quantity: 1, restock: false },
        ],
      },
    });
    expect(oneTooMany.status).toBe(409);
    expect((await oneTooMany.json()).error).toMatchObject({
      code: "exceeds_bought",
      message: expect.stringMatching(/would pass what was bought \(3\): 1 can still be returned/),
    });
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(await stockOf(order.a.variantId)).toBe(stockA + 2);
    await expectRefundNumbersWithoutGaps();
    expect(await eventsOf(order.externalTransactionId)).toHaveLength(1);
  });

  it("two returns of the same line at once never pass what was bought", async () => {
    const order = await paidOrderOfTwoLines();
    const stockA = await stockOf(order.a.variantId);
    const sends = await Promise.all(
      Array.from({ length: 5 }, () =>
        preparedRefund(order.externalTransactionId, {
          amountAoa: 100,
          method: "cash",
          returns: [{ variantId: order.a.variantId, quantity: 2, restock: true }],
        }),
      ),
    );
    const statuses = (await Promise.all(sends.map((send) => send()))).map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    expect(await stockOf(order.a.variantId)).toBe(stockA + 2);
  });
});

describe("what has nothing to give back", () => {
  it("an order never paid: 409 order_not_paid; an unknown order: 404; nothing is written", async () => {
    for (const status of ["PEN", "CAN"] as const) {
      const order = await insertTestOrder({ status });
      const response = await postRefund(order.externalTransactionId, { json: { amountAoa: 100, method: "cash" } });
      expect(response.status).toBe(409);
      expect((await response.json()).error.code).toBe("order_not_paid");
      expect(await refundsOf(order.id)).toEqual([]);
      expect(await eventsOf(order.externalTransactionId)).toEqual([]);
    }
    for (const unknown of [newExternalTransactionId(), "order_nope"])
      expect((await postRefund(unknown, { json: { amountAoa: 100, method: "cash" } })).status).toBe(404);
    await expectRefundNumbersWithoutGaps();
  });

  it("an order paid after it was cancelled is refunded in money, its whole amount by default; a return of it is refused", async () => {
    const order = await paidAfterCancel();
    const stock = await stockOf(order.variantId);
    const withReturn = await postRefund(order.externalTransactionId, {
      json: { method: "bank_transfer", returns: [{ variantId: order.variantId, quantity: 1, restock: true }] },
    });
    expect(withReturn.status).toBe(409);
    expect((await withReturn.json()).error.code).toBe("nothing_to_return");
    const response = await postRefund(order.externalTransactionId, {
      json: { method: "bank_transfer", reference: "IBAN AO06 …" },
    });
    expect(response.status).toBe(201);
    expect((await response.json()).refund.amountAoa).toBe(order.amountAoa);
    expect(await stockOf(order.variantId)).toBe(stock);
  });
});

describe("bad input", () => {
  it("is a 400 naming the field, and changes nothing", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const cases: [unknown, RegExp][] = [
      [{ amountAoa: 100 }, /^method /],
      [{ amountAoa: 100, method: "paypal" }, /^method must be one of/],
      [{ amountAoa: 0, method: "cash" }, /^amountAoa must be at least 1/],
      [{ amountAoa: 10.5, method: "cash" }, /^amountAoa /],
      [{ amountAoa: 100, method: "cash", note: "a\u0000b" }, /^note must not contain a NUL/],
      [{ amountAoa: 100, method: "cash", reference: "x".repeat(201) }, /^reference must have at most 200/],
      [{ amountAoa: 100, method: "cash", refundedAt: "yesterday" }, /^refundedAt must be a date and time/],
      [{ amountAoa: 100, method: "cash", returns: "all" }, /^returns /],
      [
        { amountAoa: 100, method: "cash", returns: [{ variantId: "x", quantity: 1, restock: true }] },
        /^returns\.0\.variantId /,
      ],
      [
        { amountAoa: 100, method: "cash", returns: [{ variantId: order.variantId, quantity: 0, restock: true }] },
        /^returns\.0\.quantity /,
      ],
      [
        { amountAoa: 100, method: "cash", returns: [{ variantId: randomUUID(), quantity: 1, restock: true }] },
        /^returns\.0\.variantId .* is not a variant this order sold/,
      ],
    ];
    for (const [json, message] of cases) {
      const response = await postRefund(order.externalTransactionId, { json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      const { error } = await response.json();
      expect(error.code).toBe("invalid_input");
      expect(error.message).toMatch(message);
    }
    const form = await postRefund(order.externalTransactionId, { form: { amountAoa: "abc", method: "cash" } });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe(
      `/admin/orders/${order.externalTransactionId}?refundError=invalid_input&refundField=amountAoa#refund`,
    );
    expect(await refundsOf(order.id)).toEqual([]);
    expect(await eventsOf(order.externalTransactionId)).toEqual([]);
  });
});

describe("who may", () => {
  it("staff are refused (403), and so is nobody signed in (401) and another site; nothing is written", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const json = { amountAoa: 100, method: "cash" };
    expect((await postRefund(order.externalTransactionId, { json, session: await testPerson("staff") })).status).toBe(
      403,
    );
    expect((await postRefund(order.externalTransactionId, { json, session: false })).status).toBe(401);
    expect((await postRefund(order.externalTransactionId, { json, crossSite: true })).status).toBe(403);
    expect(await refundsOf(order.id)).toEqual([]);
  });
});

/** PostgreSQL, not embedded PGlite, whose one session cannot hold two transactions at once. */
const server = Boolean(process.env.TEST_SERVER_DATABASE_URL);

describe("an order held by another change", () => {
  it.runIf(server)(
    "past the session's lock_timeout is a 503 busy that writes nothing; the same request then works",
    async () => {
      const order = await insertTestOrder({ status: "CON" });
      // The shop's client as lib/db/client.ts makes it, with a lock_timeout short enough for a test.
      const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2, options: "-c lock_timeout=200" });
      const shop = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
      const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await holder.connect();
      try {
        const before = await lastNumber();
        await holder.query("BEGIN");
        await holder.query("SELECT id FROM orders WHERE id = $1 FOR UPDATE", [order.id]);
        const refused = await recordRefund(
          shop,
          order.externalTransactionId,
          { amountAoa: 100, method: "cash" },
          owner,
        );
        expect(refused).toMatchObject({ ok: false, status: 503, code: "busy" });
        await holder.query("ROLLBACK");
        expect(await refundsOf(order.id)).toEqual([]);
        await expectRefundNumbersWithoutGaps();
        const recorded = await recordRefund(
          shop,
          order.externalTransactionId,
          { amountAoa: 100, method: "cash" },
          owner,
        );
        expect(recorded).toMatchObject({ ok: true, refund: { number: expect.any(Number) } });
        expect(recorded.ok && recorded.refund.number).toBeGreaterThan(before);
      } finally {
        await holder.end();
        await shop.$disconnect();
      }
    },
  );
});

describe("the record", () => {
  it("is never edited or deleted: the database refuses, whatever asks", async () => {
    const order = await paidOrderOfTwoLines();
    const result = await recordRefund(
      db(),
      order.externalTransactionId,
      { method: "cash", returns: [{ variantId: order.b.variantId, quantity: 1, restock: false }] },
      owner,
    );
    expect(result.ok).toBe(true);
    const [refund] = await refundsOf(order.id);
    await expect(db().refund.update({ where: { id: refund!.id }, data: { amountAoa: 1 } })).rejects.toThrow(
      /never edited or deleted/,
    );
    await expect(db().refund.delete({ where: { id: refund!.id } })).rejects.toThrow(/never edited or deleted/);
    await expect(
      db().refundLine.updateMany({ where: { refundId: refund!.id }, data: { quantity: 2 } }),
    ).rejects.toThrow(/never edited or deleted/);
    expect((await refundsOf(order.id))[0]).toEqual(refund);
  });
});
