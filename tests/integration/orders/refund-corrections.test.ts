import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/admin/staff-events";
import { db } from "@/lib/db/client";
import { recordCorrection } from "@/lib/orders/refund-corrections-admin";
import { orderRefunds } from "@/lib/orders/refund-views-admin";
import { recordRefund } from "@/lib/orders/refunds-admin";
import { adminRequest, testOwner, testPerson, type AdminCaller } from "../../../harness/support/admin";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { expectRefundNumbersWithoutGaps } from "../../../harness/support/refunds";
import { insertTestOrder, insertTestProduct, newExternalTransactionId } from "../../../harness/support/orders";

// Correcting entries (lib/orders/refund-corrections-admin.ts) through
// POST /api/admin/orders/<id>/refunds/<number>/correction, against the suite's real database:
// PostgreSQL with DATABASE_URL set, embedded PGlite without it. Other files record refunds at the
// same time, so numbers are checked as this file sees them (each after the one before) and as the
// whole table has them (1 to the counter, no gaps), never as "the next one".

afterEach(() => settleAfterTasks());

let owner: Actor;
beforeAll(async () => {
  owner = await testOwner();
});

async function postCorrection(externalTransactionId: string, number: number | string, caller: AdminCaller) {
  const { POST } = await import("@/app/api/admin/orders/[externalTransactionId]/refunds/[number]/correction/route");
  return POST(await adminRequest(`/api/admin/orders/${externalTransactionId}/refunds/${number}/correction`, caller), {
    params: Promise.resolve({ externalTransactionId, number: String(number) }),
  });
}

/** The request prepared first (its session opened), sent later: the race sends them all at once. */
async function preparedCorrection(externalTransactionId: string, number: number, json: unknown) {
  const { POST } = await import("@/app/api/admin/orders/[externalTransactionId]/refunds/[number]/correction/route");
  const request = await adminRequest(`/api/admin/orders/${externalTransactionId}/refunds/${number}/correction`, {
    json,
  });
  return () => POST(request, { params: Promise.resolve({ externalTransactionId, number: String(number) }) });
}

async function refund(externalTransactionId: string, fields: Record<string, unknown>) {
  const result = await recordRefund(db(), externalTransactionId, fields, owner);
  if (!result.ok) throw new Error(`refund refused: ${result.message}`);
  return result.refund;
}

const rowsOf = (orderId: string) =>
  db().refund.findMany({ where: { orderId }, orderBy: { number: "asc" }, include: { lines: true } });
const stockOf = async (variantId: string) =>
  (await db().productVariant.findUniqueOrThrow({ where: { id: variantId }, select: { stock: true } })).stock;
const eventsOf = (externalTransactionId: string, kind: string) =>
  db().staffEvent.findMany({
    where: { subject: `order:${externalTransactionId}`, kind },
    orderBy: { createdAt: "asc" },
  });

