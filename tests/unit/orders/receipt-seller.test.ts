import { describe, expect, it } from "vitest";
import { receiptNumber, receiptSeller } from "@/lib/orders/receipt";

// Who a receipt names as the seller (SHOP_LEGAL_NAME, SHOP_NIF, SHOP_ADDRESS) and how it prints its number.

describe("receiptSeller", () => {
  it("without settings: the shop's name alone", () => {
    expect(receiptSeller({ legalName: null, nif: null, address: null }, "Loja Kwanza")).toEqual({
      name: "Loja Kwanza",
      tradingName: null,
      nif: null,
      addressLines: [],
    });
  });

  it("a legal name other than the shop's keeps the shop's under it; the address's lines are split", () => {
    expect(
      receiptSeller(
        { legalName: "Kwanza Comércio, Lda", nif: "5000028550", address: "Rua Rainha Ginga 12\nIngombota\\nLuanda" },
        "Loja Kwanza",
      ),
    ).toEqual({
      name: "Kwanza Comércio, Lda",
      tradingName: "Loja Kwanza",
      nif: "5000028550",
      addressLines: ["Rua Rainha Ginga 12", "Ingombota", "Luanda"],
    });
  });
});

describe("receiptNumber", () => {
  it("has six digits at least", () => {
    expect(receiptNumber(42)).toBe("000042");
    expect(receiptNumber(1234567)).toBe("1234567");
  });
});
