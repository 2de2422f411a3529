import { describe, expect, it } from "vitest";
import { allocateDiscount, evaluatePromo, type PromoRule } from "@/lib/promotions/promo-codes";

const NOW = new Date("2026-12-01T12:00:00Z");
const rule = (overrides: Partial<PromoRule> = {}): PromoRule => ({
  id: "00000000-0000-4000-8000-000000000001",
  code: "VERAO",
  kind: "percent",
  value: 10,
  minSubtotalAoa: 0,
  startsAt: null,
  endsAt: null,
  maxUses: null,
  maxUsesPerPhone: null,
  uses: 0,
  active: true,
  ...overrides,
});
const basket = (totals: number[], eligible = totals.map(() => true), phoneUses: number | null = 0) => ({
  lines: totals.map((lineTotalAoa, index) => ({ productId: `p${index}`, lineTotalAoa })),
  eligible,
  phoneUses,
});

describe("allocateDiscount", () => {
  it("shares in proportion, the kwanza left to the largest remainders, exactly the discount", () => {
    expect(allocateDiscount([1_000, 2_000, 3_000], 600)).toEqual([100, 200, 300]);
    expect(allocateDiscount([1, 1, 1], 2)).toEqual([1, 1, 0]);
    expect(allocateDiscount([3_333, 6_667], 1_000)).toEqual([333, 667]);
    expect(allocateDiscount([0, 5_000], 700)).toEqual([0, 700]);
    expect(allocateDiscount([100, 200], 1_000)).toEqual([100, 200]);
    expect(allocateDiscount([100, 200], 0)).toEqual([0, 0]);
  });

  it.each([
    [[7, 13, 999], 17],
    [[1_001, 999, 5], 1_234],
    [[1, 1, 1, 1, 1, 1, 1], 5],
  ])("of %j and %i: adds up, and no share above its line", (totals, discount) => {
    const shares = allocateDiscount(totals, discount);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(discount);
    shares.forEach((share, index) => expect(share).toBeLessThanOrEqual(totals[index]!));
  });
});

describe("evaluatePromo", () => {
  it("a percentage of the eligible lines, rounded down", () => {
    expect(evaluatePromo(rule({ value: 15 }), basket([3_333, 1_000], [true, false]), NOW)).toMatchObject({
      ok: true,
      discountAoa: 499,
      eligibleSubtotalAoa: 3_333,
      lineDiscounts: [499, 0],
    });
  });

  it("a fixed amount, never more than the eligible lines", () => {
    expect(evaluatePromo(rule({ kind: "fixed", value: 5_000 }), basket([3_000]), NOW)).toMatchObject({
      discountAoa: 3_000,
    });
  });

  it.each([
    ["inactive", rule({ active: false }), basket([1_000]), "promo_unknown"],
    ["before its start", rule({ startsAt: new Date("2026-12-02T00:00:00Z") }), basket([1_000]), "promo_not_started"],
    ["at its end", rule({ endsAt: NOW }), basket([1_000]), "promo_expired"],
    ["under its minimum", rule({ minSubtotalAoa: 5_000 }), basket([4_999]), "promo_below_minimum"],
    [
      "minimum of the eligible lines only",
      rule({ minSubtotalAoa: 5_000 }),
      basket([4_000, 4_000], [true, false]),
      "promo_below_minimum",
    ],
    ["nothing eligible", rule(), basket([1_000], [false]), "promo_not_applicable"],
    ["used up", rule({ maxUses: 5, uses: 5 }), basket([1_000]), "promo_used_up"],
    [
      "no phone for a per-phone code",
      rule({ maxUsesPerPhone: 1 }),
      basket([1_000], [true], null),
      "promo_phone_required",
    ],
    ["over the phone's limit", rule({ maxUsesPerPhone: 2 }), basket([1_000], [true], 2), "promo_phone_limit"],
  ])("%s: refused", (_name, promo, input, code) => {
    expect(evaluatePromo(promo, input, NOW)).toMatchObject({ ok: false, code });
  });

  it("at its start, at its minimum, with a use left: applies", () => {
    expect(
      evaluatePromo(
        rule({ startsAt: NOW, minSubtotalAoa: 1_000, maxUses: 5, uses: 4, maxUsesPerPhone: 2 }),
        basket([1_000], [true], 1),
        NOW,
      ),
    ).toMatchObject({ ok: true, discountAoa: 100 });
  });
});
