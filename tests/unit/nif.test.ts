import { describe, expect, it } from "vitest";
import { nifKind, normaliseNif } from "@/lib/nif";
import { customerSchema } from "@/lib/orders/customer-rules";

// An Angolan NIF's two forms (lib/nif.ts), as the checkout's schema and SHOP_NIF take them.

describe("nifKind", () => {
  it.each([
    ["001234567LA042", "person"],
    ["000238553CA017", "person"],
    ["5000767115", "company"],
    ["7401234567", "company"],
  ])("%s is a %s's", (nif, kind) => {
    expect(nifKind(nif)).toBe(kind);
  });

  it.each(["", "500076711", "50007671150", "001234567LA04", "001234567L1042", "00123456LAA042", "001234567la042"])(
    "%j is neither",
    (nif) => {
      expect(nifKind(nif)).toBeNull();
    },
  );
});

describe("normaliseNif", () => {
  it("drops spaces, dots and dashes, and writes letters in upper case", () => {
    expect(normaliseNif(" 001234567 la-042 ")).toBe("001234567LA042");
    expect(normaliseNif("500.002.85-50")).toBe("5000028550");
  });
});

describe("the checkout's customer.nif", () => {
  const parse = (nif: string | undefined) =>
    customerSchema.safeParse({ name: "Ana", phone: "+244 923 456 789", ...(nif === undefined ? {} : { nif }) });

  it("is optional, and empty is none", () => {
    for (const nif of [undefined, "", "  ", " - "]) {
      const parsed = parse(nif);
      expect(parsed.success).toBe(true);
      expect(parsed.data?.nif).toBeUndefined();
    }
  });

  it("is kept normalised", () => {
    expect(parse("500 002 85 50").data?.nif).toBe("5000028550");
  });

  it("refuses anything else, on the nif path", () => {
    const parsed = parse("12345");
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([["nif"]]);
  });
});
