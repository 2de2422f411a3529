import { randomInt, randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db, type Database } from "@/lib/db/client";
import { createRateLimits } from "@/lib/db/rate-limit";
import { lookUpOrder, lookUpOrderWithLockOut, shopperOrders, type LookupResult } from "@/lib/orders/lookup";
import { customerSchema } from "@/lib/orders/customer-rules";
import { appendForwardedFor } from "../../../scripts/lib/forwarded-for.mjs";
import { newExternalTransactionId } from "../../../harness/support/orders";

// Finding an order again: by its number and the checkout's phone, with no way to tell
// a wrong phone from an unknown number, a limit per client address, and "As minhas encomendas" by
// the shopper cookie. Against the suite's real database (PostgreSQL, or PGlite).

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function placedOrder(options: { phone?: string | null; clientId?: string; createdAt?: Date } = {}) {
  return db().order.create({
    data: {
      externalTransactionId: newExternalTransactionId(),
      amountAoa: 4_500,
      clientId: options.clientId ?? `shopper_${randomUUID()}`,
      customerName: "Ana Teste",
      customerPhone: options.phone === undefined ? "+244 923 456 789" : options.phone,
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    },
  });
}

const shortNumber = (externalTransactionId: string) => externalTransactionId.slice(6, 14).toUpperCase();
const newPeer = () => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** POST /api/orders/lookup as Next calls it, from `peer`, with the lookup limit of `perMinute`. */
async function postLookup(
  body: string,
  options: { form?: boolean; peer?: string; perMinute?: number; env?: Record<string, string> } = {},
) {
  vi.stubEnv("RATE_LIMIT_ORDER_LOOKUP_PER_MINUTE", String(options.perMinute ?? 0));
  for (const [name, value] of Object.entries(options.env ?? {})) vi.stubEnv(name, value);
  vi.resetModules();
  const { POST } = await import("@/app/api/orders/lookup/route");
  const response = await POST(
    new NextRequest("http://localhost:3000/api/orders/lookup", {
      method: "POST",
      headers: {
        "Content-Type": options.form ? "application/x-www-form-urlencoded" : "application/json",
        "X-Forwarded-For": appendForwardedFor(undefined, options.peer ?? newPeer()),
      },
      body,
    }),
  );
  const text = await response.text();
  return { status: response.status, location: response.headers.get("location"), text };
}

