import { describe, expect, it } from "vitest";
import { en, pt } from "@/lib/i18n/dictionaries";
import { formatAoa } from "@/lib/money";
import {
  referenceFileHref,
  referenceFileName,
  referenceSlipText,
  referenceValidUntil,
} from "@/lib/orders/reference-slip";
import { whatsappShareLink as referenceShareHref } from "@/lib/whatsapp";

const slip = {
  orderNumber: "7CDAC2DD",
  entityNumber: "00123",
  paymentReference: "123456789",
  amountAoa: 12500,
  // 13:05 UTC is 14:05 in Luanda (UTC+1).
  validUntil: "2026-11-27T13:05:00.000Z",
};

describe("referenceSlipText", () => {
  it("says shop, order, entity, reference, amount in Kz and until when in Luanda's time, one a line", () => {
    const lines = referenceSlipText(pt, slip).split("\n");
    expect(lines).toEqual([
      "Loja Kwanza: pagamento por referência",
      "Encomenda 7CDAC2DD",
      "Entidade: 00123",
      "Referência: 123456789",
      `Montante: ${formatAoa(12500)}`,
      expect.stringMatching(/^Válida até: 27\/11,? 14:05 \(hora de Luanda\)$/),
    ]);
    expect(lines[4]).toMatch(/^Montante: 12\s500\sKz$/u);
  });

  it("in English, and without what is not known", () => {
    const text = referenceSlipText(en, { orderNumber: "7CDAC2DD", paymentReference: "123456789", amountAoa: 900 });
    expect(text).toBe(
      ["Loja Kwanza: payment by reference", "Order 7CDAC2DD", "Reference: 123456789", `Amount: ${formatAoa(900)}`].join(
        "\n",
      ),
    );
  });
});

describe("the share link and the file", () => {
  it("shares the same text on WhatsApp, to a chat the shopper picks", () => {
    const text = referenceSlipText(pt, slip);
    const href = referenceShareHref(text);
    expect(href.startsWith("https://wa.me/?text=")).toBe(true);
    expect(new URL(href).searchParams.get("text")).toBe(text);
  });

  it("saves the same text as referencia-<order>.txt", async () => {
    const text = referenceSlipText(pt, slip);
    expect(referenceFileName("7CDAC2DD")).toBe("referencia-7CDAC2DD.txt");
    expect(await (await fetch(referenceFileHref(text))).text()).toBe(text);
  });
});

describe("referenceValidUntil", () => {
  it("is the order's own deadline when it has one, else a day from the order's creation", () => {
    const created = new Date("2026-11-26T10:00:00.000Z");
    expect(referenceValidUntil(created)).toBe("2026-11-27T10:00:00.000Z");
    expect(referenceValidUntil(created, "2026-11-26T10:30:00.000Z")).toBe("2026-11-26T10:30:00.000Z");
  });
});
