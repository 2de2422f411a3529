// @vitest-environment node
import { expect, it } from "vitest";
import { loadPaySdk } from "@/lib/pay/sdk/loader";

it("on the server (no window, no document) rejects with a clear error and defines nothing", async () => {
  await expect(loadPaySdk("https://sdk.pay.test/sdks/v1/pay.js")).rejects.toThrow(
    "the pay SDK (https://sdk.pay.test/sdks/v1/pay.js) can only be loaded in a browser",
  );
  expect("window" in globalThis).toBe(false);
  expect("document" in globalThis).toBe(false);
});
