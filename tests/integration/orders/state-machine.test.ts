import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { JOB_TYPES } from "@/lib/jobs/job-types";
import {
  applyPaymentUpdate,
  canFulfilAfterCancel,
  canTransition,
  fulfilAfterCancelUpdate,
  isFinal,
  type OrderStatus,
} from "@/lib/orders/state-machine";
import { insertTestOrder, jobsOf, newExternalTransactionId } from "../../../harness/support/orders";

// The order state machine against the suite's real database (contract 3).

/** The test orders have no shopper's email: no paid mail for the shopper. */
const CON_JOBS = [JOB_TYPES.clearCart, JOB_TYPES.confirmationMail, JOB_TYPES.recordInvoice].sort();
const CAN_JOBS = [JOB_TYPES.releaseStock, JOB_TYPES.reopenCart].sort();

const statusOf = async (id: string) => (await db().order.findUniqueOrThrow({ where: { id } })).status;

describe("the transition table", () => {
  it.each<[OrderStatus, OrderStatus, boolean]>([
    ["PEN", "CON", true],
    ["PEN", "CAN", true],
    ["PEN", "PEN", false],
    ["CON", "CAN", false],
    ["CON", "PEN", false],
    ["CAN", "CON", false],
    ["CAN", "PEN", false],
    ["CON", "CON", false],
  ])("%s → %s allowed: %s", (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed);
  });

  it("CON and CAN are final, PEN is not", () => {
    expect([isFinal("PEN"), isFinal("CON"), isFinal("CAN")]).toEqual([false, true, true]);
  });
});

