import { describe, expectTypeOf, it } from "vitest";
import type * as Sandbox from "pay-sandbox/sdk";
import type * as Shop from "@/lib/pay/sdk/types";

// The browser SDK's types are written twice on purpose: the shop's (lib/pay/sdk/types.ts, what
// the PayButton relies on) and the sandbox package's (pay-sandbox/sdk, what its SDK implements
// and ships), because the running shop imports nothing from packages/. They must stay the same
// types: `npm test`'s type check (tsc) fails here the moment one drifts from the other.

describe("the browser SDK's types", () => {
  it("are the same in the shop and in the sandbox package", () => {
    expectTypeOf<Shop.PayGlobal>().toEqualTypeOf<Sandbox.PayGlobal>();
    expectTypeOf<Shop.PaySdk>().toEqualTypeOf<Sandbox.PaySdk>();
    expectTypeOf<Shop.PayButtonConfig>().toEqualTypeOf<Sandbox.PayButtonConfig>();
    expectTypeOf<Shop.PayButtonOptions>().toEqualTypeOf<Sandbox.PayButtonOptions>();
    expectTypeOf<Shop.PayCallbackData>().toEqualTypeOf<Sandbox.PayCallbackData>();
    expectTypeOf<Shop.PayCallbackActions>().toEqualTypeOf<Sandbox.PayCallbackActions>();
    expectTypeOf<Shop.PaymentReferenceItem>().toEqualTypeOf<Sandbox.PaymentReferenceItem>();
    expectTypeOf<Shop.PayCustomerInfo>().toEqualTypeOf<Sandbox.PayCustomerInfo>();
    expectTypeOf<Shop.PaymentMethodCode>().toEqualTypeOf<Sandbox.PaymentMethodCode>();
  });
});