describe("lookUpOrder", () => {
  it("finds the order by the number the shop shows and the phone in any form checkout accepts", async () => {
    const order = await placedOrder();
    for (const [orderNumber, phone] of [
      [shortNumber(order.externalTransactionId), "923456789"],
      [`#${shortNumber(order.externalTransactionId).toLowerCase()}`, "+244 923 456 789"],
      [order.externalTransactionId, "00244 923-456-789"],
      [` ${shortNumber(order.externalTransactionId)} `, "244 923-456-789"],
    ])
      expect(await lookUpOrder(db(), { orderNumber, phone }), `${orderNumber} ${phone}`).toEqual({
        ok: true,
        externalTransactionId: order.externalTransactionId,
      });
  });

  it("answers a wrong phone exactly as an unknown number", async () => {
    const order = await placedOrder();
    const wrongPhone = await lookUpOrder(db(), {
      orderNumber: shortNumber(order.externalTransactionId),
      phone: "923000000",
    });
    const unknown = await lookUpOrder(db(), { orderNumber: "00000000", phone: "923456789" });
    expect(wrongPhone).toEqual({ ok: false, code: "not_found", message: expect.any(String) });
    expect(wrongPhone).toEqual(unknown);
    // An order placed without a phone is found by nobody.
    const noPhone = await placedOrder({ phone: null });
    expect(
      await lookUpOrder(db(), { orderNumber: shortNumber(noPhone.externalTransactionId), phone: "923456789" }),
    ).toEqual(unknown);
  });

  it("tells apart two orders that share a number by their phone", async () => {
    const first = await placedOrder({ phone: "923111111" });
    // Another order whose id starts with the same eight digits.
    const twin = await db().order.create({
      data: {
        externalTransactionId: `order_${first.externalTransactionId.slice(6, 14)}${randomUUID().slice(8)}`,
        amountAoa: 1_000,
        clientId: "twin",
        customerPhone: "923222222",
      },
    });
    const orderNumber = shortNumber(first.externalTransactionId);
    expect(await lookUpOrder(db(), { orderNumber, phone: "923111111" })).toMatchObject({
      externalTransactionId: first.externalTransactionId,
    });
    expect(await lookUpOrder(db(), { orderNumber, phone: "923222222" })).toMatchObject({
      externalTransactionId: twin.externalTransactionId,
    });
  });

  it("refuses what is not a number or a phone, naming the field", async () => {
    for (const [input, field] of [
      [{ orderNumber: "7CDAC2D", phone: "923456789" }, "orderNumber"],
      [{ orderNumber: "ZZZZZZZZ", phone: "923456789" }, "orderNumber"],
      [{ orderNumber: "7cdac2dd", phone: "abc" }, "phone"],
      [{ orderNumber: "7cdac2dd", phone: "923\u0000456789" }, "phone"],
      [{ orderNumber: "x".repeat(500), phone: "923456789" }, "orderNumber"],
      [{ phone: "923456789" }, "orderNumber"],
    ] as const)
      expect(await lookUpOrder(db(), input), JSON.stringify(input)).toMatchObject({
        ok: false,
        code: "invalid_input",
        field,
      });
  });

  it("finds an order by any form of its phone that checkout accepts, whatever form the order was placed with", async () => {
    const forms = [
      "+244 923 456 789",
      "923456789",
      "00244923456789",
      "(244) 923-456-789",
      "(+244) 923.456.789",
      "0923456789",
      "+244 0923 456 789",
    ];
    for (const placedWith of forms) {
      // The order's phone is stored as the checkout's schema keeps it.
      const order = await placedOrder({ phone: customerSchema.shape.phone.parse(placedWith) });
      for (const phone of forms) {
        expect(customerSchema.shape.phone.safeParse(phone).success, `checkout accepts ${phone}`).toBe(true);
        expect(
          await lookUpOrder(db(), { orderNumber: shortNumber(order.externalTransactionId), phone }),
          `placed as ${placedWith}, looked up as ${phone}`,
        ).toEqual({ ok: true, externalTransactionId: order.externalTransactionId });
      }
    }
  });

  it("an order placed as 0923… is found with 923…, and a foreign number with the same digits finds nothing", async () => {
    const order = await placedOrder({ phone: "0923 456 789" });
    const orderNumber = shortNumber(order.externalTransactionId);
    expect(await lookUpOrder(db(), { orderNumber, phone: "923456789" })).toMatchObject({ ok: true });
    const foreign = await placedOrder({ phone: "+376 923 456" });
    expect(
      await lookUpOrder(db(), { orderNumber: shortNumber(foreign.externalTransactionId), phone: "376 923 456" }),
    ).toMatchObject({ ok: false, code: "not_found" });
    expect(
      await lookUpOrder(db(), { orderNumber: shortNumber(foreign.externalTransactionId), phone: "00376 923 456" }),
    ).toMatchObject({ ok: true });
  });
});

describe("POST /api/orders/lookup", () => {
  it("sends the form on to the order's page, or back to the form with the number and without the phone", async () => {
    const order = await placedOrder();
    const orderNumber = shortNumber(order.externalTransactionId);
    const found = await postLookup(new URLSearchParams({ orderNumber, phone: "923 456 789" }).toString(), {
      form: true,
    });
    expect(found).toMatchObject({ status: 303, location: `/orders/${order.externalTransactionId}` });

    const wrong = await postLookup(new URLSearchParams({ orderNumber, phone: "923 000 000" }).toString(), {
      form: true,
    });
    expect(wrong).toMatchObject({ status: 303, location: `/orders/lookup?error=not_found&orderNumber=${orderNumber}` });
    expect(wrong.location).not.toContain("923");
  });

  it("answers JSON: the order, or the same 404 for a wrong phone and an unknown number, 400 for bad input", async () => {
    const order = await placedOrder();
    const orderNumber = shortNumber(order.externalTransactionId);
    const found = await postLookup(JSON.stringify({ orderNumber, phone: "+244923456789" }));
    expect(found.status).toBe(200);
    expect(JSON.parse(found.text)).toEqual({ externalTransactionId: order.externalTransactionId });

    const wrong = await postLookup(JSON.stringify({ orderNumber, phone: "923000000" }));
    const unknown = await postLookup(JSON.stringify({ orderNumber: "00000000", phone: "923456789" }));
    expect(wrong.status).toBe(404);
    expect(wrong.text).toBe(unknown.text);
    expect(unknown.status).toBe(404);

    const bad = await postLookup(JSON.stringify({ orderNumber, phone: "" }));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).error.code).toBe("invalid_input");
    expect((await postLookup("{")).status).toBe(400);
  });

  it("refuses a phone that would not be one phone's key, naming the field, and spends no guess on it", async () => {
    const order = await placedOrder({ phone: "923456789" });
    const orderNumber = shortNumber(order.externalTransactionId);
    const env = { ORDER_LOOKUP_WRONG_PHONES: "1" };
    for (const phone of ["+0244 923 456 789", "0244 923 456 789", "+00244923456789", "+244 923 45"]) {
      const refused = await postLookup(JSON.stringify({ orderNumber, phone }), { env });
      expect(refused.status, phone).toBe(400);
      expect(JSON.parse(refused.text).error).toEqual({
        code: "invalid_input",
        message: expect.stringMatching(/^phone must be an Angolan number/),
      });
      expect(await lookUpOrder(db(), { orderNumber, phone })).toMatchObject({ code: "invalid_input", field: "phone" });
    }
    // With one guess allowed, none was spent on them: the right phone still finds the order.
    expect((await postLookup(JSON.stringify({ orderNumber, phone: "+244 923 456 789" }), { env })).status).toBe(200);
  });

  it("limits lookups per client address, every attempt counted, and tells a form so", async () => {
    const peer = newPeer();
    const attempt = () =>
      postLookup(JSON.stringify({ orderNumber: "00000000", phone: "923456789" }), { peer, perMinute: 3 });
    for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(404);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.text).error.code).toBe("rate_limited");
    const form = await postLookup("orderNumber=00000000&phone=923456789", { form: true, peer, perMinute: 3 });
    expect(form).toMatchObject({ status: 303, location: "/orders/lookup?error=rate_limited" });
    // Another address is not held back.
    expect(
      (await postLookup(JSON.stringify({ orderNumber: "00000000", phone: "923456789" }), { perMinute: 3 })).status,
    ).toBe(404);
  });
});

