import { describe, expect, it } from "vitest";
import { SandboxClock } from "../src/clock.js";
import { InvalidTransitionError, SandboxStore, transition, type Order, type PaymentStatus } from "../src/store.js";

// The order state machine (contract 3) and token expiry, without HTTP.

const order = (status: PaymentStatus): Order => ({
  externalTransactionId: "order_1",
  clientId: "shopper",
  applicationUUID: "app",
  name: "Café",
  amount: 100,
  quantity: 1,
  referenceNumber: "123456789",
  status,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});

describe("transition", () => {
  it.each<[PaymentStatus, PaymentStatus]>([
    ["PEN", "CON"],
    ["PEN", "CAN"],
  ])("moves %s to %s and stamps updatedAt", (from, to) => {
    expect(transition(order(from), to, "2026-01-02T00:00:00.000Z")).toMatchObject({
      status: to,
      updatedAt: "2026-01-02T00:00:00.000Z",
    });
  });

  it.each<[PaymentStatus, PaymentStatus]>([
    ["PEN", "PEN"],
    ["CON", "CAN"],
    ["CON", "CON"],
    ["CON", "PEN"],
    ["CAN", "CON"],
    ["CAN", "PEN"],
  ])("refuses %s to %s", (from, to) => {
    expect(() => transition(order(from), to, "2026-01-02T00:00:00.000Z")).toThrow(InvalidTransitionError);
  });
});

describe("SandboxStore", () => {
  it("expires tokens on the sandbox clock and notifies changes", () => {
    let now = 1_000_000;
    const clock = new SandboxClock(() => now);
    const store = new SandboxStore(clock);
    const changes: string[] = [];
    store.subscribe((change) => changes.push(change.kind));

    const token = store.issueToken(60);
    expect(store.checkToken(token)).toBe("valid");
    now += 59_999;
    expect(store.checkToken(token)).toBe("valid");
    clock.advance(0.001);
    expect(store.checkToken(token)).toBe("expired");
    expect(store.checkToken("other")).toBe("unknown");

    const created = store.createOrder({
      externalTransactionId: "order_1",
      clientId: "c",
      applicationUUID: "a",
      name: "n",
      amount: 1,
      quantity: 1,
    });
    store.changeStatus(created, "CAN");
    expect(store.findOrder("order_1")?.status).toBe("CAN");
    expect(changes).toEqual(["tokens_changed", "order_created", "order_status_changed"]);
  });

  it("finds an order by its referenceNumber, in its current state, also after a reload; a reset forgets it", () => {
    const clock = new SandboxClock(() => 1_000_000);
    const store = new SandboxStore(clock);
    const created = store.createOrder({
      externalTransactionId: "order_1",
      clientId: "c",
      applicationUUID: "a",
      name: "n",
      amount: 1,
      quantity: 1,
    });
    store.changeStatus(created, "CON");
    expect(store.findOrderByReference(created.referenceNumber)).toMatchObject({ status: "CON" });
    expect(store.findOrderByReference("000000000")).toBeUndefined();

    const reloaded = new SandboxStore(clock, store.snapshot());
    expect(reloaded.findOrderByReference(created.referenceNumber)?.externalTransactionId).toBe("order_1");
    reloaded.reset();
    expect(reloaded.findOrderByReference(created.referenceNumber)).toBeUndefined();
  });
});
