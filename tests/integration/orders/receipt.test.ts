import { parse } from "csv-parse/sync";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { postCreateOrder, placeOrder } from "../../../harness/support/checkout";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct, insertTestProductWithOptions } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { notification, postWebhook } from "../../../harness/support/webhooks";

// The buyer's NIF at checkout (lib/nif.ts, lib/orders/customer-rules.ts: refused with a 400 naming
// it, stored normalised, in the orders' CSV) and a paid order's receipt (lib/orders/receipt.ts:
// only once the order is CON and invoiced, never for PEN or CAN, with its gapless invoice number
// and the amount's parts), against real PostgreSQL (and PGlite), endpoint A, the webhook and a
// sandbox of this file's own.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", () => ({ db: () => shared.client, dbPool: () => shared.pool }));

let database: TestDatabase;
let client: PrismaClient;
let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;
let zone: { id: string };
let point: { id: string };

beforeAll(async () => {
  database = await createTestDatabase("receipt");
  await applyMigrations({ connectionString: database.url });
  const max = process.env.TEST_SERVER_DATABASE_URL ? 10 : 1;
  ({ client, pool: shared.pool } = clientOf(database.url, max));
  shared.client = client;
  sandbox = await useOwnSandbox();
  zone = await client.deliveryZone.create({ data: { name: "Talatona", feeAoa: 2_000 } });
  point = await client.pickupPoint.create({
    data: { name: "Loja do Maculusso", address: "Rua Amílcar Cabral 10, Luanda", hours: "Seg–Sáb 9h–18h" },
  });
});
afterAll(async () => {
  await sandbox?.close();
  await client?.$disconnect();
  await database?.drop();
});
beforeEach(() => sandbox.control.reset());
afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

const pickup = () => ({ method: "pickup", pickupPointId: point.id });
const customer = (nif?: string) => ({
  name: "Ana Silva",
  phone: "+244 923 456 789",
  ...(nif === undefined ? {} : { nif }),
});

const stockOf = async (productId: string) =>
  (await client.product.findUniqueOrThrow({ where: { id: productId }, select: { stock: true } })).stock;

const orderOf = (externalTransactionId: string) =>
  client.order.findUniqueOrThrow({ where: { externalTransactionId }, select: { customerNif: true, status: true } });

const receiptOf = async (externalTransactionId: string) => {
  const { orderReceipt } = await import("@/lib/orders/receipt");
  return orderReceipt(client, externalTransactionId);
};

/** The webhook's CON, and the jobs it runs after its answer (the invoice among them). */
async function pay(externalTransactionId: string) {
  expect((await postWebhook(notification(externalTransactionId, "CON"))).status).toBe(200);
  await settleAfterTasks();
}

