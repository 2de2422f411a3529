import { createServer } from "node:net";
import pg from "pg";
import { fileURLToPath } from "node:url";
import { prepareIsolatedShop, type IsolatedShop } from "../harness/isolated-shop";
import { startNextServer, waitUntilAnswering, type RunningNextServer } from "../harness/next-production";
import { controlClient, type ControlClient } from "pay-sandbox/client";
import { expect, test } from "./support/fixtures";
import { pickupDelivery } from "./support/shop";

// Black-box, over HTTP only, against the production server as a deployment runs it (the build
// the e2e server made, started by harness/next-production.ts): a shop of its own per test
// group, with its own database, local sandbox and settings, so a 5-second hold or a low rate
// limit never touches the other tests. No cron and no worker run: whatever happens, the shop
// does on its requests.

test.describe.configure({ mode: "serial" });

const root = fileURLToPath(new URL("..", import.meta.url));

interface Shop {
  url: string;
  sandbox: ControlClient;
  /** One query on the shop's own database, to check what it recorded. */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** An isolated shop (database, sandbox) served by the production build with `settings` on top. */
async function startShop(settings: Record<string, string>): Promise<Shop> {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const isolated: IsolatedShop = await prepareIsolatedShop({
    label: "e2e_limits",
    appUrl,
    serverDatabaseUrl: process.env.DATABASE_URL || undefined,
  });
  let next: RunningNextServer | undefined;
  try {
    next = startNextServer({ root, appEnv: { ...isolated.appEnv, ...settings }, port, output: "quiet" });
    await waitUntilAnswering(`${appUrl}/api/products`, { exited: next.exited, timeoutMs: 60_000 });
  } catch (error) {
    await next?.stop();
    await isolated.close();
    throw error;
  }
  return {
    url: appUrl,
    sandbox: controlClient({ url: isolated.sandboxUrl, token: isolated.sandboxToken }),
    async query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
      const client = new pg.Client({ connectionString: isolated.databaseUrl });
      await client.connect();
      try {
        return (await client.query<T>(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    async close() {
      await next?.stop();
      await isolated.close();
    },
  };
}

interface Product {
  id: string;
  stock: number;
  hasOptions: boolean;
}

/** The products sold without options: a checkout of one names no variant. */
async function products(shop: Shop): Promise<Product[]> {
  return ((await (await fetch(`${shop.url}/api/products`)).json()) as Product[]).filter(
    (product) => !product.hasOptions,
  );
}

async function createOrder(shop: Shop, productId: string, quantity: number, headers: Record<string, string> = {}) {
  const delivery = await pickupDelivery((path) => fetch(`${shop.url}${path}`));
  return fetch(`${shop.url}/api/pay/create-order`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ items: [{ productId, quantity }], delivery }),
  });
}

async function statusOf(shop: Shop, externalTransactionId: string): Promise<string> {
  const response = await fetch(`${shop.url}/api/pay/order/${externalTransactionId}/status`);
  return ((await response.json()) as { status: string }).status;
}

const HOLD_SECONDS = 5;

test.describe("stock holds that expire (ORDER_HOLD_SECONDS=5)", () => {
  let shop: Shop;
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    // One order takes a whole product here: the caps on units (MAX_UNITS_PER_LINE) are not what this tests.
    shop = await startShop({
      ORDER_HOLD_SECONDS: String(HOLD_SECONDS),
      MAX_UNITS_PER_LINE: "99",
      MAX_UNITS_PER_ORDER: "99",
    });
  });
  test.afterAll(async () => shop?.close());

  /** A product no earlier test of this group touched, reserved whole by one order. */
  async function hoard(index: number) {
    const product = (await products(shop)).filter((candidate) => candidate.stock > 0 && candidate.stock <= 99)[index]!;
    const hoarding = await createOrder(shop, product.id, product.stock);
    expect(hoarding.status).toBe(200);
    const order = (await hoarding.json()) as { externalTransactionId: string };
    const refused = await createOrder(shop, product.id, 1);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("out_of_stock");
    return { product, order };
  }

  test("a new checkout gets the units once the hold has run out, and the hoarding order reads CAN", async () => {
    const { product, order } = await hoard(0);
    const heldAt = Date.now();
    // Poll the checkout, as a shopper retrying would: it succeeds once the hold has run out.
    let answer: Response | undefined;
    await expect
      .poll(
        async () => {
          answer = await createOrder(shop, product.id, 1);
          return answer.status;
        },
        { timeout: 20_000, intervals: [500] },
      )
      .toBe(200);
    const waited = (Date.now() - heldAt) / 1000;
    expect(waited).toBeGreaterThanOrEqual(HOLD_SECONDS - 1);
    expect(await statusOf(shop, order.externalTransactionId)).toBe("CAN");
    // The service was asked about the hoarding order before the shop cancelled it.
    const asked = await shop.sandbox.requests("/paypartner/paymentByExternalTransaction");
    expect(asked.map((request) => request.query.externalTransactionId)).toContain(order.externalTransactionId);
    expect((await products(shop)).find((candidate) => candidate.id === product.id)!.stock).toBe(product.stock - 1);
  });

