// @vitest-environment jsdom
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RefundsSection } from "@/components/admin/orders/refunds-section";
import { BACK_OFFICE_TEXTS } from "@/lib/i18n/back-office";
import { formatAoa } from "@/lib/money";
import type { OrderRefunds, RefundView } from "@/lib/orders/refund-views-admin";

// The refunds section of the back office's order page as the server renders it: plain forms
// whose fields are the names the refund and correction routes read (so they work without
// script), every field labelled, and what is offered for what remains.

const ID = "order_5f0c7a52-3d5e-4a8e-9c61-0b7b2f1d9e11";
const VARIANT = "0b8a6d1e-9a55-4d7e-9a57-8f0cbd5b2a10";
const LINE = "7d0f3c59-2a8e-4f59-9d16-3c1a8e4b6f21";
const words = BACK_OFFICE_TEXTS.pt.refunds;
const at = new Date("2026-12-20T10:00:00Z");

const entry = (fields: Partial<RefundView>): RefundView => ({
  id: `id-${fields.number}`,
  number: 12,
  externalTransactionId: ID,
  amountAoa: 4_000,
  deliveryFeeAoa: 0,
  correctsNumber: null,
  method: "bank_transfer",
  reference: null,
  note: null,
  refundedAt: at,
  staffName: "Dona Rosa",
  createdAt: at,
  lines: [],
  ...fields,
});

const refunds = (fields: Partial<OrderRefunds> = {}): OrderRefunds => ({
  paidAoa: 6_000,
  refundedAoa: 3_000,
  remainingAoa: 3_000,
  returnsAllowed: true,
  deliveryFeeAoa: 1_000,
  deliveryFeeRefundedAoa: 0,
  lines: [
    {
      id: LINE,
      variantId: VARIANT,
      productName: "Café Amboim",
      variantTitle: "500 g",
      unitPriceAoa: 2_000,
      quantity: 3,
      discountAoa: 0,
      returned: 2,
      returnable: 1,
    },
  ],
  refunds: [
    entry({
      number: 12,
      reference: "TRF-1",
      lines: [
        {
          orderLineId: LINE,
          variantId: VARIANT,
          productName: "Café Amboim",
          variantTitle: "500 g",
          quantity: 1,
          restock: true,
        },
        {
          orderLineId: LINE,
          variantId: VARIANT,
          productName: "Café Amboim",
          variantTitle: "500 g",
          quantity: 1,
          restock: false,
        },
      ],
    }),
    entry({ number: 13, amountAoa: -1_000, correctsNumber: 12, note: "O banco devolveu 1 000." }),
  ],
  ...fields,
});

function render(data: OrderRefunds, query: Record<string, string> = {}) {
  document.body.innerHTML = renderToStaticMarkup(
    <RefundsSection refunds={data} query={query} actionPath={`/api/admin/orders/${ID}`} words={words} />,
  );
  return document.body;
}

const labelOf = (body: HTMLElement, control: Element) =>
  body.querySelector(`label[for="${control.id}"]`)?.textContent ?? null;