describe("a correction", () => {
  it("takes back all of the refund by default: 201, a negative entry naming it, its event, and the order refundable again", async () => {
    const order = await insertTestOrder({ status: "CON" }); // 2 × 2 500
    const given = await refund(order.externalTransactionId, { amountAoa: 3_000, method: "bank_transfer" });
    const response = await postCorrection(order.externalTransactionId, given.number, {
      json: { note: "  A transferência foi devolvida pelo banco.  " },
    });
    expect(response.status).toBe(201);
    const { correction } = await response.json();
    expect(correction).toMatchObject({
      number: expect.any(Number),
      externalTransactionId: order.externalTransactionId,
      amountAoa: -3_000,
      deliveryFeeAoa: 0,
      correctsNumber: given.number,
      method: "bank_transfer",
      reference: null,
      note: "A transferência foi devolvida pelo banco.",
      staffName: owner.name,
      lines: [],
    });
    expect(correction.number).toBeGreaterThan(given.number);

    const [, row] = await rowsOf(order.id);
    expect(row).toMatchObject({
      number: correction.number,
      amountAoa: -3_000,
      correctsRefundId: given.id,
      staffId: owner.id,
      note: "A transferência foi devolvida pelo banco.",
      lines: [],
    });
    expect(await eventsOf(order.externalTransactionId, "order.refund_correction")).toEqual([
      expect.objectContaining({
        staffId: owner.id,
        staffName: owner.name,
        details: {
          number: correction.number,
          correctsNumber: given.number,
          amountAoa: -3_000,
          deliveryFeeAoa: 0,
          note: "A transferência foi devolvida pelo banco.",
        },
      }),
    ]);
    const view = await orderRefunds(db(), order.externalTransactionId);
    expect(view).toMatchObject({ paidAoa: 5_000, refundedAoa: 0, remainingAoa: 5_000 });
    expect(view!.refunds.map((entry) => [entry.number, entry.amountAoa, entry.correctsNumber])).toEqual([
      [given.number, 3_000, null],
      [correction.number, -3_000, given.number],
    ]);
  });

  it("takes back part, then the rest by default, then nothing more (409 exceeds_refund): the form goes back to the section", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const given = await refund(order.externalTransactionId, { amountAoa: 3_000, method: "cash" });

    const tooMuch = await postCorrection(order.externalTransactionId, given.number, {
      json: { amountAoa: 3_001, note: "Engano." },
    });
    expect(tooMuch.status).toBe(409);
    expect((await tooMuch.json()).error).toEqual({
      code: "exceeds_refund",
      message: `3001 AOA would take back more than refund ${given.number} gave (3000 AOA): 3000 AOA of it may still be corrected`,
    });

    const part = await postCorrection(order.externalTransactionId, given.number, {
      form: { amountAoa: "1000", note: "Eram 2 000, não 3 000." },
    });
    expect(part.status).toBe(303);
    expect(part.headers.get("location")).toBe(`/admin/orders/${order.externalTransactionId}?refund=corrected#refund`);
    expect(await orderRefunds(db(), order.externalTransactionId)).toMatchObject({
      refundedAoa: 2_000,
      remainingAoa: 3_000,
    });

    const overForm = await postCorrection(order.externalTransactionId, given.number, {
      form: { amountAoa: "2001", note: "Engano." },
    });
    expect(overForm.headers.get("location")).toBe(
      `/admin/orders/${order.externalTransactionId}?refundError=exceeds_refund&refundField=amountAoa&correct=${given.number}#refund`,
    );

    const rest = await postCorrection(order.externalTransactionId, given.number, { json: { note: "Afinal nada." } });
    expect(rest.status).toBe(201);
    expect((await rest.json()).correction.amountAoa).toBe(-2_000);

    const nothing = await postCorrection(order.externalTransactionId, given.number, { json: { note: "De novo." } });
    expect(nothing.status).toBe(409);
    expect((await nothing.json()).error.message).toBe(
      `refund ${given.number} has been corrected in full: nothing of it remains to correct`,
    );
    expect((await rowsOf(order.id)).map((row) => row.amountAoa)).toEqual([3_000, -1_000, -2_000]);
    expect(await eventsOf(order.externalTransactionId, "order.refund_correction")).toHaveLength(2);
    await expectRefundNumbersWithoutGaps();
  });

  it("of a correction is refused (409 not_a_refund); a number not the order's is 404; nothing is written", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const other = await insertTestOrder({ status: "CON" });
    const given = await refund(order.externalTransactionId, { amountAoa: 1_000, method: "cash" });
    const elsewhere = await refund(other.externalTransactionId, { amountAoa: 1_000, method: "cash" });
    const corrected = await recordCorrection(
      db(),
      order.externalTransactionId,
      given.number,
      { amountAoa: 10, note: "x" },
      owner,
    );
    expect(corrected.ok).toBe(true);
    const correctionNumber = corrected.ok ? corrected.correction.number : 0;

    const ofCorrection = await postCorrection(order.externalTransactionId, correctionNumber, { json: { note: "y" } });
    expect(ofCorrection.status).toBe(409);
    expect((await ofCorrection.json()).error.code).toBe("not_a_refund");
    for (const number of [elsewhere.number, 999_999_999, "0", "abc"]) {
      const response = await postCorrection(order.externalTransactionId, number, { json: { note: "y" } });
      expect(response.status, String(number)).toBe(404);
      expect((await response.json()).error.code).toBe("no_such_refund");
    }
    const unknown = await postCorrection(newExternalTransactionId(), given.number, { json: { note: "y" } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe("not_found");
    expect(await rowsOf(order.id)).toHaveLength(2);
    expect(await rowsOf(other.id)).toHaveLength(1);
    await expectRefundNumbersWithoutGaps();
  });

  it("needs a note and a whole positive amount: 400 naming the field, and nothing is written", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const given = await refund(order.externalTransactionId, { amountAoa: 1_000, method: "cash" });
    const cases: [unknown, RegExp][] = [
      [{}, /^note is required/],
      [{ note: "   " }, /^note is required/],
      [{ note: "a\u0000b" }, /^note must not contain a NUL/],
      [{ note: "x".repeat(2001) }, /^note must have at most 2000/],
      [{ note: "x", amountAoa: 0 }, /^amountAoa must be at least 1/],
      [{ note: "x", amountAoa: -100 }, /^amountAoa must be at least 1/],
      [{ note: "x", amountAoa: 10.5 }, /^amountAoa /],
    ];
    for (const [json, message] of cases) {
      const response = await postCorrection(order.externalTransactionId, given.number, { json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      const { error } = await response.json();
      expect(error.code).toBe("invalid_input");
      expect(error.message).toMatch(message);
    }
    const form = await postCorrection(order.externalTransactionId, given.number, { form: { note: "" } });
    expect(form.headers.get("location")).toBe(
      `/admin/orders/${order.externalTransactionId}?refundError=invalid_input&refundField=note&correct=${given.number}#refund`,
    );
    expect(await rowsOf(order.id)).toHaveLength(1);
  });

  it("is the owner's: staff 403, nobody signed in 401, another site 403", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const given = await refund(order.externalTransactionId, { amountAoa: 1_000, method: "cash" });
    const json = { note: "x" };
    const id = order.externalTransactionId;
    expect((await postCorrection(id, given.number, { json, session: await testPerson("staff") })).status).toBe(403);
    expect((await postCorrection(id, given.number, { json, session: false })).status).toBe(401);
    expect((await postCorrection(id, given.number, { json, crossSite: true })).status).toBe(403);
    expect(await rowsOf(order.id)).toHaveLength(1);
  });
});

