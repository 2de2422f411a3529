import { describe, expect, it } from "vitest";
import { refundFields, refundInputSchema, returnedValue } from "@/lib/orders/refund-rules";

// The pure rules of a refund (lib/orders/refund-rules.ts): the value of returned units, and the
// order page's form read as a JSON client's body.

const VARIANT = "0b6f2a9e-4c1d-4e8a-9f3b-2d7c5e1a0b9c";
const OTHER = "7d3e9c1a-2b4f-4a6e-8c0d-1f5b3a7e9d2c";

describe("returnedValue", () => {
  const line = { unitPriceAoa: 1_000, quantity: 3, discountAoa: 100 };

  it("is the units' price less their share of the line's discount", () => {
    expect(returnedValue(line, 0, 1)).toBe(1_000 - 33);
    expect(returnedValue(line, 0, 3)).toBe(2_900);
    expect(returnedValue({ unitPriceAoa: 500, quantity: 2, discountAoa: 0 }, 0, 2)).toBe(1_000);
  });

  it("adds up, over partial returns in any sizes, to exactly what the line cost", () => {
    for (const steps of [[1, 1, 1], [2, 1], [1, 2], [3]]) {
      let returned = 0;
      let total = 0;
      for (const units of steps) {
        total += returnedValue(line, returned, units);
        returned += units;
      }
      expect(total, steps.join("+")).toBe(3 * 1_000 - 100);
    }
  });
});

describe("refundFields", () => {
  it("reads the form's restocked and damaged units per line, skipping empty and 0", () => {
    const parsed = refundInputSchema.parse(
      refundFields({
        method: "cash",
        amountAoa: "",
        includeDeliveryFee: ["false", "on"],
        [`returns.${VARIANT}.restock`]: "2",
        [`returns.${VARIANT}.damaged`]: "0",
        [`returns.${OTHER}.restock`]: "",
        [`returns.${OTHER}.damaged`]: "1",
      }),
    );
    expect(parsed).toMatchObject({ method: "cash", includeDeliveryFee: true });
    expect(parsed.amountAoa).toBeUndefined();
    expect(parsed.returns).toEqual([
      { variantId: VARIANT, quantity: 2, restock: true },
      { variantId: OTHER, quantity: 1, restock: false },
    ]);
  });

  it("leaves a JSON client's returns list as it is", () => {
    const returns = [{ variantId: VARIANT.toUpperCase(), quantity: 1, restock: false }];
    expect(refundInputSchema.parse(refundFields({ method: "other", returns })).returns).toEqual([
      { variantId: VARIANT, quantity: 1, restock: false },
    ]);
  });

  it("takes a datetime-local as Luanda's time, an instant with its offset as it is", () => {
    const at = (refundedAt: string) =>
      refundInputSchema.parse({ method: "cash", refundedAt }).refundedAt?.toISOString();
    expect(at("2026-12-24T15:30")).toBe("2026-12-24T14:30:00.000Z");
    expect(at("2026-12-24T15:30:00Z")).toBe("2026-12-24T15:30:00.000Z");
    expect(refundInputSchema.safeParse({ method: "cash", refundedAt: "2026-13-40T99:99" }).success).toBe(false);
  });
});