describe("the buyer's NIF at checkout", () => {
  it.each([
    ["a person's, as typed on the identity card", "001234567LA042", "001234567LA042"],
    ["a person's in lower case with spaces", " 001234567 la 042 ", "001234567LA042"],
    ["a company's, grouped", "500 002 85 50", "5000028550"],
    ["a company's with dots and a dash", "5000.767-115", "5000767115"],
  ])("%s is stored normalised", async (_name, typed, stored) => {
    const product = await insertTestProduct({ stock: 5 });
    const answer = await postCreateOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: customer(typed),
      delivery: pickup(),
    });
    expect(answer.status).toBe(200);
    expect(await orderOf(answer.body.externalTransactionId)).toMatchObject({ customerNif: stored });
  });

  it.each([
    ["left out", undefined],
    ["empty", ""],
    ["only spaces", "   "],
  ])("%s: no NIF", async (_name, nif) => {
    const product = await insertTestProduct({ stock: 5 });
    const answer = await postCreateOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: customer(nif),
      delivery: pickup(),
    });
    expect(answer.status).toBe(200);
    expect(await orderOf(answer.body.externalTransactionId)).toMatchObject({ customerNif: null });
  });

  it.each([
    ["nine digits (an old form)", "500002855"],
    ["eleven digits", "50000285501"],
    ["a person's with one letter", "001234567L0042"],
    ["a person's with two digits at the end", "001234567LA42"],
    ["letters first", "LA001234567042"],
    ["a Portuguese NIF", "PT123456789"],
    ["a formula", "=1+1"],
    ["too long", "0".repeat(21)],
  ])("%s is refused with a 400 naming customer.nif, and nothing changes", async (_name, nif) => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const product = await insertTestProduct({ stock: 5 });
    const before = await client.order.count();
    const answer = await postCreateOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: customer(nif),
      delivery: pickup(),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("invalid_request");
    expect(answer.body.error.message).toContain("customer.nif");
    // The message names the rule, never what was typed.
    expect(answer.body.error.message).not.toContain(nif);
    expect(await client.order.count()).toBe(before);
    expect(await stockOf(product.id)).toBe(5);
  });

  it("is in the orders' CSV, in the customer_nif column", async () => {
    const product = await insertTestProduct({ stock: 5 });
    const withNif = await placeOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: customer("5000028550"),
      delivery: pickup(),
    });
    const without = await placeOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: customer(),
      delivery: pickup(),
    });
    const { EXPORT_COLUMNS, ordersCsv, parseExportRange } = await import("@/lib/orders/export-admin");
    const range = parseExportRange(null, null);
    if (!range.ok) throw new Error(range.message);
    const records: string[][] = parse(await new Response(ordersCsv(client, range.range)).text(), { bom: true });
    // After the e-mail, before what its refunds gave back.
    expect(records[0]!.slice(-3)).toEqual(["customer_email", "customer_nif", "refunded_aoa"]);
    const nifOf = (id: string) => records.find((record) => record[0] === id)?.[EXPORT_COLUMNS.indexOf("customer_nif")];
    expect(nifOf(withNif.externalTransactionId)).toBe("5000028550");
    expect(nifOf(without.externalTransactionId)).toBe("");
  });
});