describe("what a correction gives back to the order", () => {
  it("room to refund again, up to what was paid and no further; numbers run on across refunds and corrections", async () => {
    const order = await insertTestOrder({ status: "CON" }); // 5 000
    const all = await refund(order.externalTransactionId, { method: "cash" });
    expect(all.amountAoa).toBe(5_000);
    expect((await recordRefund(db(), order.externalTransactionId, { amountAoa: 1, method: "cash" }, owner)).ok).toBe(
      false,
    );
    const corrected = await recordCorrection(
      db(),
      order.externalTransactionId,
      all.number,
      { amountAoa: 2_000, note: "Só 3 000 foram." },
      owner,
    );
    expect(corrected).toMatchObject({ ok: true, correction: { amountAoa: -2_000 } });
    const again = await refund(order.externalTransactionId, { method: "bank_transfer" });
    expect(again.amountAoa).toBe(2_000);
    const past = await recordRefund(db(), order.externalTransactionId, { amountAoa: 1, method: "cash" }, owner);
    expect(past).toMatchObject({ ok: false, status: 409, code: "exceeds_paid" });

    const numbers = (await rowsOf(order.id)).map((row) => row.number);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(3);
    expect(await orderRefunds(db(), order.externalTransactionId)).toMatchObject({
      refundedAoa: 5_000,
      remainingAoa: 0,
    });
    await expectRefundNumbersWithoutGaps();
  });

  it("takes back the goods' part first and the delivery fee last; the units of the return stay where it put them", async () => {
    const product = await insertTestProduct({ priceAoa: 1_000, stock: 5 });
    const externalTransactionId = newExternalTransactionId();
    const order = await db().order.create({
      data: {
        externalTransactionId,
        status: "CON",
        finalizedAt: new Date(),
        amountAoa: 5_000,
        subtotalAoa: 3_000,
        deliveryFeeAoa: 2_000,
        deliveryMethod: "delivery",
        clientId: `shopper_${randomUUID()}`,
        lines: {
          create: {
            productId: product.id,
            variantId: product.variantId,
            productName: product.name,
            unitPriceAoa: 1_000,
            quantity: 3,
          },
        },
      },
    });
    // Two units back (one restocked, one damaged) and the delivery fee: 2 000 + 2 000.
    const given = await refund(externalTransactionId, {
      method: "cash",
      includeDeliveryFee: true,
      returns: [
        { variantId: product.variantId, quantity: 1, restock: true },
        { variantId: product.variantId, quantity: 1, restock: false },
      ],
    });
    expect(given).toMatchObject({ amountAoa: 4_000, deliveryFeeAoa: 2_000 });
    const stock = await stockOf(product.variantId);

    const first = await recordCorrection(
      db(),
      externalTransactionId,
      given.number,
      { amountAoa: 1_500, note: "a" },
      owner,
    );
    expect(first).toMatchObject({ ok: true, correction: { amountAoa: -1_500, deliveryFeeAoa: 0 } });
    const second = await recordCorrection(
      db(),
      externalTransactionId,
      given.number,
      { amountAoa: 1_000, note: "b" },
      owner,
    );
    expect(second).toMatchObject({ ok: true, correction: { amountAoa: -1_000, deliveryFeeAoa: -500 } });
    const view = await orderRefunds(db(), externalTransactionId);
    expect(view).toMatchObject({ refundedAoa: 1_500, remainingAoa: 3_500, deliveryFeeRefundedAoa: 1_500 });
    expect(view!.lines).toEqual([expect.objectContaining({ returned: 2, returnable: 1 })]);
    expect(await stockOf(product.variantId)).toBe(stock);

    // What of the fee the corrections took back may be refunded again; no more.
    const fee = await refund(externalTransactionId, { method: "cash", includeDeliveryFee: true, amountAoa: 500 });
    expect(fee).toMatchObject({ amountAoa: 500, deliveryFeeAoa: 500 });
    expect(await db().refundLine.count({ where: { refund: { orderId: order.id } } })).toBe(2);
  });
});

