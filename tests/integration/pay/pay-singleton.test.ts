import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { payClient } from "@/lib/orders/pay-client";
import { suiteSandboxControl } from "../../../harness/support/sandbox";

// The app's one client, configured from the environment alone (lib/env.ts), against the suite's sandbox.

describe("payClient()", () => {
  it("is one instance, configured from PAY_ variables, sharing one token", async () => {
    expect(payClient()).toBe(payClient());
    const externalTransactionId = `order_${randomUUID()}`;
    const { referenceNumber } = await payClient().createPaymentOrder({
      externalTransactionId,
      clientId: "shopper_singleton",
      name: "Mel do Huambo 500 g",
      amountAoa: 4_500,
      image: "http://localhost:3000/products/mel.svg",
      additionalInfo: "1 artigo",
    });
    expect(referenceNumber).toMatch(/\S/);
    expect(await payClient().paymentByExternalTransaction(externalTransactionId)).toMatchObject({
      found: true,
      status: "PEN",
    });

    const requests = await suiteSandboxControl().requests();
    const mine = requests.filter(
      (r) => r.body.includes(externalTransactionId) || r.query.externalTransactionId === externalTransactionId,
    );
    expect(mine.map((r) => r.path)).toEqual([
      "/paypartner/createPaymentOrder",
      "/paypartner/paymentByExternalTransaction",
    ]);
    const applicationUUID = inject("payCredentials").publishableKey.replace(/^pk_test_/, "");
    expect(JSON.parse(mine[0]!.body)).toMatchObject({ applicationUUID, amount: 4_500, quantity: 1 });
    expect(new Set(mine.map((r) => r.headers.authorization)).size).toBe(1);
  });
});
