import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SandboxClock } from "../src/clock.js";
import { OrderDriver } from "../src/orders.js";
import { DEFAULT_SETTINGS } from "../src/settings.js";
import { SandboxStore, type OrderFields } from "../src/store.js";
import { WebhookDispatcher } from "../src/webhooks.js";

// Without the HTTP server: reset and close leave no timer behind (retries, late deliveries,
// magic amounts, the expiry check), so a stopped sandbox never keeps a process alive.

const fields = (amount = 500): OrderFields => ({
  externalTransactionId: `order_${amount}_${Math.random()}`,
  clientId: "shopper",
  applicationUUID: "app",
  name: "Café",
  amount,
  quantity: 1,
});

/** A URL nothing listens on: every attempt fails at once with ECONNREFUSED. */
async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

/** Lets real I/O (the refused connection) happen without moving the fake timers. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

async function setup() {
  const clock = new SandboxClock(Date.now);
  const store = new SandboxStore(clock);
  const settings = { ...DEFAULT_SETTINGS, webhookUrl: await refusingUrl(), webhookRetryBaseMs: 60_000 };
  const webhooks = new WebhookDispatcher({ store, clock, settings, webhookSecret: "secret", log: () => {} });
  const orders = new OrderDriver(store, clock, webhooks, () => {});
  return { store, webhooks, orders };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("timers", () => {
  it("close clears retry waits, late deliveries, magic amounts and the expiry check", async () => {
    const { store, webhooks, orders } = await setup();
    expect(vi.getTimerCount()).toBe(1); // the expiry check

    const retried = orders.approve(store.createOrder(fields()), { delivery: "normal" }).deliveries[0]!;
    await until(() => retried.attempts.length === 1);
    expect(retried.state).toBe("pending"); // waiting 60 s for its second attempt
    orders.cancel(store.createOrder(fields()), { delivery: "late", delaySeconds: 30 });
    store.createOrder(fields(1001));
    expect(vi.getTimerCount()).toBe(4);

    webhooks.close();
    orders.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("reset clears the deliveries' and the magic amounts' timers, and keeps the expiry check", async () => {
    const { store, webhooks, orders } = await setup();
    const retried = orders.approve(store.createOrder(fields()), { delivery: "normal" }).deliveries[0]!;
    await until(() => retried.attempts.length === 1);
    store.createOrder(fields(1002));
    expect(vi.getTimerCount()).toBe(3);

    webhooks.reset();
    orders.reset();
    expect(vi.getTimerCount()).toBe(1);
    expect(webhooks.deliveries.list()).toEqual([]);
    orders.close();
  });
});