  test("a CON for the order the shop cancelled is paid_after_cancel: answered 200, marked for attention, the mailbox told", async () => {
    const [cancelled] = await shop.query<{ external_transaction_id: string }>(
      "SELECT external_transaction_id FROM orders WHERE status = 'CAN' AND cancel_reason = 'hold_expired' LIMIT 1",
    );
    const id = cancelled!.external_transaction_id;
    // The shop cancelled it, but at the service the reference was still payable: it is paid now.
    await shop.sandbox.call("POST", `/orders/${id}/confirm`);
    const { deliveries } = (await shop.sandbox.call(
      "GET",
      `/deliveries/wait?externalTransactionId=${id}&state=delivered&timeoutMs=10000`,
    )) as { deliveries: { attempts: { status?: number; responseBody?: string }[] }[] };
    const reply = deliveries[0]!.attempts.at(-1)!;
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.responseBody!)).toMatchObject({ outcome: "paid_after_cancel" });
    expect(await statusOf(shop, id)).toBe("CAN");
    await expect
      .poll(async () =>
        shop.query<{ status: string; attention: string | null }>(
          `SELECT j.status, o.attention_reason AS attention FROM jobs j JOIN orders o ON j.payload->>'orderId' = o.id::text
           WHERE j.dedupe_key = $1`,
          [`paid-after-cancel-mail:${id}`],
        ),
      )
      .toEqual([{ status: "DONE", attention: "paid_after_cancel" }]);
    const mails = await shop.query<{ subject: string }>("SELECT subject FROM emails WHERE job_key = $1", [
      `paid-after-cancel-mail:${id}`,
    ]);
    expect(mails).toHaveLength(1);
  });

  test("50 concurrent status refreshes of one order make at most one service query", async () => {
    const product = (await products(shop)).filter((candidate) => candidate.stock > 1)[2]!;
    const placed = await createOrder(shop, product.id, 1);
    const { externalTransactionId } = (await placed.json()) as { externalTransactionId: string };
    await shop.sandbox.clearRequests();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => fetch(`${shop.url}/api/pay/order/${externalTransactionId}/status?refresh=1`)),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const asked = await shop.sandbox.requests("/paypartner/paymentByExternalTransaction");
    expect(asked.length).toBeLessThanOrEqual(1);
  });

  test("if the service says CON at expiry, the order reads CON and its units stay taken", async () => {
    const { product, order } = await hoard(3);
    // Paid at the service, but its webhook never arrives.
    await shop.sandbox.call("POST", `/orders/${order.externalTransactionId}/confirm`, { delivery: "drop" });
    await new Promise((resolve) => setTimeout(resolve, (HOLD_SECONDS + 1) * 1000));
    const late = await createOrder(shop, product.id, 1);
    expect(late.status).toBe(409);
    expect(await statusOf(shop, order.externalTransactionId)).toBe("CON");
    expect((await products(shop)).find((candidate) => candidate.id === product.id)!.stock).toBe(0);
  });
});

test.describe("rate limits (RATE_LIMIT_CREATE_ORDER_PER_MINUTE=10)", () => {
  let shop: Shop;
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    shop = await startShop({ RATE_LIMIT_CREATE_ORDER_PER_MINUTE: "10" });
  });
  test.afterAll(async () => shop?.close());

  test("30 rapid create-orders from one address, each with a made-up X-Forwarded-For: 429s past the limit, and the service sees none of them", async () => {
    const [product] = await products(shop);
    await shop.sandbox.clearRequests();
    const answers = [];
    for (let i = 0; i < 30; i++) {
      const response = await createOrder(shop, product!.id, 1, {
        "X-Forwarded-For": `203.0.113.${i + 1}`,
        "X-Real-IP": `198.51.100.${i + 1}`,
      });
      answers.push({
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        body: (await response.json()) as { error?: { code: string } },
      });
    }
    expect(answers.slice(0, 10).map((answer) => answer.status)).toEqual(Array(10).fill(200));
    for (const refused of answers.slice(10)) {
      expect(refused.status).toBe(429);
      expect(refused.body.error?.code).toBe("rate_limited");
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // One createPaymentOrder per accepted order, none for a refused one.
    expect(await shop.sandbox.requests("/paypartner/createPaymentOrder")).toHaveLength(10);
  });
});
