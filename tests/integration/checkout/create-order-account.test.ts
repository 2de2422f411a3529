import { randomInt } from "node:crypto";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { listAddresses, saveAddress } from "@/lib/accounts/addresses";
import { MAX_SAVED_ADDRESSES } from "@/lib/accounts/address-rules";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { signInThroughRoute } from "../../../harness/support/shoppers";

// POST /api/pay/create-order for a shopper signed in by phone (a session made through the real
// sign-in: a code from the outbox, checked at /api/auth/phone-number/verify): the order carries
// the account's phone, never another; a saved address delivers like a typed one; "Guardar este
// endereço" keeps the typed address on the account once the order exists, and never fails it.
// A guest's checkout is what it was. On a database of this file's own, whose one delivery zone
// serves Talatona.

vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/cache")>()),
  revalidatePath: () => {},
}));
const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", () => ({ db: () => shared.client, dbPool: () => shared.pool }));

const APP_URL = "http://localhost:3000";

let database: TestDatabase;
let client: PrismaClient;
let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;
let product: Awaited<ReturnType<typeof insertTestProduct>>;
let pointId: string;

beforeAll(async () => {
  database = await createTestDatabase("checkout_account");
  await applyMigrations({ connectionString: database.url });
  ({ client, pool: shared.pool } = clientOf(database.url, process.env.TEST_SERVER_DATABASE_URL ? 10 : 1));
  shared.client = client;
  sandbox = await useOwnSandbox();
  product = await insertTestProduct({ stock: 1_000 });
  await client.deliveryZone.create({
    data: { name: "Sul", feeAoa: 2_000, municipalities: { create: [{ name: "Talatona" }] } },
  });
  pointId = (
    await client.pickupPoint.create({ data: { name: "Loja", address: "Rua Amílcar Cabral 10", hours: "9h–18h" } })
  ).id;
});
afterAll(async () => {
  await sandbox?.close();
  await client?.$disconnect();
  await database?.drop();
});
beforeEach(() => sandbox.control.reset());
afterEach(() => settleAfterTasks());

const newPhone = () => `9${randomInt(10_000_000, 99_999_999)}`;

/** A session of the phone `key`, through the sign-in route: its cookie, and the account's id. */
async function signIn(key: string): Promise<{ cookie: string; shopperId: string }> {
  const { POST } = await import("@/app/api/auth/[...all]/route");
  return signInThroughRoute(client, POST, key, APP_URL);
}

