import { describe, expect, it } from "vitest";
import { paymentReferenceItems, referencesTotal } from "@/lib/pay/sdk/payment-references";

const line = (name: string, unitPriceAoa: number, quantity: number, discountAoa = 0) => ({
  name,
  unitPriceAoa,
  quantity,
  discountAoa,
  stock: 9,
});

describe("payment references add up to what is charged", () => {
  it("without discount or fee: one item per line at its price", () => {
    const items = paymentReferenceItems({
      referenceNumber: "R1",
      lines: [line("Café", 2_500, 2), line("Mel", 4_000, 1)],
      promoCode: null,
      deliveryFeeAoa: 0,
      deliveryDescription: "Levantamento: Loja",
    });
    expect(items).toEqual([
      {
        referenceNumber: "R1",
        referenceDescription: "Café",
        referenceAmount: 2_500,
        referenceQuantity: 2,
        referenceTotalQuantity: 9,
      },
      {
        referenceNumber: "R1",
        referenceDescription: "Mel",
        referenceAmount: 4_000,
        referenceQuantity: 1,
        referenceTotalQuantity: 9,
      },
    ]);
  });

  it("a delivery fee is an item of its own", () => {
    const items = paymentReferenceItems({
      referenceNumber: "R1",
      lines: [line("Café", 2_500, 2)],
      promoCode: null,
      deliveryFeeAoa: 2_000,
      deliveryDescription: "Entrega: Talatona",
    });
    expect(items.at(-1)).toEqual({
      referenceNumber: "R1",
      referenceDescription: "Entrega: Talatona",
      referenceAmount: 2_000,
      referenceQuantity: 1,
      referenceTotalQuantity: 1,
    });
    expect(referencesTotal(items)).toBe(7_000);
  });

  it("a discounted line that does not divide by its quantity becomes two items a kwanza apart, never negative", () => {
    const items = paymentReferenceItems({
      referenceNumber: "R1",
      lines: [line("Camisola, M", 5_000, 3, 5_000), line("Mel", 4_000, 1)],
      promoCode: "VERAO",
      deliveryFeeAoa: 0,
      deliveryDescription: null,
    });
    expect(items).toEqual([
      expect.objectContaining({
        referenceDescription: "Camisola, M (desconto VERAO)",
        referenceAmount: 3_334,
        referenceQuantity: 1,
      }),
      expect.objectContaining({
        referenceDescription: "Camisola, M (desconto VERAO)",
        referenceAmount: 3_333,
        referenceQuantity: 2,
      }),
      expect.objectContaining({ referenceDescription: "Mel", referenceAmount: 4_000, referenceQuantity: 1 }),
    ]);
    expect(referencesTotal(items)).toBe(15_000 - 5_000 + 4_000);
  });

  it.each([
    [[1, 1, 1], [7, 13, 999], 17],
    [[3, 7, 2], [1_001, 999, 5], 2_345],
    [[5], [9_999], 9_998],
    [[1, 2], [10, 10], 30],
  ])("quantities %j at prices %j with %i off: the items add up exactly", (quantities, prices, discount) => {
    const totals = quantities.map((quantity, index) => quantity * prices[index]!);
    const sum = totals.reduce((a, b) => a + b, 0);
    // Shares as lib/promotions/promo-codes.ts makes them: in proportion, never above a line's total.
    let left = Math.min(discount, sum);
    const shares = totals.map((total, index) => {
      const share = index === totals.length - 1 ? left : Math.min(total, Math.floor((total * discount) / sum));
      left -= share;
      return share;
    });
    const items = paymentReferenceItems({
      referenceNumber: "R",
      lines: quantities.map((quantity, index) => line(`L${index}`, prices[index]!, quantity, shares[index])),
      promoCode: "X",
      deliveryFeeAoa: 500,
      deliveryDescription: "Entrega: Z",
    });
    expect(referencesTotal(items)).toBe(sum - Math.min(discount, sum) + 500);
    expect(items.every((item) => Number.isInteger(item.referenceAmount) && item.referenceAmount >= 0)).toBe(true);
    expect(items.every((item) => item.referenceQuantity >= 1)).toBe(true);
  });
});