describe("a paid order's receipt", () => {
  it("none for an unknown or unpaid order; 'preparing' when paid before its invoice; then the receipt", async () => {
    expect(await receiptOf("order_00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await receiptOf("order_not-an-id")).toBeNull();
    const product = await insertTestProduct({ priceAoa: 3_000, stock: 5 });
    const order = await placeOrder({
      items: [{ productId: product.id, quantity: 2 }],
      customer: customer("001234567LA042"),
      delivery: pickup(),
    });
    expect(await receiptOf(order.externalTransactionId)).toBeNull();

    // CON through the state machine, its jobs enqueued and not yet run.
    const { applyPaymentUpdate } = await import("@/lib/orders/state-machine");
    await applyPaymentUpdate(client, { externalTransactionId: order.externalTransactionId }, { status: "CON" });
    expect(await receiptOf(order.externalTransactionId)).toEqual({ state: "preparing" });

    const { runDueJobs } = await import("@/lib/jobs/runner");
    vi.spyOn(console, "log").mockImplementation(() => {});
    await runDueJobs({});
    const found = await receiptOf(order.externalTransactionId);
    expect(found?.state).toBe("issued");
    if (found?.state !== "issued") return;
    const invoice = await client.invoice.findFirstOrThrow({
      where: { order: { externalTransactionId: order.externalTransactionId } },
    });
    expect(found.receipt).toMatchObject({
      invoiceNumber: invoice.number,
      issuedAt: invoice.issuedAt,
      externalTransactionId: order.externalTransactionId,
      orderNumber: order.externalTransactionId.slice(6, 14).toUpperCase(),
      customerName: "Ana Silva",
      customerNif: "001234567LA042",
      subtotalAoa: 6_000,
      discountAoa: 0,
      deliveryFeeAoa: 0,
      totalAoa: 6_000,
      delivery: { method: "pickup", place: "Loja do Maculusso" },
    });
    expect(found.receipt.paidAt).toBeInstanceOf(Date);
  });

  it("lines with their variants, the discount, the delivery fee and the total, which is what was paid", async () => {
    const product = await insertTestProductWithOptions(
      [
        { name: "Tamanho", values: ["M", "G"] },
        { name: "Cor", values: ["Azul"] },
      ],
      [
        { values: ["M", "Azul"], priceAoa: 4_000, stock: 5, sku: `CAM-M-${Date.now()}` },
        { values: ["G", "Azul"], priceAoa: 5_000, stock: 5 },
      ],
    );
    const code = await client.promoCode.create({
      data: { code: `RECIBO${Date.now() % 100000}`, kind: "fixed", value: 1_000 },
    });
    const order = await placeOrder({
      items: [
        { productId: product.id, variantId: product.variantIds[0], quantity: 2 },
        { productId: product.id, variantId: product.variantIds[1], quantity: 1 },
      ],
      customer: customer(),
      delivery: {
        method: "delivery",
        zoneId: zone.id,
        address: {
          province: "Luanda",
          municipality: "Belas",
          neighbourhood: "Talatona",
          street: "Rua 1",
          reference: "Farmácia",
        },
      },
      promoCode: code.code,
    });
    // 2 × 4000 + 5000 − 1000 + 2000.
    expect(order.amountAoa).toBe(14_000);
    await pay(order.externalTransactionId);
    const found = await receiptOf(order.externalTransactionId);
    if (found?.state !== "issued") throw new Error(`no receipt: ${JSON.stringify(found)}`);
    const { receipt } = found;
    expect(receipt.lines).toEqual([
      expect.objectContaining({
        variantTitle: "G, Azul",
        quantity: 1,
        unitPriceAoa: 5_000,
        lineTotalAoa: 5_000,
        sku: null,
      }),
      expect.objectContaining({ variantTitle: "M, Azul", quantity: 2, unitPriceAoa: 4_000, lineTotalAoa: 8_000 }),
    ]);
    expect(receipt.lines[1]!.sku).toMatch(/^CAM-M-/);
    expect(receipt).toMatchObject({
      subtotalAoa: 13_000,
      discountAoa: 1_000,
      promoCode: code.code,
      deliveryFeeAoa: 2_000,
      totalAoa: 14_000,
      customerNif: null,
      delivery: { method: "delivery", place: "Talatona" },
    });
    expect(receipt.subtotalAoa - receipt.discountAoa + receipt.deliveryFeeAoa).toBe(receipt.totalAoa);
  });

  it("invoice numbers follow one another without a gap", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const numbers: number[] = [];
    for (let i = 0; i < 3; i++) {
      const order = await placeOrder({
        items: [{ productId: product.id, quantity: 1 }],
        customer: customer(),
        delivery: pickup(),
      });
      await pay(order.externalTransactionId);
      const found = await receiptOf(order.externalTransactionId);
      if (found?.state !== "issued") throw new Error("no receipt");
      numbers.push(found.receipt.invoiceNumber);
    }
    expect(numbers).toEqual([numbers[0]!, numbers[0]! + 1, numbers[0]! + 2]);
  });

  it("none for a cancelled order, nor for one paid after it was cancelled (never invoiced)", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const product = await insertTestProduct({ stock: 5 });
    const cancelled = await placeOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: customer(),
      delivery: pickup(),
    });
    expect((await postWebhook(notification(cancelled.externalTransactionId, "CAN"))).status).toBe(200);
    await settleAfterTasks();
    expect(await receiptOf(cancelled.externalTransactionId)).toBeNull();

    // The shop cancelled it (its hold ran out), then the shopper paid the reference after all.
    const late = await placeOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: customer(),
      delivery: pickup(),
    });
    const { applyPaymentUpdate } = await import("@/lib/orders/state-machine");
    await applyPaymentUpdate(
      client,
      { externalTransactionId: late.externalTransactionId },
      { status: "CAN", cancelReason: "hold_expired" },
    );
    const answer = await postWebhook(notification(late.externalTransactionId, "CON"));
    expect(answer.body).toMatchObject({ outcome: "paid_after_cancel" });
    await settleAfterTasks();
    const { runDueJobs } = await import("@/lib/jobs/runner");
    await runDueJobs({});
    expect(await orderOf(late.externalTransactionId)).toMatchObject({ status: "CAN" });
    expect(
      await client.invoice.count({ where: { order: { externalTransactionId: late.externalTransactionId } } }),
    ).toBe(0);
    expect(await receiptOf(late.externalTransactionId)).toBeNull();
  });
});