async function createOrder(body: Record<string, unknown>, cookie?: string) {
  const { POST } = await import("@/app/api/pay/create-order/route");
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (cookie) headers.Cookie = cookie;
  const response = await POST(
    new NextRequest(`${APP_URL}/api/pay/create-order`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const storedOrder = (externalTransactionId: string) =>
  client.order.findUniqueOrThrow({ where: { externalTransactionId } });
const items = () => [{ productId: product.id, quantity: 1 }];
/** An address in a municipality the demo's zones serve (Talatona). */
const address = (street = `Rua ${randomInt(1, 999)}, casa 12`) => ({
  province: "Luanda",
  municipality: "Talatona",
  neighbourhood: "Camama",
  street,
  reference: "Ao lado da escola",
});
const toAddress = (parts: ReturnType<typeof address>) => ({ method: "delivery", address: parts });
const pickup = async () => ({ method: "pickup", pickupPointId: pointId });
const addressesOf = async (shopperId: string) =>
  (await listAddresses(client, shopperId)).map(({ province, municipality, neighbourhood, street, reference }) => ({
    province,
    municipality,
    neighbourhood,
    street,
    reference,
  }));

describe("a signed-in shopper's order", () => {
  it("carries the account's phone key, whichever form of it the form posts", async () => {
    const key = newPhone();
    const { cookie } = await signIn(key);
    for (const phone of [`+244 ${key.slice(0, 3)} ${key.slice(3, 6)} ${key.slice(6)}`, `0${key}`, key]) {
      const answer = await createOrder(
        { items: items(), customer: { name: "Ana Teste", phone }, delivery: await pickup() },
        cookie,
      );
      expect(answer.status, phone).toBe(200);
      expect(await storedOrder(answer.body.externalTransactionId)).toMatchObject({
        customerName: "Ana Teste",
        customerPhone: key,
      });
    }
  });

  it("refuses a posted phone that is not the account's: 409, no order, nothing asked of the service", async () => {
    const { cookie } = await signIn(newPhone());
    const other = newPhone();
    const answer = await createOrder(
      { items: items(), customer: { name: "Ana Teste", phone: other }, delivery: await pickup() },
      cookie,
    );
    expect(answer).toEqual({
      status: 409,
      body: { error: { code: "phone_not_account", message: expect.any(String) } },
    });
    expect(await client.order.count({ where: { customerPhone: other } })).toBe(0);
    expect(await sandbox.control.requests("/paypartner/createPaymentOrder")).toEqual([]);
  });

  it("delivers to a saved address as to a typed one, and keeps no second copy of it", async () => {
    const key = newPhone();
    const { cookie, shopperId } = await signIn(key);
    const saved = address();
    expect(await saveAddress(client, shopperId, saved)).toMatchObject({ ok: true });
    const answer = await createOrder(
      { items: items(), customer: { name: "Ana", phone: key }, delivery: toAddress(saved), saveAddress: true },
      cookie,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.addressSaved).toBe("already_saved");
    expect(await storedOrder(answer.body.externalTransactionId)).toMatchObject({
      customerPhone: key,
      deliveryMethod: "delivery",
      deliveryAddress: saved,
    });
    expect(await addressesOf(shopperId)).toEqual([saved]);
  });

  it('"Guardar este endereço" keeps the typed address on the account (the first becomes the default), once', async () => {
    const key = newPhone();
    const { cookie, shopperId } = await signIn(key);
    const typed = address();
    const body = {
      items: items(),
      customer: { name: "Ana", phone: key },
      delivery: toAddress(typed),
      saveAddress: true,
    };
    const first = await createOrder(body, cookie);
    expect(first.status).toBe(200);
    expect(first.body.addressSaved).toBe("saved");
    const kept = await listAddresses(client, shopperId);
    expect(kept).toMatchObject([{ ...typed, isDefault: true }]);

    // The same address again, its case and spaces aside: not kept twice.
    const again = await createOrder(
      { ...body, delivery: toAddress({ ...typed, street: ` ${typed.street.toUpperCase()}  ` }) },
      cookie,
    );
    expect(again.body.addressSaved).toBe("already_saved");
    expect(await addressesOf(shopperId)).toEqual([typed]);

    // Without the box, or for a pickup, nothing is kept and nothing said.
    const unticked = await createOrder({ ...body, delivery: toAddress(address()), saveAddress: false }, cookie);
    const collected = await createOrder({ ...body, delivery: await pickup() }, cookie);
    for (const answer of [unticked, collected]) {
      expect(answer.status).toBe(200);
      expect(answer.body).not.toHaveProperty("addressSaved");
    }
    expect(await addressesOf(shopperId)).toEqual([typed]);
  });

  it("places the order when the account keeps as many addresses as it may, and says the address was not kept", async () => {
    const key = newPhone();
    const { cookie, shopperId } = await signIn(key);
    for (let i = 0; i < MAX_SAVED_ADDRESSES; i++)
      expect(await saveAddress(client, shopperId, address(`Rua ${i}`))).toMatchObject({ ok: true });
    const typed = address("Rua nova, casa 1");
    const answer = await createOrder(
      { items: items(), customer: { name: "Ana", phone: key }, delivery: toAddress(typed), saveAddress: true },
      cookie,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.addressSaved).toBe("too_many_addresses");
    expect(await storedOrder(answer.body.externalTransactionId)).toMatchObject({ deliveryAddress: typed });
    expect(await client.shopperAddress.count({ where: { shopperId } })).toBe(MAX_SAVED_ADDRESSES);
  });
});

describe("a guest's order", () => {
  it("keeps the phone as typed and ignores saveAddress, with no cookie or a session that is not one", async () => {
    for (const cookie of [undefined, "shop.session_token=not-a-session", "cart_id=x; shopper_id=y"]) {
      const typed = address();
      const answer = await createOrder(
        {
          items: items(),
          customer: { name: "Ana Teste", phone: "+244 923 456 789" },
          delivery: toAddress(typed),
          saveAddress: true,
        },
        cookie,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).not.toHaveProperty("addressSaved");
      expect(await storedOrder(answer.body.externalTransactionId)).toMatchObject({
        customerPhone: "+244 923 456 789",
        deliveryAddress: typed,
      });
      expect(await client.shopperAddress.count({ where: { street: typed.street } })).toBe(0);
    }
  });
});

describe("a NUL character in an address the zones serve", () => {
  it("is refused with 400 naming the part, not a 503 from the database", async () => {
    const answer = await createOrder({
      items: items(),
      customer: { name: "Ana Teste", phone: "923456789" },
      delivery: toAddress({ ...address(), street: "Rua 5\u0000, casa 12" }),
    });
    expect(answer).toEqual({
      status: 400,
      body: { error: { code: "invalid_request", message: expect.stringContaining("delivery.address.street") } },
    });
    expect(await sandbox.control.requests("/paypartner/createPaymentOrder")).toEqual([]);
  });
});
