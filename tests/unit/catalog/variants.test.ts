import { describe, expect, it } from "vitest";
import { optionDefinitionsSchema, skuSchema } from "@/lib/catalog/variant-rules";
import {
  combinations,
  findVariant,
  isCombinationOf,
  lineName,
  optionsKey,
  readVariantOptions,
  sameOptions,
  valueAvailability,
  variantTitle,
} from "@/lib/catalog/variants";

// lib/catalog/variants.ts: the pure model of products with options, which the server and the browser's
// option picker share; lib/catalog/variant-rules.ts: what the back office and the CSV accept.

const options = [
  { name: "Tamanho", values: ["P", "M", "G"] },
  { name: "Cor", values: ["Azul", "Branco"] },
];

describe("the model", () => {
  it("makes every combination, the first option slowest", () => {
    expect(combinations(options).map((values) => variantTitle(options, values))).toEqual([
      "P, Azul",
      "P, Branco",
      "M, Azul",
      "M, Branco",
      "G, Azul",
      "G, Branco",
    ]);
    expect(combinations([])).toEqual([{}]);
  });

  it("titles a variant in its product's option order, whatever the key order of its JSON", () => {
    expect(variantTitle(options, { Cor: "Branco", Tamanho: "M" })).toBe("M, Branco");
    expect(variantTitle([], {})).toBe("");
    expect(lineName("T-shirt Kianda", "M, Azul")).toBe("T-shirt Kianda, M, Azul");
    expect(lineName("Café", "")).toBe("Café");
  });

  it("reads a variant's options column as strings only", () => {
    expect(readVariantOptions({ Tamanho: "M", Cor: "Azul" })).toEqual({ Tamanho: "M", Cor: "Azul" });
    expect(readVariantOptions({ Tamanho: 3, Cor: "Azul" })).toEqual({ Cor: "Azul" });
    for (const odd of [null, "M", ["M"], 7]) expect(readVariantOptions(odd)).toEqual({});
  });

  it("compares combinations whatever their key order", () => {
    expect(sameOptions({ Tamanho: "M", Cor: "Azul" }, { Cor: "Azul", Tamanho: "M" })).toBe(true);
    expect(sameOptions({ Tamanho: "M" }, { Tamanho: "M", Cor: "Azul" })).toBe(false);
    expect(sameOptions({}, {})).toBe(true);
    expect(optionsKey({ Tamanho: "M", Cor: "Azul" })).toBe(optionsKey({ Cor: "Azul", Tamanho: "M" }));
    expect(isCombinationOf(options, { Tamanho: "M", Cor: "Azul" })).toBe(true);
    expect(isCombinationOf(options, { Tamanho: "M" })).toBe(false);
    expect(isCombinationOf(options, { Tamanho: "XL", Cor: "Azul" })).toBe(false);
  });
});

describe("the option picker", () => {
  const variants = [
    { id: "a", options: { Tamanho: "P", Cor: "Azul" }, stock: 2 },
    { id: "b", options: { Tamanho: "M", Cor: "Azul" }, stock: 0 },
    { id: "c", options: { Tamanho: "M", Cor: "Branco" }, stock: 4 },
  ];

  it("finds the variant by id or by a value of every option", () => {
    expect(findVariant(variants, { variantId: "c" })?.id).toBe("c");
    expect(findVariant(variants, { variantId: "zzz" })).toBeNull();
    expect(findVariant(variants, { options: { Cor: "Azul", Tamanho: "M" } })?.id).toBe("b");
    expect(findVariant(variants, { options: { Tamanho: "M" } })).toBeNull();
  });

  it("says what choosing a value would give, keeping the other choices", () => {
    const chosen = { Tamanho: "M", Cor: "Azul" };
    expect(valueAvailability(variants, options, chosen, "Tamanho", "P")).toBe("available");
    expect(valueAvailability(variants, options, chosen, "Tamanho", "M")).toBe("sold_out");
    expect(valueAvailability(variants, options, chosen, "Tamanho", "G")).toBe("missing");
    expect(valueAvailability(variants, options, chosen, "Cor", "Branco")).toBe("available");
    // With nothing else chosen, a value is available when any of its combinations is.
    expect(valueAvailability(variants, options, {}, "Tamanho", "M")).toBe("available");
  });
});

describe("what the back office and the CSV accept", () => {
  it("takes up to three options with unique names and values", () => {
    expect(optionDefinitionsSchema.parse([{ name: " Tamanho ", values: ["P", " M "] }])).toEqual([
      { name: "Tamanho", values: ["P", "M"] },
    ]);
    const refused = [
      [
        { name: "A", values: ["1"] },
        { name: "B", values: ["1"] },
        { name: "C", values: ["1"] },
        { name: "D", values: ["1"] },
      ],
      [
        { name: "Cor", values: ["Azul"] },
        { name: "cor", values: ["Branco"] },
      ],
      [{ name: "Cor", values: ["Azul", "Azul"] }],
      [{ name: "Cor", values: [] }],
      [{ name: "Cor", values: ["Azul, escuro"] }],
      [{ name: "Cor\u0000", values: ["Azul"] }],
      [{ name: "", values: ["Azul"] }],
      // 7 × 6 × 6 = 252 combinations.
      [
        { name: "A", values: ["1", "2", "3", "4", "5", "6", "7"] },
        { name: "B", values: ["1", "2", "3", "4", "5", "6"] },
        { name: "C", values: ["1", "2", "3", "4", "5", "6"] },
      ],
    ];
    for (const input of refused)
      expect(optionDefinitionsSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
  });

  it("takes a SKU of letters, digits and - _ . /, or none", () => {
    expect(skuSchema.parse(" PAL-CAM-M/PRT_1.2 ")).toBe("PAL-CAM-M/PRT_1.2");
    expect(skuSchema.parse("")).toBeNull();
    for (const sku of ["-X", "A B", "Ç1", "x".repeat(65)]) expect(skuSchema.safeParse(sku).success, sku).toBe(false);
  });
});