describe("the cap under races", () => {
  it("5 corrections of 40 % of a refund at once: exactly 2 are recorded, the rest 409", async () => {
    const order = await insertTestOrder({ status: "CON", quantity: 4 }); // 10 000
    const given = await refund(order.externalTransactionId, { method: "cash" });
    const sends = await Promise.all(
      Array.from({ length: 5 }, () =>
        preparedCorrection(order.externalTransactionId, given.number, { amountAoa: 4_000, note: "race" }),
      ),
    );
    const statuses = (await Promise.all(sends.map((send) => send()))).map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 409, 409, 409]);
    expect((await rowsOf(order.id)).reduce((sum, row) => sum + row.amountAoa, 0)).toBe(2_000);
    await expectRefundNumbersWithoutGaps();
  });
});

describe("the database", () => {
  it("refuses a correction with lines, a positive correction, and a correction without a note", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const given = await refund(order.externalTransactionId, {
      method: "cash",
      returns: [{ variantId: order.variantId, quantity: 1, restock: false }],
    });
    const corrected = await recordCorrection(db(), order.externalTransactionId, given.number, { note: "x" }, owner);
    expect(corrected.ok).toBe(true);
    const correctionId = corrected.ok ? corrected.correction.id : "";
    const line = await db().orderLine.findFirstOrThrow({ where: { orderId: order.id } });
    await expect(
      db().refundLine.create({
        data: { refundId: correctionId, orderLineId: line.id, variantId: order.variantId, quantity: 1, restock: true },
      }),
    ).rejects.toThrow(/a correcting entry has no lines/);
    const row = (amountAoa: number, note: string | null) =>
      db().$executeRaw`
        INSERT INTO refunds (number, order_id, amount_aoa, method, note, refunded_at, staff_id, staff_name, corrects_refund_id)
        VALUES (2000000000, ${order.id}::uuid, ${amountAoa}, 'cash', ${note}, now(), ${owner.id}, 'x', ${given.id}::uuid)`;
    await expect(row(100, "x")).rejects.toThrow(/refunds_amount_aoa_check/);
    await expect(row(-100, null)).rejects.toThrow(/refunds_correction_note_check/);
  });
});