describe("applyPaymentUpdate", () => {
  it("PEN → CON sets finalized_at and enqueues the confirmation jobs once", async () => {
    const order = await insertTestOrder();
    const result = await applyPaymentUpdate(
      db(),
      { externalTransactionId: order.externalTransactionId },
      { status: "CON" },
    );
    expect(result).toMatchObject({ outcome: "transitioned", order: { id: order.id, status: "CON" } });
    const row = await db().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row.status).toBe("CON");
    // Written by now() in SQL and read by Prisma as UTC: they agree only in a UTC session.
    expect(Math.abs(row.finalizedAt!.getTime() - Date.now())).toBeLessThan(60_000);
    const jobs = await jobsOf(order.externalTransactionId);
    expect(jobs.map((job) => job.type)).toEqual(CON_JOBS);
    for (const job of jobs) {
      expect(job.dedupeKey).toBe(`${job.type}:${order.externalTransactionId}`);
      expect(job.payload).toEqual({ orderId: order.id, externalTransactionId: order.externalTransactionId });
      expect(job.status).toBe("QUEUED");
    }
  });

  it("says when the order's hold had run out (the catalogue showed its units as free), and only then", async () => {
    const held = await insertTestOrder();
    const lapsed = await insertTestOrder();
    await db()
      .$executeRaw`UPDATE orders SET hold_expires_at = now() - interval '1 second' WHERE id = ${lapsed.id}::uuid`;
    const paidInTime = await applyPaymentUpdate(
      db(),
      { externalTransactionId: held.externalTransactionId },
      { status: "CON" },
    );
    const paidLate = await applyPaymentUpdate(
      db(),
      { externalTransactionId: lapsed.externalTransactionId },
      { status: "CON" },
    );
    expect(paidInTime.outcome).toBe("transitioned");
    expect(paidInTime.holdHadExpired).toBeUndefined();
    expect(paidLate).toMatchObject({ outcome: "transitioned", holdHadExpired: true });
  });

  it("PEN → CAN enqueues the stock release and the cart reopening", async () => {
    const order = await insertTestOrder();
    const result = await applyPaymentUpdate(
      db(),
      { externalTransactionId: order.externalTransactionId },
      { status: "CAN" },
    );
    expect(result.outcome).toBe("transitioned");
    expect((await jobsOf(order.externalTransactionId)).map((job) => job.type)).toEqual(CAN_JOBS);
  });

  it.each<[OrderStatus, OrderStatus]>([
    ["CON", "CAN"],
    ["CON", "PEN"],
    ["CON", "CON"],
    ["CAN", "PEN"],
    ["CAN", "CAN"],
  ])("a %s order told %s stays as it was, and nothing is enqueued", async (from, to) => {
    const order = await insertTestOrder({ status: from });
    const before = await db().order.findUniqueOrThrow({ where: { id: order.id } });
    const result = await applyPaymentUpdate(
      db(),
      { externalTransactionId: order.externalTransactionId },
      { status: to, paymentReference: "999888777", entityNumber: "11111" },
    );
    expect(result.outcome).toBe("already_final");
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id } })).toEqual(before);
    expect(await jobsOf(order.externalTransactionId)).toEqual([]);
  });

  it("PEN with a payment reference stores it and stays PEN; the same news again changes nothing", async () => {
    const order = await insertTestOrder();
    const lookup = { externalTransactionId: order.externalTransactionId };
    const update = { status: "PEN" as const, paymentReference: "123 456 789", entityNumber: "00123" };
    expect((await applyPaymentUpdate(db(), lookup, update)).outcome).toBe("pending_updated");
    expect((await applyPaymentUpdate(db(), lookup, update)).outcome).toBe("unchanged");
    expect((await applyPaymentUpdate(db(), lookup, { status: "PEN" })).outcome).toBe("unchanged");
    const row = await db().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({
      status: "PEN",
      paymentReference: "123 456 789",
      entityNumber: "00123",
      finalizedAt: null,
    });
    expect(await jobsOf(order.externalTransactionId)).toEqual([]);
  });

  it("finds the order by reference number when the id is unknown or absent", async () => {
    const order = await insertTestOrder();
    const result = await applyPaymentUpdate(
      db(),
      { externalTransactionId: newExternalTransactionId(), referenceNumber: order.referenceNumber },
      { status: "CON" },
    );
    expect(result).toMatchObject({
      outcome: "transitioned",
      order: { externalTransactionId: order.externalTransactionId },
    });
    const byReferenceOnly = await insertTestOrder();
    expect(
      (await applyPaymentUpdate(db(), { referenceNumber: byReferenceOnly.referenceNumber }, { status: "CAN" })).outcome,
    ).toBe("transitioned");
  });

  it("prefers the id over the reference number when both match different orders", async () => {
    const [byId, byReference] = [await insertTestOrder(), await insertTestOrder()];
    await applyPaymentUpdate(
      db(),
      { externalTransactionId: byId.externalTransactionId, referenceNumber: byReference.referenceNumber },
      { status: "CON" },
    );
    expect([await statusOf(byId.id), await statusOf(byReference.id)]).toEqual(["CON", "PEN"]);
  });

  it("an unknown order is not_found and nothing is written", async () => {
    const jobsBefore = await db().job.count();
    const result = await applyPaymentUpdate(
      db(),
      { externalTransactionId: newExternalTransactionId(), referenceNumber: "000000000" },
      { status: "CON" },
    );
    expect(result).toEqual({ outcome: "not_found" });
    expect(await db().job.count()).toBe(jobsBefore);
  });

  it("50 concurrent CON updates: exactly one transition and one set of jobs", async () => {
    const order = await insertTestOrder();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        applyPaymentUpdate(db(), { externalTransactionId: order.externalTransactionId }, { status: "CON" }),
      ),
    );
    const outcomes = results.map((result) => result.outcome);
    expect(outcomes.filter((outcome) => outcome === "transitioned")).toHaveLength(1);
    expect(outcomes.every((outcome) => ["transitioned", "unchanged", "already_final"].includes(outcome))).toBe(true);
    expect((await jobsOf(order.externalTransactionId)).map((job) => job.type)).toEqual(CON_JOBS);
  });

  it("the shop's own expiry cancels only while the hold has run out", async () => {
    const order = await insertTestOrder();
    const lookup = { externalTransactionId: order.externalTransactionId };
    const expire = { status: "CAN" as const, cancelReason: "hold_expired", onlyIfHoldExpired: true };
    expect((await applyPaymentUpdate(db(), lookup, expire)).outcome).toBe("unchanged");
    expect(await statusOf(order.id)).toBe("PEN");
    await db()
      .$executeRaw`UPDATE orders SET hold_expires_at = now() - interval '1 second' WHERE id = ${order.id}::uuid`;
    expect((await applyPaymentUpdate(db(), lookup, expire)).outcome).toBe("transitioned");
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      status: "CAN",
      cancelReason: "hold_expired",
    });
  });

  it("a CAN order told CON stays CAN, records the payment once, marks it for attention and enqueues one mail", async () => {
    const order = await insertTestOrder({ status: "CAN" });
    const lookup = { externalTransactionId: order.externalTransactionId };
    const first = await applyPaymentUpdate(db(), lookup, { status: "CON" });
    expect(first).toMatchObject({ outcome: "paid_after_cancel", firstPaidAfterCancel: true, order: { status: "CAN" } });
    const marked = await db().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(marked).toMatchObject({ status: "CAN", attentionReason: "paid_after_cancel" });
    expect(marked.paidAfterCancelAt).toEqual(marked.attentionAt);
    const again = await applyPaymentUpdate(db(), lookup, { status: "CON" });
    expect(again.outcome).toBe("paid_after_cancel");
    expect(again.firstPaidAfterCancel).toBeUndefined();
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id } })).toEqual(marked);
    expect((await jobsOf(order.externalTransactionId)).map((job) => job.type)).toEqual([JOB_TYPES.paidAfterCancelMail]);
  });

  it("concurrent CON and CAN: one wins; a CON after a CAN is paid_after_cancel, never lost as 'unchanged'", async () => {
    for (let round = 0; round < 5; round++) {
      const order = await insertTestOrder();
      const lookup = { externalTransactionId: order.externalTransactionId };
      const statuses = Array.from({ length: 20 }, (_, i) => (i % 2 ? "CON" : "CAN") as "CON" | "CAN");
      const results = await Promise.all(statuses.map((status) => applyPaymentUpdate(db(), lookup, { status })));
      expect(results.filter((result) => result.outcome === "transitioned")).toHaveLength(1);
      const final = await statusOf(order.id);
      // Every other update sees the order as the winner left it (the row is locked, then re-read).
      results.forEach((result, i) => {
        if (result.outcome === "transitioned") return;
        expect(result.outcome).toBe(final === "CAN" && statuses[i] === "CON" ? "paid_after_cancel" : "already_final");
      });
      expect((await jobsOf(order.externalTransactionId)).map((job) => job.type)).toEqual(
        final === "CON" ? CON_JOBS : [JOB_TYPES.paidAfterCancelMail, ...CAN_JOBS],
      );
    }
  });
});

