import { describe, expect, it } from "vitest";
import { deliveryFee } from "@/lib/delivery/delivery-rules";

// What a delivery zone charges (lib/delivery/zones.ts): its fee, or nothing from its free-delivery threshold on.

describe("deliveryFee", () => {
  it("charges the zone's fee when it has no threshold", () => {
    expect(deliveryFee({ feeAoa: 1500, freeFromAoa: null }, 0)).toBe(1500);
    expect(deliveryFee({ feeAoa: 1500, freeFromAoa: null }, 10_000_000)).toBe(1500);
  });

  it("charges the fee below the threshold and nothing from it on", () => {
    const zone = { feeAoa: 2500, freeFromAoa: 50_000 };
    expect(deliveryFee(zone, 49_999)).toBe(2500);
    expect(deliveryFee(zone, 50_000)).toBe(0);
    expect(deliveryFee(zone, 120_000)).toBe(0);
  });

  it("a free zone stays free", () => {
    expect(deliveryFee({ feeAoa: 0, freeFromAoa: null }, 100)).toBe(0);
    expect(deliveryFee({ feeAoa: 0, freeFromAoa: 1000 }, 100)).toBe(0);
  });
});
