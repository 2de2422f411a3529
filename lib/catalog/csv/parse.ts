import { parse } from "csv-parse/sync";
import type { z } from "zod";
import { VARIANT_LIMITS, type ProductOptionDefinition } from "../variants";
import {
  CSV_COLUMNS,
  CSV_LIMITS,
  OPTION_COLUMNS,
  REQUIRED_COLUMNS,
  problem,
  type CsvColumn,
  type CsvProblem,
} from "./format";
import {
  issueProblem,
  parseCategories,
  parseImages,
  rowSchema,
  variantRowSchema,
  type CategoryPath,
  type CsvImage,
} from "./parse-cells";
import { addCombination, parseOptions, parseSku, type CsvVariant } from "./parse-variants";
import { PLAIN_COLUMNS, plainValues, sameText, type PlainValues } from "./product-columns";

/**
 * The catalog CSV's bytes into products, without a database or a file system: UTF-8 with or
 * without a BOM, comma or semicolon (whichever the header line has more of: Excel in pt-AO writes
 * semicolons), csv-parse for the quoting. Every cell is checked and every problem kept, by line and
 * column; a line with a problem is marked so and never written. What needs the database
 * (categories by name, the shop's images, whether a slug is new) is ./import-plan.ts's.
 */

/** Its plain columns' values (./product-columns.ts) come from its first line. */
export interface CsvProduct extends PlainValues {
  /** Where its first line's record starts in the file. */
  line: number;
  /**
   * False when one of its cells (on any of its lines) has a problem: the product is never written, but what it names
   * (categories, images, its slug) is still checked against the database, so that one answer
   * lists every problem. Its other fields are then meaningless.
   */
  valid: boolean;
  /** null when the slug itself is wrong. */
  slug: string | null;
  /** Its options with their values in the order they first appear; [] for a product without options. */
  options: ProductOptionDefinition[];
  /** One per line, in the file's order; a product without options has one, whose options are `{}`. */
  variants: CsvVariant[];
  /** null when the cell is empty (or the column absent): the product keeps the categories it has. Only the paths without a problem. */
  categories: CategoryPath[] | null;
  /** null when the cell is empty (or the column absent): the product keeps its gallery. Only the images named correctly. */
  images: CsvImage[] | null;
}

export interface ParsedCsv {
  products: CsvProduct[];
  problems: CsvProblem[];
  /** Lines in the file, valid or not. */
  rows: number;
  /**
   * Whether the header has the option columns. Without them, a file cannot say what a product with
   * options sells: its line is refused rather than read as "no options".
   */
  optionColumns: boolean;
}

/** A spreadsheet's apostrophe before =, +, -, @ (what the export's escape_formulas adds) is not part of the text. */
const FORMULA_ESCAPE = /^'(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/;

/** The delimiter the header line uses most: `;` or `,`. */
function detectDelimiter(text: string): ";" | "," {
  const end = text.search(/\r?\n/);
  const header = end === -1 ? text : text.slice(0, end);
  const count = (char: string) => header.split(char).length - 1;
  return count(";") > count(",") ? ";" : ",";
}

/** The line of the first byte that is not UTF-8. */
function firstInvalidLine(bytes: Uint8Array): number {
  const decoded = new TextDecoder("utf-8").decode(bytes);
  const at = decoded.indexOf("\uFFFD");
  return at === -1 ? 1 : decoded.slice(0, at).split("\n").length;
}