describe("the shop's own transition: CAN → CON of an order paid after it was cancelled", () => {
  it("is allowed only for a CAN order paid after its cancellation", () => {
    expect(canFulfilAfterCancel({ status: "CAN", paidAfterCancel: true })).toBe(true);
    expect(canFulfilAfterCancel({ status: "CAN", paidAfterCancel: false })).toBe(false);
    expect(canFulfilAfterCancel({ status: "CON", paidAfterCancel: true })).toBe(false);
    expect(canFulfilAfterCancel({ status: "PEN", paidAfterCancel: false })).toBe(false);
  });

  it("moves it once, paid as of its payment, with the jobs of any CON; any other order is left as it is", async () => {
    const order = await insertTestOrder({ status: "CAN" });
    const lookup = { externalTransactionId: order.externalTransactionId };
    await applyPaymentUpdate(db(), lookup, { status: "CON" });
    const paidAt = (await db().order.findUniqueOrThrow({ where: { id: order.id } })).paidAfterCancelAt;

    const moved = await fulfilAfterCancelUpdate(db(), order.id);
    expect(moved.transitioned).toBe(true);
    const row = await db().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({ status: "CON", finalizedAt: paidAt, paidAfterCancelAt: paidAt });
    const jobs = await jobsOf(order.externalTransactionId);
    expect(jobs.map((job) => job.type)).toEqual([...CON_JOBS, JOB_TYPES.paidAfterCancelMail].sort());
    expect(moved.jobIds.sort()).toEqual(
      jobs
        .filter((job) => CON_JOBS.includes(job.type as never))
        .map((job) => job.id)
        .sort(),
    );

    expect(await fulfilAfterCancelUpdate(db(), order.id)).toEqual({ transitioned: false, jobIds: [] });
    expect(await jobsOf(order.externalTransactionId)).toEqual(jobs);
    // A webhook about it afterwards finds it final, as any paid order.
    expect((await applyPaymentUpdate(db(), lookup, { status: "CAN" })).outcome).toBe("already_final");

    for (const status of ["PEN", "CON", "CAN"] as const) {
      const other = await insertTestOrder({ status });
      const before = await db().order.findUniqueOrThrow({ where: { id: other.id } });
      expect(await fulfilAfterCancelUpdate(db(), other.id)).toEqual({ transitioned: false, jobIds: [] });
      expect(await db().order.findUniqueOrThrow({ where: { id: other.id } })).toEqual(before);
      expect(await jobsOf(other.externalTransactionId)).toEqual([]);
    }
  });
});