describe("wrong phones per order number", () => {
  /** What the rate_limits table holds for the wrong guesses at `orderNumber` (lower case). */
  const guessesKey = (orderNumber: string) => `order-lookup-wrong-phone:${orderNumber.toLowerCase()}`;
  /** The lock-out's window ends now, as if its minutes had passed. */
  const endWindow = (orderNumber: string) =>
    db().$executeRaw`UPDATE rate_limits SET expire = ${Date.now() - 1} WHERE key = ${guessesKey(orderNumber)}`;
  const env = { ORDER_LOOKUP_WRONG_PHONES: "5", ORDER_LOOKUP_LOCKOUT_MINUTES: "15" };
  const lookup = (orderNumber: string, phone: string, form = false) =>
    postLookup(form ? new URLSearchParams({ orderNumber, phone }).toString() : JSON.stringify({ orderNumber, phone }), {
      env,
      form,
      perMinute: 10,
    });

  it("locks a number after 5 wrong phones from 5 addresses: the right phone is then answered as an unknown number, until the window ends", async () => {
    const order = await placedOrder({ phone: "923456789" });
    const other = await placedOrder({ phone: "923456789" });
    const orderNumber = shortNumber(order.externalTransactionId);
    // Never used for an order: the answer every unknown number gets.
    const unknownNumber = randomUUID().slice(0, 8);
    const unknown = await lookup(unknownNumber, "923456789");
    const unknownForm = await lookup(unknownNumber, "923456789", true);
    expect(unknown.status).toBe(404);

    // Each wrong phone from a new address (newPeer): the per-address limit never sees two.
    for (let guess = 0; guess < 5; guess++)
      expect((await lookup(orderNumber, `92300000${guess}`)).status, `guess ${guess + 1}`).toBe(404);

    const locked = await lookup(orderNumber, "923456789");
    expect(locked.status).toBe(unknown.status);
    expect(locked.text).toBe(unknown.text);
    const lockedForm = await lookup(orderNumber, "923456789", true);
    expect(lockedForm.status).toBe(303);
    // The same page an unknown number is sent to, but for the number the shopper typed.
    expect(lockedForm.location).toBe(unknownForm.location!.replace(unknownNumber, orderNumber));

    // Another order is found as before.
    const found = await lookup(shortNumber(other.externalTransactionId), "923456789");
    expect(found.status).toBe(200);
    expect(JSON.parse(found.text)).toEqual({ externalTransactionId: other.externalTransactionId });

    await endWindow(orderNumber);
    const again = await lookup(orderNumber, "923456789");
    expect(again.status).toBe(200);
    expect(JSON.parse(again.text)).toEqual({ externalTransactionId: order.externalTransactionId });
  });

  it("counts the whole id and the short number as one number, and stops counting with 0", async () => {
    const order = await placedOrder({ phone: "923456789" });
    for (let guess = 0; guess < 5; guess++) await lookup(order.externalTransactionId, `92300000${guess}`);
    expect((await lookup(shortNumber(order.externalTransactionId).toLowerCase(), "923456789")).status).toBe(404);

    const open = await placedOrder({ phone: "923456789" });
    const off = { ORDER_LOOKUP_WRONG_PHONES: "0" };
    for (let guess = 0; guess < 6; guess++)
      await postLookup(JSON.stringify({ orderNumber: open.externalTransactionId, phone: `92300000${guess}` }), {
        env: off,
      });
    const found = await postLookup(JSON.stringify({ orderNumber: open.externalTransactionId, phone: "923456789" }), {
      env: off,
    });
    expect(found.status).toBe(200);
  });
});