describe("the refunds section", () => {
  it("lists the totals and each entry, and posts a plain form with the routes' field names, each labelled", () => {
    const body = render(refunds());
    expect(body.querySelector("#refund h2")?.textContent).toBe(words.title);
    expect(body.querySelector('[data-testid="refund-paid"]')?.textContent).toBe(formatAoa(6_000));
    expect(body.querySelector('[data-testid="refund-remaining"]')?.textContent).toBe(formatAoa(3_000));
    const entries = [...body.querySelectorAll('[data-testid="refund-entry"]')];
    expect(entries.map((li) => li.getAttribute("data-number"))).toEqual(["12", "13"]);
    expect(entries[0]!.textContent).toContain("2 × Café Amboim, 500 g: 1 de volta ao stock, 1 danificada");
    expect(entries[1]!.textContent).toContain(words.entry.correction(13, 12));
    expect(entries[1]!.textContent).toContain(formatAoa(-1_000));

    const form = body.querySelector<HTMLFormElement>('[data-testid="refund-form"]')!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe(`/api/admin/orders/${ID}/refunds`);
    const controls = [...form.querySelectorAll("input, select, textarea")];
    expect(controls.map((control) => control.getAttribute("name"))).toEqual([
      `returns.${VARIANT}.restock`,
      `returns.${VARIANT}.damaged`,
      "amountAoa",
      "includeDeliveryFee",
      "method",
      "reference",
      "refundedAt",
      "note",
    ]);
    for (const control of controls) expect(labelOf(body, control), control.getAttribute("name")!).toBeTruthy();
    expect(form.querySelector(`[name="returns.${VARIANT}.restock"]`)?.getAttribute("max")).toBe("1");
    expect(form.querySelector('[name="refundedAt"]')?.getAttribute("type")).toBe("datetime-local");
    expect([...form.querySelectorAll('[name="method"] option')].map((option) => option.getAttribute("value"))).toEqual([
      "",
      "bank_transfer",
      "multicaixa_express",
      "cash",
      "other",
    ]);
    expect(form.textContent).toContain(words.form.returnable(1, 3));

    // A correction for the refund with something left, none for the correction itself.
    const corrections = [...body.querySelectorAll<HTMLFormElement>('[data-testid="correction-form"]')];
    expect(corrections.map((correction) => correction.getAttribute("action"))).toEqual([
      `/api/admin/orders/${ID}/refunds/12/correction`,
    ]);
    expect(corrections[0]!.closest("details")?.hasAttribute("open")).toBe(false);
    expect([...corrections[0]!.querySelectorAll("input, textarea")].map((field) => field.getAttribute("name"))).toEqual(
      ["amountAoa", "note"],
    );
    expect(corrections[0]!.textContent).toContain(formatAoa(3_000));
  });

  it("offers no form once everything is refunded, no lines for an order paid after it was cancelled, nothing for an order never paid", () => {
    const full = render(refunds({ refundedAoa: 6_000, remainingAoa: 0 }));
    expect(full.querySelector('[data-testid="refund-form"]')).toBeNull();
    expect(full.textContent).toContain(words.form.fullyRefunded);

    const cancelled = render(refunds({ returnsAllowed: false, refunds: [], refundedAoa: 0, remainingAoa: 6_000 }));
    expect(cancelled.querySelector('[data-testid="refund-form"]')).not.toBeNull();
    expect(cancelled.querySelector('[data-testid="refund-line"]')).toBeNull();
    expect(cancelled.textContent).toContain(words.form.noReturns);
    expect(cancelled.textContent).toContain(words.none);

    expect(render(refunds({ paidAoa: 0, refunds: [], remainingAoa: 0 })).innerHTML).toBe("");
  });

  it("says what the last form did, and marks the field a refusal names in the form it came from", () => {
    const done = render(refunds(), { refund: "refunded" });
    expect(done.querySelector('[data-testid="refund-flash"]')?.textContent).toBe(words.done.refunded);

    const refused = render(refunds(), { refundError: "exceeds_refund", refundField: "amountAoa", correct: "12" });
    expect(refused.querySelector('[role="alert"]')?.textContent).toBe(words.errors.exceeds_refund);
    const correction = refused.querySelector('[data-testid="correction-form"]')!;
    expect(correction.closest("details")?.hasAttribute("open")).toBe(true);
    expect(correction.querySelector('[name="amountAoa"]')?.getAttribute("aria-invalid")).toBe("true");
    expect(refused.querySelector('[data-testid="refund-form"] [name="amountAoa"]')?.hasAttribute("aria-invalid")).toBe(
      false,
    );

    const invalid = render(refunds(), { refundError: "invalid_input", refundField: "returns" });
    expect(invalid.querySelector('[role="alert"]')?.textContent).toBe(words.errors.invalid_input(words.fields.returns));
    expect(invalid.querySelector(`[name="returns.${VARIANT}.damaged"]`)?.getAttribute("aria-describedby")).toBe(
      "refund-flash",
    );
  });
});
