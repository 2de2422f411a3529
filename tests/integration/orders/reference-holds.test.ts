import { randomInt } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { appendForwardedFor } from "../../../scripts/lib/forwarded-for.mjs";
import { postCreateOrder } from "../../../harness/support/checkout";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { notification, postWebhook } from "../../../harness/support/webhooks";

// Day-long holds a stranger cannot multiply: a bank reference keeps an order's units for a day,
// so the orders holding one count against a cap of their own (MAX_REFERENCE_HOLDS) per client
// address and per phone. Through endpoint A and the webhook as Next calls them, against the
// suite's real database (PostgreSQL, or PGlite) and a sandbox of this file's own. Each test has
// addresses and phones of its own: the orders stay in the suite's database across tests.

let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  sandbox = await useOwnSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());
afterEach(async () => {
  await settleAfterTasks();
  vi.unstubAllEnvs();
  vi.resetModules();
});

// Counted from a random start rather than drawn at random: an address or phone drawn twice in one
// run would carry an earlier test's holds into the next, and refuse where the test expects a 200.
let peers = randomInt(0, 30_000);
let phones = randomInt(0, 80_000_000);
const newPeer = () => (peers++, `198.18.${Math.floor(peers / 254) % 256}.${(peers % 254) + 1}`);
const newPhone = () => `9${10_000_000 + phones++}`;
const newReference = () => String(randomInt(100_000_000, 999_999_999));

/** The shop's caps as a merchant would set them, the per-minute limit off: only the caps under test refuse. */
function useSettings(settings: Record<string, string> = {}) {
  vi.stubEnv("RATE_LIMIT_CREATE_ORDER_PER_MINUTE", "0");
  vi.stubEnv("MAX_OPEN_ORDERS_PER_SHOPPER", "3");
  vi.stubEnv("MAX_OPEN_ORDERS_PER_ADDRESS", "10");
  vi.stubEnv("MAX_REFERENCE_HOLDS", "3");
  for (const [name, value] of Object.entries(settings)) vi.stubEnv(name, value);
  vi.resetModules();
}

/** A checkout of one unit from `peer` (a new shopper cookie each time) with `phone`. */
async function checkout(productId: string, peer: string, phone: string) {
  const answer = await postCreateOrder(
    { items: [{ productId, quantity: 1 }], customer: { name: "Ana Teste", phone } },
    { "X-Forwarded-For": appendForwardedFor(undefined, peer) },
  );
  return { ...answer, retryAfter: answer.headers.get("Retry-After") };
}

async function placed(productId: string, peer: string, phone: string): Promise<string> {
  const answer = await checkout(productId, peer, phone);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.externalTransactionId as string;
}

/** The service's PEN with a bank reference, as the webhook brings it when the shopper picks that method. */
async function giveReference(externalTransactionId: string) {
  const delivered = await postWebhook(
    notification(externalTransactionId, "PEN", { paymentReference: newReference(), entityNumber: "00123" }),
  );
  expect(delivered.status).toBe(200);
}

