import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { saveAddress } from "@/lib/accounts/addresses";
import { deleteShopper, shopperProfile, updateShopperProfile } from "@/lib/accounts/shopper-profile";
import { db } from "@/lib/db/client";
import { newExternalTransactionId } from "../../../harness/support/orders";
import { insertTestShopper } from "../../../harness/support/shoppers";

// What an account keeps besides its phone (lib/accounts/shopper-profile.ts), under the checkout's
// rules, and deleting it: the account, its sessions, logins, addresses and pending codes go; the
// orders its phone placed stay. Against the suite's real database; each test has an account of its own.

describe("updateShopperProfile", () => {
  it("sets the name, e-mail and NIF as the checkout stores them, and reads them back", async () => {
    const shopper = await insertTestShopper(db());
    const result = await updateShopperProfile(db(), shopper.id, {
      name: "  Ana Silva ",
      email: " ana@exemplo.ao ",
      nif: "001234567 la 042",
    });
    const profile = {
      phoneNumber: shopper.phoneNumber,
      name: "Ana Silva",
      contactEmail: "ana@exemplo.ao",
      nif: "001234567LA042",
    };
    expect(result).toEqual({ ok: true, profile });
    expect(await shopperProfile(db(), shopper.id)).toEqual(profile);
    // The e-mail better-auth requires is not the shopper's own: left alone.
    expect((await db().shopper.findUniqueOrThrow({ where: { id: shopper.id } })).email).toBe(shopper.email);
  });

  it("changes only the fields given, and clears a field given empty or null", async () => {
    const shopper = await insertTestShopper(db());
    await updateShopperProfile(db(), shopper.id, { name: "Ana", email: "ana@exemplo.ao", nif: "5000767115" });

    expect(await updateShopperProfile(db(), shopper.id, { email: "nova@exemplo.ao" })).toMatchObject({
      profile: { name: "Ana", contactEmail: "nova@exemplo.ao", nif: "5000767115" },
    });
    expect(await updateShopperProfile(db(), shopper.id, { nif: "", email: null })).toMatchObject({
      profile: { name: "Ana", contactEmail: null, nif: null },
    });
    expect(await updateShopperProfile(db(), shopper.id, { name: "   " })).toMatchObject({
      profile: { name: "", contactEmail: null, nif: null },
    });
    expect(await updateShopperProfile(db(), shopper.id, {})).toMatchObject({ ok: true, profile: { name: "" } });
  });

  it.each([
    ["a name with a phone number", { name: "Ana 923 456 789" }, "name"],
    ["a name with a web address", { name: "Ana www.premio.ao" }, "name"],
    ["a name too long", { name: "A".repeat(101) }, "name"],
    ["an e-mail that is not one", { email: "ana@" }, "email"],
    ["a NIF of neither form", { nif: "12345" }, "nif"],
    ["a NIF too long", { nif: "1".repeat(21) }, "nif"],
    ["a name that is not text", { name: 42 }, "name"],
  ])("refuses %s with a 400 naming the field, changing nothing", async (_name, input, field) => {
    const shopper = await insertTestShopper(db());
    await updateShopperProfile(db(), shopper.id, { name: "Ana", nif: "5000767115" });
    expect(await updateShopperProfile(db(), shopper.id, { email: "x@exemplo.ao", ...input })).toMatchObject({
      ok: false,
      status: 400,
      code: "invalid_input",
      field,
    });
    expect(await shopperProfile(db(), shopper.id)).toMatchObject({
      name: "Ana",
      contactEmail: null,
      nif: "5000767115",
    });
  });

  it("answers an account that is gone with not_found", async () => {
    expect(await updateShopperProfile(db(), randomUUID(), { name: "Ana" })).toMatchObject({
      ok: false,
      status: 404,
      code: "not_found",
    });
    expect(await shopperProfile(db(), randomUUID())).toBeNull();
  });
});

describe("deleteShopper", () => {
  it("deletes the account, its sessions, logins, addresses, pending codes and the codes sent to it; its orders stay", async () => {
    const shopper = await insertTestShopper(db());
    const other = await insertTestShopper(db());
    const phone = shopper.phoneNumber!;
    const now = Date.now();
    for (const [id, owner] of [
      [randomUUID(), shopper.id],
      [randomUUID(), shopper.id],
      [randomUUID(), other.id],
    ] as const)
      await db().shopperSession.create({
        data: { id, shopperId: owner, token: randomUUID(), expiresAt: new Date(now + 86_400_000) },
      });
    await db().shopperLogin.create({
      data: { id: randomUUID(), shopperId: shopper.id, accountId: shopper.id, providerId: "phone" },
    });
    await saveAddress(db(), shopper.id, {
      province: "Luanda",
      municipality: "Talatona",
      neighbourhood: "Camama",
      street: "Rua 5",
      reference: "Escola",
    });
    const expiresAt = new Date(now + 300_000);
    await db().shopperVerification.createMany({
      data: [
        { id: randomUUID(), identifier: `phone-number-otp-${phone}`, value: "123456:0", expiresAt },
        { id: randomUUID(), identifier: `phone-number-otp-${other.phoneNumber}`, value: "654321:0", expiresAt },
      ],
    });
    const order = await db().order.create({
      data: {
        externalTransactionId: newExternalTransactionId(),
        amountAoa: 4_500,
        clientId: `shopper_${randomUUID()}`,
        customerName: "Ana",
        customerPhone: `+244 ${phone}`,
      },
    });
    const sentCode = (recipient: string) => ({
      recipient,
      channel: "sms",
      purpose: "sign-in-code",
      body: "123456 é o seu código",
      provider: "outbox",
      status: "sent",
    });
    await db().message.createMany({ data: [sentCode(phone), sentCode(other.phoneNumber!)] });

    expect(await deleteShopper(db(), shopper.id)).toEqual({ ok: true });

    // The codes sent to its phone go with it; another phone's stay.
    expect(await db().message.count({ where: { recipient: phone } })).toBe(0);
    expect(await db().message.count({ where: { recipient: other.phoneNumber! } })).toBe(1);

    expect(await db().shopper.findUnique({ where: { id: shopper.id } })).toBeNull();
    expect(await db().shopperSession.count({ where: { shopperId: shopper.id } })).toBe(0);
    expect(await db().shopperLogin.count({ where: { shopperId: shopper.id } })).toBe(0);
    expect(await db().shopperAddress.count({ where: { shopperId: shopper.id } })).toBe(0);
    expect(await db().shopperVerification.count({ where: { identifier: `phone-number-otp-${phone}` } })).toBe(0);
    // The order is the shop's record: untouched, phone and all.
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id } })).toEqual(order);
    // Another account keeps everything.
    expect(await db().shopperSession.count({ where: { shopperId: other.id } })).toBe(1);
    expect(
      await db().shopperVerification.count({ where: { identifier: `phone-number-otp-${other.phoneNumber}` } }),
    ).toBe(1);

    expect(await deleteShopper(db(), shopper.id)).toMatchObject({ ok: false, status: 404, code: "not_found" });
  });
});
