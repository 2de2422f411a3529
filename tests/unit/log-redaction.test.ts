import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { consoleLogger, orderLogRef, redactText, throttledLogger, type LogFields } from "@/lib/log";
import { loggedPath } from "../../scripts/lib/logged-path.mjs";

// What a log line may say about a shopper (lib/log.ts) and what the production server logs of a
// request's address (scripts/serve.mjs, scripts/lib/logged-path.mjs): no e-mail, no phone, no
// order id; an order id becomes a short hash, the same in both, so an operator can follow it.

const ORDER = "order_0b0c7d5e-8b6f-4f8a-9a6e-1f2e3d4c5b6a";
const REF = `order#${createHash("sha256").update(ORDER).digest("hex").slice(0, 12)}`;

afterEach(() => vi.restoreAllMocks());

function printedBy(write: () => void): string[] {
  const printed: string[] = [];
  for (const level of ["log", "warn", "error"] as const)
    vi.spyOn(console, level).mockImplementation((line: string) => void printed.push(line));
  write();
  return printed;
}

describe("consoleLogger", () => {
  it("prints an order id as its hash, wherever it is in a field, and no e-mail or phone", () => {
    const [line] = printedBy(() =>
      consoleLogger("info", "order.created", {
        externalTransactionId: ORDER,
        jobKey: `shopper-paid-mail:${ORDER.toUpperCase()}`,
        subject: `Encomenda paga — ${ORDER}`,
        to: "ana.domingos@exemplo.ao",
        note: "reply to Ana.Domingos+loja@exemplo.co.ao please",
        customerPhone: "+244 923 456 789",
        phone: "923456789",
        amountAoa: 5000,
        paid: true,
        reason: null,
      }),
    );
    expect(JSON.parse(line!)).toEqual({
      level: "info",
      event: "order.created",
      externalTransactionId: REF,
      jobKey: `shopper-paid-mail:${REF}`,
      subject: `Encomenda paga — ${REF}`,
      to: "[e-mail]",
      note: "reply to [e-mail] please",
      customerPhone: "[phone]",
      phone: "[phone]",
      amountAoa: 5000,
      paid: true,
      reason: null,
    });
  });

  it("hashes an order id the same whatever its case, and leaves other text alone", () => {
    expect(orderLogRef(ORDER)).toBe(REF);
    expect(orderLogRef(ORDER.toUpperCase())).toBe(REF);
    expect(redactText("checked 3 orders in 120 ms")).toBe("checked 3 orders in 120 ms");
  });
});

describe("the server's log of a request's address", () => {
  it.each([
    [`/orders/${ORDER}`, `/orders/${REF}`],
    [`/en/orders/${ORDER}?paid=1`, `/en/orders/${REF}`],
    [`/api/pay/order/${ORDER}/status?refresh=1`, `/api/pay/order/${REF}/status`],
    [`/admin/orders/${ORDER}`, `/admin/orders/${REF}`],
    ["/orders/lookup?number=7CDAC2DD&phone=923456789", "/orders/lookup"],
    ["/products/cafe", "/products/cafe"],
    [undefined, "/"],
  ])("%s is logged as %s: no order id, no query", (url, logged) => {
    expect(loggedPath(url)).toBe(logged);
  });
});

describe("throttledLogger", () => {
  it("lets through so many lines a minute per event and reason, then says how many it held back", () => {
    let now = 0;
    const lines: { event: string; fields?: LogFields }[] = [];
    const log = throttledLogger((_, event, fields) => void lines.push({ event, fields }), {
      perMinute: 3,
      now: () => now,
    });
    for (let i = 0; i < 10; i += 1) log("warn", "webhook.signature_rejected", { reason: "mismatch" });
    // Another reason, and another event, have minutes of their own.
    log("warn", "webhook.signature_rejected", { reason: "missing" });
    log("warn", "admin.sign_in.failed", { reason: "mismatch" });
    expect(lines).toHaveLength(5);
    expect(lines.slice(0, 3).every((line) => line.fields?.suppressed === undefined)).toBe(true);

    now += 59_999;
    log("warn", "webhook.signature_rejected", { reason: "mismatch" });
    expect(lines).toHaveLength(5);
    now += 1;
    log("warn", "webhook.signature_rejected", { reason: "mismatch", bytes: 12 });
    expect(lines.at(-1)).toEqual({
      event: "webhook.signature_rejected",
      fields: { reason: "mismatch", bytes: 12, suppressed: 8 },
    });
    log("warn", "webhook.signature_rejected", { reason: "mismatch" });
    expect(lines.at(-1)?.fields).toEqual({ reason: "mismatch" });
  });
});
