import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { orderLogRef } from "@/lib/log";
import { createOutboxMailer } from "@/lib/mail";
import { placeOrder } from "../../harness/support/checkout";
import { settleAfterTasks } from "../../harness/support/next-after";
import { insertTestProduct, jobsOf } from "../../harness/support/orders";
import { useOwnSandbox } from "../../harness/support/sandbox";
import { signInCodeInOutbox } from "../../harness/support/shoppers";

// What the shop writes to its logs while a shopper's order is checked out, read, paid and mailed
// about: every line the process prints (console), as a log collector would take them. Neither the
// shopper's e-mail, nor the phone, nor the order id (the key to the order's page) may be in them;
// a short hash of the order id (orderLogRef) still lets an operator follow one order's lines.

let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  sandbox = await useOwnSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());
afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

/** Every line printed from now on, whatever the level. */
function capturePrinted(): string[] {
  const printed: string[] = [];
  const keep = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
  for (const level of ["log", "info", "warn", "error"] as const) vi.spyOn(console, level).mockImplementation(keep);
  return printed;
}

const EMAIL = "ana.domingos@exemplo.ao";
const PHONE = "+244 923 456 789";

describe("the logs", () => {
  it("of a checkout, a status request that finds the order paid, and its mails, name no e-mail, phone or order id", async () => {
    const printed = capturePrinted();
    const product = await insertTestProduct({ stock: 5 });
    const { externalTransactionId } = await placeOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: { name: "Ana Domingos", phone: PHONE, email: EMAIL },
    });
    // Paid at the service, its webhook lost: the order's page asks for its status, which applies it.
    await sandbox.control.call("POST", `/orders/${externalTransactionId}/confirm`, {});
    const { GET } = await import("@/app/api/pay/order/[externalTransactionId]/status/route");
    const response = await GET(
      new Request(`http://localhost:3000/api/pay/order/${externalTransactionId}/status?refresh=1`),
      { params: Promise.resolve({ externalTransactionId }) },
    );
    expect(((await response.json()) as { status: string }).status).toBe("CON");
    await settleAfterTasks();
    // The shopper's mail was sent (to the outbox, as in development), and so were its log lines.
    expect((await jobsOf(externalTransactionId)).find((job) => job.type === "shopper-paid-mail")?.status).toBe("DONE");
    expect(await db().email.count({ where: { to: EMAIL } })).toBe(1);

    const events = printed.flatMap((line) =>
      line.startsWith("{") ? [JSON.parse(line) as Record<string, unknown>] : [],
    );
    expect(events.map((event) => event.event)).toEqual(
      expect.arrayContaining(["order.created", "order.status_fallback_applied", "mail.outbox"]),
    );
    const all = printed.join("\n");
    expect(all).not.toContain(EMAIL);
    expect(all).not.toContain(PHONE);
    expect(all).not.toContain("923456789");
    expect(all.toLowerCase()).not.toContain(externalTransactionId.slice("order_".length));
    // The order's lines carry its hash instead, the same in each.
    const ref = orderLogRef(externalTransactionId);
    expect(ref).toMatch(/^order#[0-9a-f]{12}$/);
    expect(events.find((event) => event.event === "order.created")).toMatchObject({ externalTransactionId: ref });
    expect(events.find((event) => event.event === "order.status_fallback_applied")).toMatchObject({
      externalTransactionId: ref,
    });
  });

  it("of a mail written with the default logger carry neither its recipient nor an order id from its subject", async () => {
    const printed = capturePrinted();
    const order = `order_${crypto.randomUUID()}`;
    await createOutboxMailer({ db: db() }).send({
      to: EMAIL,
      subject: `Encomenda paga — ${order}`,
      text: `Telefone: ${PHONE}`,
      jobKey: `shopper-paid-mail:${order}`,
    });
    expect(printed).toHaveLength(1);
    expect(JSON.parse(printed[0]!)).toMatchObject({
      event: "mail.outbox",
      jobKey: `shopper-paid-mail:${orderLogRef(order)}`,
    });
    expect(printed[0]).not.toContain(EMAIL);
    expect(printed[0]).not.toContain(order);
  });

  it("of a sign-in by phone (a code asked for, a wrong one, the right one, a sign-out) carry neither the phone nor a code", async () => {
    const { POST } = await import("@/app/api/auth/[...all]/route");
    const phone = `9${String(Date.now()).slice(-8)}`;
    const printed = capturePrinted();
    const post = (path: string, body: unknown, cookie?: string) =>
      POST(
        new NextRequest(`http://localhost:3000/api/auth${path}`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Origin: "http://localhost:3000",
            ...(cookie ? { Cookie: cookie } : {}),
          },
          body: JSON.stringify(body),
        }),
      );
    expect((await post("/phone-number/send-otp", { phoneNumber: `+244 ${phone}` })).status).toBe(200);
    const code = (await signInCodeInOutbox(db(), phone))!;
    const wrong = code === "000000" ? "111111" : "000000";
    expect((await post("/phone-number/verify", { phoneNumber: phone, code: wrong })).status).toBe(400);
    const signedIn = await post("/phone-number/verify", { phoneNumber: phone, code });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.getSetCookie()[0]!.split(";")[0]!;
    expect((await post("/sign-out", {}, cookie)).status).toBe(200);
    const all = printed.join("\n");
    expect(all).not.toContain(phone);
    expect(all).not.toContain(code);
    expect(all).not.toContain(wrong);
  });
});
