import { describe, expect, it } from "vitest";
import { MAX_SAVED_ADDRESSES, SAVED_ADDRESS_FIELDS, savedAddressSchema } from "@/lib/accounts/address-rules";
import { ADDRESS_LIMITS, deliveryAddressSchema } from "@/lib/checkout/checkout-rules";

// A saved address is the checkout's delivery address: what one takes the other takes, so an
// address saved on /account always fills a checkout that goes through.

const address = {
  province: "Luanda",
  municipality: "Talatona",
  neighbourhood: "Camama",
  street: "Rua 5, casa 12",
  reference: "Ao lado da escola",
};

describe("savedAddressSchema", () => {
  it("takes an address in the shop's shape, trimmed", () => {
    expect(savedAddressSchema.parse({ ...address, street: "  Rua 5, casa 12 " })).toEqual(address);
  });

  it("keeps ten addresses at most", () => {
    expect(MAX_SAVED_ADDRESSES).toBe(10);
  });

  it("names the fields of the checkout's address", () => {
    expect(SAVED_ADDRESS_FIELDS).toEqual(["province", "municipality", "neighbourhood", "street", "reference"]);
  });

  it.each([
    ["a missing part", { ...address, province: undefined }, "province", "is missing"],
    ["an empty part", { ...address, municipality: "   " }, "municipality", "is empty"],
    ["no reference point", { ...address, reference: "" }, "reference", "is empty"],
    [
      "a street longer than the checkout's",
      { ...address, street: "x".repeat(ADDRESS_LIMITS.street + 1) },
      "street",
      `is longer than ${ADDRESS_LIMITS.street} characters`,
    ],
    ["a NUL character", { ...address, neighbourhood: "Cam\u0000ama" }, "neighbourhood", "NUL"],
    ["a number for a text", { ...address, street: 12 }, "street", ""],
  ])("refuses %s, naming the part", (_name, input, field, message) => {
    const parsed = savedAddressSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual([field]);
    expect(parsed.error?.issues[0]?.message).toContain(message);
  });

  it("refuses what the checkout refuses, and takes what it takes", () => {
    const cases = [
      address,
      { ...address, reference: "" },
      { ...address, province: "P".repeat(ADDRESS_LIMITS.province) },
      { ...address, province: "P".repeat(ADDRESS_LIMITS.province + 1) },
      { ...address, street: undefined },
    ];
    for (const input of cases)
      expect(savedAddressSchema.safeParse(input).success, JSON.stringify(input)).toBe(
        deliveryAddressSchema.safeParse(input).success,
      );
  });
});
