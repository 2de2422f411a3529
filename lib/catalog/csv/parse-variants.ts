import { skuSchema } from "../variant-rules";
import { optionsKey, VARIANT_LIMITS, type VariantOptions } from "../variants";
import { OPTION_COLUMNS, problem, type CsvColumn, type CsvProblem } from "./format";

/**
 * A catalog CSV line's variant: its options (option1 to option3, names and values), its SKU
 * unique in the file, and its combination unique in its product.
 */

/** One line of a product: a variant, its combination (`{}` for a product without options). */
export interface CsvVariant {
  line: number;
  options: VariantOptions;
  priceAoa: number;
  stock: number;
  /** null when the cell is empty (or the column absent): a variant keeps its SKU, a new one has none. */
  sku: string | null;
}

/** An option's name or value, as lib/catalog/variants.ts' optionDefinitionsSchema takes them. */
const optionText = (value: string, max: number) => value.length <= max && !/[\u0000-\u001f\u007f,]/.test(value);

/**
 * A line's options, from option1 on; null when one of them has a problem (answered here). A
 * product without options has none: [].
 */
export function parseOptions(
  line: number,
  cell: (column: CsvColumn) => string,
  problems: CsvProblem[],
): { name: string; value: string }[] | null {
  const pairs = OPTION_COLUMNS.map(([name, value]) => ({ name: cell(name), value: cell(value) }));
  const last = pairs.findLastIndex((pair) => pair.name !== "" || pair.value !== "");
  const before = problems.length;
  const options: { name: string; value: string }[] = [];
  for (let i = 0; i <= last; i++) {
    const [nameColumn, valueColumn] = OPTION_COLUMNS[i]!;
    const { name, value } = pairs[i]!;
    if (name === "" && value === "") {
      problems.push(problem(line, nameColumn, "option_gap"));
      continue;
    }
    if (name === "") problems.push(problem(line, nameColumn, "required"));
    else if (!optionText(name, VARIANT_LIMITS.nameMax)) problems.push(problem(line, nameColumn, "option_text"));
    else if (options.some((option) => option.name.toLowerCase() === name.toLowerCase()))
      problems.push(problem(line, nameColumn, "option_name_twice", name));
    if (value === "") problems.push(problem(line, valueColumn, "required"));
    else if (!optionText(value, VARIANT_LIMITS.valueMax)) problems.push(problem(line, valueColumn, "option_text"));
    options.push({ name, value });
  }
  return problems.length === before ? options : null;
}

/** The line's SKU (null: none written), unique in the file. */
export function parseSku(
  line: number,
  raw: string,
  lineOfSku: Map<string, number>,
  problems: CsvProblem[],
): string | null {
  const parsed = skuSchema.safeParse(raw);
  if (!parsed.success) {
    problems.push(problem(line, "sku", "sku_format"));
    return null;
  }
  if (parsed.data === null) return null;
  const other = lineOfSku.get(parsed.data);
  if (other !== undefined) problems.push(problem(line, "sku", "duplicate_sku", other));
  else lineOfSku.set(parsed.data, line);
  return parsed.data;
}

/** Adds a line's combination to its product's: each once, its values to the options' lists. */
export function addCombination(
  group: { names: string[] | null; values: string[][]; lineOfCombination: Map<string, number> },
  variant: CsvVariant,
  problems: CsvProblem[],
) {
  const key = optionsKey(variant.options);
  const other = group.lineOfCombination.get(key);
  if (other !== undefined) {
    problems.push(problem(variant.line, OPTION_COLUMNS[0][1], "duplicate_combination", other));
    return;
  }
  group.lineOfCombination.set(key, variant.line);
  // By the names' order: an object's keys that look like numbers would come first.
  (group.names ?? []).forEach((name, i) => {
    const value = variant.options[name]!;
    const list = (group.values[i] ??= []);
    if (!list.includes(value)) list.push(value);
  });
}
