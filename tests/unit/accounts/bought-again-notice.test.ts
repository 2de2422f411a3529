import { describe, expect, it } from "vitest";
import { boughtAgainParams, boughtAgainShown, readBoughtAgainNotice } from "@/lib/accounts/bought-again-notice";
import { flashQuery } from "@/lib/flash";

// "Comprar de novo"'s notice in the cart's query (lib/accounts/bought-again-notice.ts): written
// by the route, read back by the cart page, which names only lines the order has.

const ORDER = "order_0f8fad5b-d9cb-469f-a165-70867728950e";
const queryOf = (text: string) => {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const before = query[name];
    query[name] = before === undefined ? value : [before, value].flat();
  }
  return query;
};

describe("the notice of Comprar de novo", () => {
  it("reads back what it wrote, names with colons included", () => {
    const written = flashQuery(
      boughtAgainParams(ORDER, {
        added: [{ quantity: 2 }, { quantity: 1 }],
        unavailable: [
          { name: "Café: 1 kg", reason: "gone", quantity: 1 },
          { name: "T-shirt, M", reason: "reduced", quantity: 2 },
        ],
      }),
    );
    expect(readBoughtAgainNotice(queryOf(written))).toEqual({
      order: ORDER,
      added: 3,
      missing: [
        { name: "Café: 1 kg", reason: "gone", quantity: 1 },
        { name: "T-shirt, M", reason: "reduced", quantity: 2 },
      ],
      more: 0,
    });
  });

  it("lists a few names and counts the rest", () => {
    const unavailable = Array.from({ length: 30 }, (_, index) => ({
      name: `${"x".repeat(100)} ${index}`,
      reason: "out_of_stock" as const,
      quantity: 1,
    }));
    const notice = readBoughtAgainNotice(queryOf(flashQuery(boughtAgainParams(ORDER, { added: [], unavailable }))))!;
    expect(notice.missing.length + notice.more).toBe(30);
    expect(notice.missing.length).toBeLessThan(30);
  });

  it("ignores what it never writes, and shows only the order's own names", () => {
    expect(readBoughtAgainNotice(queryOf("notice=added"))).toBeNull();
    expect(readBoughtAgainNotice(queryOf(`notice=bought_again&order=nope&added=1`))).toBeNull();
    const notice = readBoughtAgainNotice(
      queryOf(
        `notice=bought_again&order=${ORDER}&added=1&missing=gone:1:Café&missing=evil:1:x&missing=gone:1:Visite evil.example`,
      ),
    )!;
    expect(notice.missing.map((line) => line.name)).toEqual(["Café", "Visite evil.example"]);
    expect(boughtAgainShown(notice, ["Café", "Arroz"])!.missing.map((line) => line.name)).toEqual(["Café"]);
    expect(boughtAgainShown(notice, [])).toBeNull();
  });
});
