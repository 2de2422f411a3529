import { describe, expect, it } from "vitest";
import {
  canFulfil,
  FULFILMENT_STATES,
  fulfilmentPath,
  nextFulfilmentStates,
  type DeliveryMethod,
  type FulfilmentState,
} from "@/lib/orders/fulfilment-states";

// The fulfilment table of a paid order (lib/orders/fulfilment-states.ts), every pair of states for
// every method: what is allowed is listed here in full, so a change to the table shows up as a diff.

const METHODS: (DeliveryMethod | null)[] = ["delivery", "pickup", null];
const FROM: (FulfilmentState | null)[] = [null, ...FULFILMENT_STATES];

const ALLOWED = new Set([
  "delivery: (to prepare) → shipped",
  "delivery: shipped → delivered",
  "pickup: (to prepare) → ready_for_pickup",
  "pickup: ready_for_pickup → collected",
  "none: (to prepare) → shipped",
  "none: (to prepare) → ready_for_pickup",
  "none: shipped → delivered",
  "none: ready_for_pickup → collected",
]);

const name = (method: DeliveryMethod | null, from: FulfilmentState | null, to: FulfilmentState) =>
  `${method ?? "none"}: ${from ?? "(to prepare)"} → ${to}`;

describe("canFulfil", () => {
  for (const method of METHODS)
    for (const from of FROM)
      for (const to of FULFILMENT_STATES)
        it(name(method, from, to), () => {
          expect(canFulfil(from, to, method)).toBe(ALLOWED.has(name(method, from, to)));
        });
});

describe("nextFulfilmentStates", () => {
  it("offers the allowed steps only, none after the last", () => {
    expect(nextFulfilmentStates(null, "delivery")).toEqual(["shipped"]);
    expect(nextFulfilmentStates(null, "pickup")).toEqual(["ready_for_pickup"]);
    expect(nextFulfilmentStates(null, null)).toEqual(["shipped", "ready_for_pickup"]);
    expect(nextFulfilmentStates("shipped", null)).toEqual(["delivered"]);
    expect(nextFulfilmentStates("ready_for_pickup", "pickup")).toEqual(["collected"]);
    for (const method of METHODS) {
      expect(nextFulfilmentStates("delivered", method)).toEqual([]);
      expect(nextFulfilmentStates("collected", method)).toEqual([]);
    }
  });
});

describe("fulfilmentPath", () => {
  it("is a delivery's steps or a pickup's, by method or, without one, by the first step taken", () => {
    expect(fulfilmentPath("delivery", null)).toEqual(["shipped", "delivered"]);
    expect(fulfilmentPath("pickup", null)).toEqual(["ready_for_pickup", "collected"]);
    expect(fulfilmentPath(null, null)).toEqual(["shipped", "delivered"]);
    expect(fulfilmentPath(null, "ready_for_pickup")).toEqual(["ready_for_pickup", "collected"]);
    expect(fulfilmentPath(null, "delivered")).toEqual(["shipped", "delivered"]);
  });
});