export function parseCatalogCsv(bytes: Uint8Array): ParsedCsv {
  const none = (problems: CsvProblem[]): ParsedCsv => ({ products: [], problems, rows: 0, optionColumns: false });
  if (bytes.byteLength > CSV_LIMITS.bytesMax) return none([problem(0, null, "file_too_large", CSV_LIMITS.bytesMax)]);
  let text: string;
  try {
    // Drops a BOM (Excel's "CSV UTF-8" writes one).
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return none([problem(firstInvalidLine(bytes), null, "not_utf8")]);
  }
  // PostgreSQL's text cannot hold it: refused here, never by the database.
  const nul = text.indexOf("\u0000");
  if (nul !== -1) return none([problem(text.slice(0, nul).split("\n").length, null, "nul_character")]);

  let records: { record: string[]; info: { lines: number } }[];
  const problems: CsvProblem[] = [];
  try {
    records = parse(text, {
      delimiter: detectDelimiter(text),
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as typeof records;
  } catch (error) {
    const { lines, message } = error as { lines?: number; message?: string };
    return none([problem(lines ?? 0, null, "malformed", message ?? String(error))]);
  }
  // A spreadsheet's empty rows come out as lines of separators only.
  const blank = (record: string[]) => record.every((cell) => cell.trim() === "");

  // Where each record starts: where it ends, less the line breaks inside its quoted cells.
  const starts = records.map(
    ({ record, info }) => info.lines - record.reduce((sum, cell) => sum + (cell.match(/\n/g)?.length ?? 0), 0),
  );

  const headerIndex = records.findIndex(({ record }) => !blank(record));
  const header = records[headerIndex];
  if (!header) return none([problem(1, null, "empty_file")]);
  const headerLine = starts[headerIndex]!;
  const names = header.record.map((name) => name.trim().toLowerCase());
  const index = new Map<CsvColumn, number>();
  names.forEach((name, position) => {
    const column = CSV_COLUMNS.find((known) => known === name);
    // A column without a name (a spreadsheet's stray cell past the last one) is not read.
    if (name === "") return;
    if (!column) problems.push(problem(headerLine, header.record[position]!.trim(), "unknown_column"));
    else if (index.has(column)) problems.push(problem(headerLine, column, "duplicate_column"));
    else index.set(column, position);
  });
  for (const column of REQUIRED_COLUMNS)
    if (!index.has(column)) problems.push(problem(headerLine, column, "missing_column"));
  if (index.has("image_alts") !== index.has("images"))
    problems.push(problem(headerLine, index.has("images") ? "image_alts" : "images", "missing_column"));
  for (const [name, value] of OPTION_COLUMNS)
    if (index.has(name) !== index.has(value))
      problems.push(problem(headerLine, index.has(name) ? value : name, "missing_column"));
  if (problems.length > 0) return none(problems);
  const optionColumns = OPTION_COLUMNS.some(([name]) => index.has(name));

  const rows = records.map((entry, position) => ({ ...entry, line: starts[position]! })).slice(headerIndex + 1);
  const dataRows = rows.filter(({ record }) => !blank(record));
  if (dataRows.length > CSV_LIMITS.rowsMax)
    return {
      products: [],
      problems: [problem(dataRows[CSV_LIMITS.rowsMax]!.line, null, "too_many_rows", CSV_LIMITS.rowsMax)],
      rows: dataRows.length,
      optionColumns,
    };

  const cell = (record: string[], column: CsvColumn) => {
    const position = index.get(column);
    const value = position === undefined ? "" : (record[position] ?? "");
    return value.replace(FORMULA_ESCAPE, "");
  };
  /** A product's lines so far, by slug. */
  interface Group {
    product: CsvProduct;
    /** Its first line's cells of the product's own columns, trimmed. */
    first: Record<(typeof FIRST_LINE_COLUMNS)[number], string>;
    /** Its first line's option names, when they are readable; null otherwise. */
    names: string[] | null;
    /** Each option's values, in the order they first appear. */
    values: string[][];
    lineOfCombination: Map<string, number>;
  }
  const groups = new Map<string, Group>();
  const lineOfSku = new Map<string, number>();
  const products: CsvProduct[] = [];
  for (const { record, line } of dataRows) {
    const before = problems.length;
    if (record.length !== names.length) {
      problems.push(problem(line, null, "field_count", record.length));
      continue;
    }
    const slugCell = cell(record, "slug").trim();
    const group = groups.get(slugCell);
    const fields = Object.fromEntries(
      Object.keys(rowSchema.shape).map((column) => [column, cell(record, column as CsvColumn)]),
    );
    // A product's other lines need not repeat its plain columns.
    const parsed = group ? variantRowSchema.safeParse(fields) : rowSchema.safeParse(fields);
    const badColumns = new Set<string>();
    for (const issue of parsed.error?.issues ?? []) {
      // One problem per column: the first zod found.
      const column = String(issue.path[0]);
      if (!badColumns.has(column)) problems.push(issueProblem(line, issue));
      badColumns.add(column);
    }
    const slug = badColumns.has("slug") ? null : slugCell;
    const options = parseOptions(line, (column) => cell(record, column).trim(), problems);
    const sku = parseSku(line, cell(record, "sku"), lineOfSku, problems);
    const variant: CsvVariant = {
      line,
      options: Object.fromEntries((options ?? []).map((option) => [option.name, option.value])),
      priceAoa: parsed.data?.price_aoa ?? 0,
      stock: parsed.data?.stock ?? 0,
      sku,
    };

    if (group) {
      const firstLine = group.product.line;
      const rowNames = options?.map((option) => option.name) ?? null;
      // Two lines of a product without options: the same product twice, whatever their cells say.
      if (group.names?.length === 0 && rowNames?.length === 0)
        problems.push(problem(line, "slug", "duplicate_slug", firstLine));
      else {
        for (const column of FIRST_LINE_COLUMNS) {
          const value = cell(record, column).trim();
          if (value !== "" && !sameText(value, group.first[column]))
            problems.push(problem(line, column, "product_column_differs", firstLine));
        }
        if (group.names && rowNames) {
          const differs = Math.max(group.names.length, rowNames.length);
          const at = Array.from({ length: differs }, (_, i) => i).find((i) => group.names![i] !== rowNames[i]);
          if (at !== undefined) problems.push(problem(line, OPTION_COLUMNS[at]![0], "option_names_differ", firstLine));
          else addCombination(group, variant, problems);
        }
      }
      group.product.variants.push(variant);
      if (problems.length > before) group.product.valid = false;
      continue;
    }

    const categories = parseCategories(line, cell(record, "categories").trim(), problems);
    const images = parseImages(line, cell(record, "images").trim(), cell(record, "image_alts").trim(), problems);
    const data = parsed.data as z.infer<typeof rowSchema> | undefined;
    const product: CsvProduct = {
      line,
      valid: problems.length === before,
      slug,
      ...plainValues(data),
      options: [],
      variants: [variant],
      categories,
      images,
    };
    products.push(product);
    if (slug === null) continue;
    const created: Group = {
      product,
      first: Object.fromEntries(
        FIRST_LINE_COLUMNS.map((column) => [column, cell(record, column).trim()]),
      ) as Group["first"],
      names: options?.map((option) => option.name) ?? null,
      values: [],
      lineOfCombination: new Map(),
    };
    addCombination(created, variant, problems);
    groups.set(slug, created);
  }

  // A product's options: its values in the order they appear, within the limits.
  for (const { product, names, values } of groups.values()) {
    if (!names || names.length === 0) continue;
    product.options = names.map((name, i) => ({ name, values: values[i]! }));
    const many = values.findIndex((list) => list.length > VARIANT_LIMITS.valuesPerOption);
    if (many !== -1) {
      problems.push(problem(product.line, OPTION_COLUMNS[many]![1], "too_many_values"));
      product.valid = false;
    } else if (values.reduce((count, list) => count * list.length, 1) > VARIANT_LIMITS.variantsMax) {
      problems.push(problem(product.line, OPTION_COLUMNS[0][1], "too_many_variants"));
      product.valid = false;
    }
  }
  return { products, problems, rows: dataRows.length, optionColumns };
}

/** The columns a product's first line gives, which its other lines leave empty or repeat, in the file's order. */
const FIRST_LINE_COLUMNS = CSV_COLUMNS.filter(
  (column) =>
    PLAIN_COLUMNS.some((plain) => plain.header === column) ||
    column === "categories" ||
    column === "images" ||
    column === "image_alts",
);