describe("a burst of guesses at one order number", () => {
  const limit = { failures: 5, windowSeconds: 900 };
  let pools: pg.Pool[] = [];
  afterEach(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    pools = [];
  });
  /**
   * App instances: limiters over pools of their own, so the guesses race on separate connections
   * (fewer on embedded PGlite, whose server takes 16 connections in all).
   */
  const onServer = Boolean(process.env.TEST_SERVER_DATABASE_URL);
  const instances = () =>
    Array.from({ length: onServer ? 4 : 2 }, () => {
      const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: onServer ? 5 : 3 });
      pools.push(pool);
      return createRateLimits(pool);
    });

  /** The app's database as a lookup sees it, telling whether a phone was compared (the candidates' query ran). */
  function countingDb() {
    const counted = { compared: false, db: {} as Pick<Database, "$queryRaw"> };
    counted.db.$queryRaw = ((...query: Parameters<Database["$queryRaw"]>) => {
      counted.compared = true;
      return db().$queryRaw(...query);
    }) as Database["$queryRaw"];
    return counted;
  }

  /**
   * `phones` guessed at `orderNumber` all at once, spread over the instances; for each, its answer
   * and whether its phone was compared with the orders' (the candidates' query ran: the database
   * passed to each guess counts its queries).
   */
  async function guessAtOnce(orderNumber: string, phones: string[]) {
    const limits = instances();
    return Promise.all(
      phones.map(async (phone, i) => {
        const counted = countingDb();
        const result: LookupResult = await lookUpOrderWithLockOut(
          counted.db,
          { orderNumber, phone },
          { limit, limits: limits[i % limits.length] },
        );
        return { phone, result, compared: counted.compared };
      }),
    );
  }

  const wrongPhones = (count: number) => Array.from({ length: count }, (_, i) => `92300${String(i).padStart(4, "0")}`);

  it.each([
    ["then the right one", 39],
    ["the right one among them", 17],
    ["the right one first", 0],
  ])(
    "40 concurrent guesses (39 wrong phones, %s) with 5 allowed: at most 5 wrong phones compared, and the right one finds the order only if it was compared",
    async (_, rightAt) => {
      const order = await placedOrder({ phone: "923456789" });
      const orderNumber = shortNumber(order.externalTransactionId);
      const phones = wrongPhones(39);
      phones.splice(rightAt, 0, "923 456 789");
      const guesses = await guessAtOnce(orderNumber, phones);

      const wrong = guesses.filter((guess) => guess.phone !== "923 456 789");
      const right = guesses.find((guess) => guess.phone === "923 456 789")!;
      expect(wrong.filter((guess) => guess.compared).length).toBeLessThanOrEqual(limit.failures);
      for (const guess of wrong)
        expect(guess.result).toEqual({ ok: false, code: "not_found", message: expect.any(String) });
      // A right phone found its order only by being compared within the limit (and then gave its
      // guess back, so the wrong ones may still have had all 5).
      expect(right.result).toEqual(
        right.compared
          ? { ok: true, externalTransactionId: order.externalTransactionId }
          : { ok: false, code: "not_found", message: expect.any(String) },
      );
      if (rightAt === 39) expect(right.result.ok).toBe(false);

      // The number is locked: the right phone, asked again, is compared with nothing.
      const [again] = await guessAtOnce(orderNumber, ["923456789"]);
      expect(again).toEqual({
        phone: "923456789",
        result: { ok: false, code: "not_found", message: expect.any(String) },
        compared: false,
      });
    },
  );

  it("right phones give back only their own guesses: a shopper finding their order again and again neither unlocks the number nor lets more wrong phones be compared", async () => {
    const order = await placedOrder({ phone: "923456789" });
    const orderNumber = shortNumber(order.externalTransactionId);
    const phones = wrongPhones(30);
    // Every other guess is the right phone: 30 wrong, 30 right, at once.
    const interleaved = phones.flatMap((phone) => [phone, "+244 923 456 789"]);
    const guesses = await guessAtOnce(orderNumber, interleaved);
    const wrongCompared = guesses.filter((guess) => guess.compared && guess.phone !== "+244 923 456 789");
    expect(wrongCompared.length).toBeLessThanOrEqual(limit.failures);
    for (const guess of guesses) expect(guess.result.ok).toBe(guess.compared && guess.phone === "+244 923 456 789");
    // However many right phones were found, the wrong ones compared never passed 5 in all.
    const later = await guessAtOnce(orderNumber, wrongPhones(10));
    expect(wrongCompared.length + later.filter((guess) => guess.compared).length).toBeLessThanOrEqual(limit.failures);
  });

  it("never compares a phone it could not count: the counters unreachable, the lookup throws", async () => {
    const order = await placedOrder({ phone: "923456789" });
    const counted = countingDb();
    const down = createRateLimits({ query: () => Promise.reject(new Error("Connection terminated")) });
    await expect(
      lookUpOrderWithLockOut(
        counted.db,
        { orderNumber: shortNumber(order.externalTransactionId), phone: "923456789" },
        { limit, limits: down },
      ),
    ).rejects.toThrow();
    expect(counted.compared).toBe(false);
  });

  it("the browser that placed the order still lists it, whatever strangers do", async () => {
    const clientId = `shopper_${randomUUID()}`;
    const order = await placedOrder({ phone: "923456789", clientId });
    const orderNumber = shortNumber(order.externalTransactionId);
    await guessAtOnce(orderNumber, wrongPhones(40));
    // Strangers have locked the number: even its right phone finds nothing now…
    const [locked] = await guessAtOnce(orderNumber, ["923456789"]);
    expect(locked!.result.ok).toBe(false);
    // …but the shopper's own list (its shopper cookie) still has it.
    expect((await shopperOrders(db(), clientId)).map((listed) => listed.externalTransactionId)).toEqual([
      order.externalTransactionId,
    ]);
  });

  it("POST /api/orders/lookup: 40 concurrent guesses from 40 addresses, 39 wrong phones then the right one, with ORDER_LOOKUP_WRONG_PHONES=5: none finds the order", async () => {
    const order = await placedOrder({ phone: "923456789" });
    const orderNumber = shortNumber(order.externalTransactionId);
    vi.stubEnv("RATE_LIMIT_ORDER_LOOKUP_PER_MINUTE", "10");
    vi.stubEnv("ORDER_LOOKUP_WRONG_PHONES", "5");
    vi.stubEnv("ORDER_LOOKUP_LOCKOUT_MINUTES", "15");
    vi.resetModules();
    const { POST } = await import("@/app/api/orders/lookup/route");
    const phones = [...wrongPhones(39), "923456789"];
    // Sent in that order, all at once: the app's pool (10 connections) serves them as they come.
    const answers = await Promise.all(
      phones.map(async (phone) => {
        const response = await POST(
          new NextRequest("http://localhost:3000/api/orders/lookup", {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              "X-Forwarded-For": appendForwardedFor(undefined, newPeer()),
            },
            body: JSON.stringify({ orderNumber, phone }),
          }),
        );
        return { status: response.status, text: await response.text() };
      }),
    );
    const unknown = await postLookup(JSON.stringify({ orderNumber: randomUUID().slice(0, 8), phone: "923456789" }));
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(404));
    for (const answer of answers) expect(answer.text).toBe(unknown.text);
  });
});

describe("shopperOrders", () => {
  it("lists a shopper's own orders, newest first, with their units", async () => {
    const clientId = `shopper_${randomUUID()}`;
    const older = await placedOrder({ clientId, createdAt: new Date(Date.now() - 60_000) });
    const newer = await placedOrder({ clientId });
    await placedOrder();
    await db().orderLine.create({
      data: {
        orderId: newer.id,
        productId: (await db().product.findFirstOrThrow()).id,
        productName: "x",
        unitPriceAoa: 1,
        quantity: 3,
      },
    });
    const listed = await shopperOrders(db(), clientId);
    expect(listed.map((order) => [order.externalTransactionId, order.items])).toEqual([
      [newer.externalTransactionId, 3],
      [older.externalTransactionId, 0],
    ]);
    expect(await shopperOrders(db(), undefined)).toEqual([]);
  });
});
