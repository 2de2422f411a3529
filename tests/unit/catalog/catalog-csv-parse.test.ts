import { describe, expect, it } from "vitest";
import { sortProblems } from "@/lib/catalog/csv/format";
import { parseCatalogCsv } from "@/lib/catalog/csv/parse";

// The catalogue CSV's parsing of products with options (lib/catalog/csv/parse.ts: no database):
// lines sharing a slug are one product, its options' values in the order they first appear.

const HEADER =
  "slug,name,description,price_aoa,stock,images,image_alts,option1_name,option1_value,option2_name,option2_value,sku";
const parse = (...lines: string[]) => parseCatalogCsv(new TextEncoder().encode([HEADER, ...lines].join("\n")));
const problems = (...lines: string[]) =>
  sortProblems(parse(...lines).problems).map(({ line, column, code, value }) => ({ line, column, code, value }));

describe("a product with options", () => {
  it("is one product of its lines: options in order of appearance, a variant per line", () => {
    const parsed = parse(
      "camisa,Camisa,Linho.,9000,5,/products/c.svg,Camisa,Tamanho,M,Cor,Azul,CM-1",
      "camisa,,,9500,0,,,Tamanho,G,Cor,Azul,",
      "camisa,Camisa,,9000,2,,,Tamanho,M,Cor,Branco,CM-3",
      "mel,Mel,Puro.,4500,25,,,,,,,",
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.rows).toBe(4);
    expect(parsed.optionColumns).toBe(true);
    expect(parsed.products).toHaveLength(2);
    const [camisa, mel] = parsed.products;
    expect(camisa).toMatchObject({
      line: 2,
      valid: true,
      slug: "camisa",
      name: "Camisa",
      options: [
        { name: "Tamanho", values: ["M", "G"] },
        { name: "Cor", values: ["Azul", "Branco"] },
      ],
      variants: [
        { line: 2, options: { Tamanho: "M", Cor: "Azul" }, priceAoa: 9000, stock: 5, sku: "CM-1" },
        { line: 3, options: { Tamanho: "G", Cor: "Azul" }, priceAoa: 9500, stock: 0, sku: null },
        { line: 4, options: { Tamanho: "M", Cor: "Branco" }, priceAoa: 9000, stock: 2, sku: "CM-3" },
      ],
    });
    expect(mel).toMatchObject({ options: [], variants: [{ options: {}, priceAoa: 4500, stock: 25, sku: null }] });
  });

  it("refuses contradictions, gaps, repeated names, combinations and SKUs, by line and column", () => {
    expect(
      problems(
        "camisa,Camisa,Linho.,9000,5,/products/c.svg,Camisa,Tamanho,M,Cor,Azul,CM-1",
        "camisa,Camisola,Lã.,9000,5,,,Tamanho,G,Cor,Azul,CM-1",
        "camisa,,,9000,5,,,Tamanho,M,Cor,Azul,",
        "camisa,,,9000,5,,,Cor,M,Tamanho,Azul,",
        "camisa,,,9000,5,,,Tamanho,M,,,",
        "outra,Outra,X.,100,1,/products/o.svg,O,,,Cor,Azul,",
        "mais,Mais,X.,100,1,/products/m.svg,M,Cor,Azul,cor,Verde,",
        'mais-uma,Mais uma,X.,100,1,/products/m.svg,M,Cor,"A,B",,,sku com espaço',
        "mel,Mel,Puro.,4500,25,,,,,,,",
        "mel,Mel,Puro.,4500,25,,,,,,,",
      ),
    ).toEqual([
      { line: 3, column: "name", code: "product_column_differs", value: "2" },
      { line: 3, column: "description", code: "product_column_differs", value: "2" },
      { line: 3, column: "sku", code: "duplicate_sku", value: "2" },
      { line: 4, column: "option1_value", code: "duplicate_combination", value: "2" },
      { line: 5, column: "option1_name", code: "option_names_differ", value: "2" },
      { line: 6, column: "option2_name", code: "option_names_differ", value: "2" },
      { line: 7, column: "option1_name", code: "option_gap", value: undefined },
      { line: 8, column: "option2_name", code: "option_name_twice", value: "cor" },
      { line: 9, column: "option1_value", code: "option_text", value: undefined },
      { line: 9, column: "sku", code: "sku_format", value: undefined },
      { line: 11, column: "slug", code: "duplicate_slug", value: "10" },
    ]);
  });

  it("refuses an option name without a value, and a header with half an option", () => {
    expect(problems("camisa,Camisa,Linho.,9000,5,/products/c.svg,Camisa,Tamanho,,,,")).toEqual([
      { line: 2, column: "option1_value", code: "required", value: undefined },
    ]);
    const half = parseCatalogCsv(new TextEncoder().encode("slug,name,description,price_aoa,stock,option1_name\n"));
    expect(half.problems.map(({ line, column, code }) => ({ line, column, code }))).toEqual([
      { line: 1, column: "option1_value", code: "missing_column" },
    ]);
  });

  it("refuses more than 250 combinations", () => {
    const lines = Array.from({ length: 16 }, (_, a) =>
      Array.from({ length: 16 }, (_, b) => `grande,Grande,X.,100,1,/products/g.svg,G,A,a${a},B,b${b},`),
    ).flat();
    expect(problems(...lines)).toEqual([
      { line: 2, column: "option1_value", code: "too_many_variants", value: undefined },
    ]);
  });
});