/** GET /api/pay/order/:id/status (endpoint C) as Next calls it. */
async function getStatus(externalTransactionId: string, query = "") {
  const { GET } = await import("@/app/api/pay/order/[externalTransactionId]/status/route");
  const response = await GET(
    new Request(`http://localhost:3000/api/pay/order/${externalTransactionId}/status${query}`),
    {
      params: Promise.resolve({ externalTransactionId }),
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** How many of `ids` hold their units for a reference's day (more than the ordinary 30 minutes). */
async function dayLongHolds(ids: string[]) {
  const rows = await db().order.findMany({
    where: { externalTransactionId: { in: ids } },
    select: { holdExpiresAt: true, paymentReference: true },
  });
  expect(rows.every((row) => row.paymentReference !== null)).toBe(true);
  return rows.filter((row) => row.holdExpiresAt.getTime() > Date.now() + 2 * 3600_000).length;
}

describe("orders holding a bank reference, per client address", () => {
  it("of 6 references arriving at once for one address's orders, 3 keep the units for a day; a new checkout from there is refused with 429 until one ends", async () => {
    useSettings();
    const product = await insertTestProduct({ stock: 100 });
    const peer = newPeer();
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await placed(product.id, peer, newPhone()));

    await Promise.all(ids.map(giveReference));
    expect(await dayLongHolds(ids)).toBe(3);
    // The other three keep the ordinary hold: they end within ORDER_HOLD_SECONDS like any unpaid order.
    const ordinary = await db().order.count({
      where: { externalTransactionId: { in: ids }, holdExpiresAt: { lte: new Date(Date.now() + 1800_000) } },
    });
    expect(ordinary).toBe(3);

    const refused = await checkout(product.id, peer, newPhone());
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({
      code: "too_many_reference_holds_from_address",
      message: expect.stringContaining("bank reference"),
    });
    // Until the soonest day-long hold ends.
    expect(Number(refused.retryAfter)).toBeGreaterThan(1400 * 60);
    const other = await checkout(product.id, newPeer(), newPhone());
    expect(other.status, JSON.stringify(other.body)).toBe(200);
  });

  it("an order that is paid, cancelled or past its hold no longer counts", async () => {
    useSettings();
    const product = await insertTestProduct({ stock: 100 });
    const peer = newPeer();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await placed(product.id, peer, newPhone()));
    for (const id of ids) await giveReference(id);
    expect(await dayLongHolds(ids)).toBe(3);
    expect((await checkout(product.id, peer, newPhone())).status).toBe(429);

    // Paid: a new order from the address, and its reference keeps the units for a day.
    expect((await postWebhook(notification(ids[0]!, "CON"))).status).toBe(200);
    const next = await placed(product.id, peer, newPhone());
    await giveReference(next);
    expect(await dayLongHolds([next])).toBe(1);
    expect((await checkout(product.id, peer, newPhone())).status).toBe(429);

    // Cancelled at the service.
    expect((await postWebhook(notification(ids[1]!, "CAN"))).status).toBe(200);
    const another = await placed(product.id, peer, newPhone());
    await giveReference(another);
    expect(await dayLongHolds([another])).toBe(1);

    // Past its hold (the reconcile sweep has not ended it yet).
    await db().order.update({
      where: { externalTransactionId: ids[2]! },
      data: { holdExpiresAt: new Date(Date.now() - 1000) },
    });
    expect((await checkout(product.id, peer, newPhone())).status).toBe(200);
  });

  it("0 turns the cap off", async () => {
    useSettings({ MAX_REFERENCE_HOLDS: "0" });
    const product = await insertTestProduct({ stock: 100 });
    const peer = newPeer();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await placed(product.id, peer, newPhone()));
    await Promise.all(ids.map(giveReference));
    expect(await dayLongHolds(ids)).toBe(5);
    expect((await checkout(product.id, peer, newPhone())).status).toBe(200);
  });
});

describe("a reference past the cap", () => {
  it("learnt from the status check keeps only the ordinary hold, and the order's status tells the shopper when to pay by", async () => {
    useSettings();
    const product = await insertTestProduct({ stock: 100 });
    const peer = newPeer();
    const ids = [];
    // Four orders placed first, their references taken afterwards: checkout let all four through.
    for (let i = 0; i < 4; i++) ids.push(await placed(product.id, peer, newPhone()));
    for (const id of ids.slice(0, 3)) await giveReference(id);
    const last = ids[3]!;
    await sandbox.control.call("POST", `/orders/${last}/pending`, {
      paymentReference: newReference(),
      delivery: "drop",
    });

    const refreshed = await getStatus(last, "?refresh=1");
    expect(refreshed.body).toMatchObject({ status: "PEN", paymentReference: expect.any(String) });
    const row = await db().order.findUniqueOrThrow({ where: { externalTransactionId: last } });
    expect(row.holdExpiresAt.getTime()).toBeLessThan(Date.now() + 1800_000);
    // When its hold ends, not the reference's day.
    expect(refreshed.body.payBy).toBe(row.holdExpiresAt.toISOString());
    // An order whose reference keeps its units for the day says nothing of the kind.
    expect((await getStatus(ids[0]!)).body).not.toHaveProperty("payBy");
  });
});

describe("orders holding a bank reference, per phone", () => {
  it("counts one phone whatever its form, across addresses", async () => {
    useSettings();
    const product = await insertTestProduct({ stock: 100 });
    const phone = newPhone();
    const spaced = `${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`;
    const forms = [phone, `+244 ${spaced}`, `00244${phone}`, `244 ${spaced.replaceAll(" ", "-")}`];
    const ids = [];
    for (const form of forms) ids.push(await placed(product.id, newPeer(), form));
    for (const id of ids) await giveReference(id);
    expect(await dayLongHolds(ids)).toBe(3);
    expect(await dayLongHolds(ids.slice(3))).toBe(0);

    const refused = await checkout(product.id, newPeer(), `+244${phone}`);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("too_many_reference_holds_for_phone");
    expect(Number(refused.retryAfter)).toBeGreaterThan(1400 * 60);
    // Another phone is not held back.
    const other = await checkout(product.id, newPeer(), newPhone());
    expect(other.status, JSON.stringify(other.body)).toBe(200);
  });
});
