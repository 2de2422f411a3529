import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { randomCredentials } from "../src/credentials.js";
import { startTestSandbox } from "../src/testing.js";

// The dataFile option: the store survives a restart of the sandbox.

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "pay-sandbox-"));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

describe("dataFile", () => {
  it("keeps orders, their status and valid tokens across a restart", async () => {
    const dataFile = join(directory, "nested", "state.json");
    const credentials = randomCredentials();
    const first = await startTestSandbox({ credentials, dataFile });
    const token = await first.accessToken();
    const body = first.orderBody();
    const created = await first.createOrder(token, body);
    await first.control("POST", `/orders/${body.externalTransactionId}/confirm`);
    await first.close();

    const second = await startTestSandbox({ credentials, dataFile });
    try {
      const query = {
        externalTransactionId: body.externalTransactionId as string,
        applicationUUID: second.applicationUUID,
      };
      const status = await second.paymentStatus(token, query);
      expect(status.status).toBe(200);
      expect(status.body.data).toMatchObject({
        referenceNumber: created.body.data.referenceNumber,
        paymentStatus: "CON",
      });
      // Idempotency holds across the restart too.
      expect((await second.createOrder(token, body)).body.data.referenceNumber).toBe(created.body.data.referenceNumber);
    } finally {
      await second.close();
    }
  });

  it("keeps the payment method, reference, entity, expiry and cancel reason; not the deliveries", async () => {
    const dataFile = join(directory, "state.json");
    const credentials = randomCredentials();
    const first = await startTestSandbox({ credentials, dataFile });
    const token = await first.accessToken();
    const pendingBody = first.orderBody();
    const expiredBody = first.orderBody();
    await first.createOrder(token, pendingBody);
    await first.createOrder(token, expiredBody);
    const pending = (await first.control("POST", `/orders/${pendingBody.externalTransactionId}/pending`)).body.order;
    await first.control("POST", `/orders/${expiredBody.externalTransactionId}/expire`);
    expect(await first.deliveries()).toHaveLength(2);
    await first.close();

    const second = await startTestSandbox({ credentials, dataFile });
    try {
      const orders = (await second.control("GET", "/orders")).body.orders;
      expect(orders[0]).toEqual(pending);
      expect(orders[0]).toMatchObject({ paymentMethod: "FPSOLPGEXT", referenceExpiresAt: expect.any(String) });
      expect(orders[1]).toMatchObject({ status: "CAN", cancelReason: "expired" });
      expect(await second.deliveries()).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it("stores tokens only as digests", async () => {
    const dataFile = join(directory, "state.json");
    const sandbox = await startTestSandbox({ dataFile });
    const token = await sandbox.accessToken();
    await sandbox.close();
    const saved = await readFile(dataFile, "utf8");
    expect(saved).not.toContain(token);
    expect(JSON.parse(saved).tokens).toEqual([
      { digest: expect.stringMatching(/^[0-9a-f]{64}$/), expiresAt: expect.any(Number) },
    ]);
  });

  it("saves a reset, so a restart after it starts empty", async () => {
    const dataFile = join(directory, "state.json");
    const credentials = randomCredentials();
    const first = await startTestSandbox({ credentials, dataFile });
    await first.createOrder(await first.accessToken(), first.orderBody());
    await first.control("POST", "/reset");
    await first.close();
    const second = await startTestSandbox({ credentials, dataFile });
    expect((await second.control("GET", "/orders")).body.orders).toEqual([]);
    await second.close();
  });

  it.each([
    ["not JSON", "{"],
    ["of another shape", JSON.stringify({ version: 1, orders: "none" })],
  ])("refuses to start from a state file that is %s, naming the file", async (_, content) => {
    const dataFile = join(directory, "state.json");
    await writeFile(dataFile, content);
    await expect(startTestSandbox({ dataFile })).rejects.toThrow(dataFile);
  });
});
