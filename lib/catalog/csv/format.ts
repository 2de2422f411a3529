import { CATEGORY_LIMITS } from "../categories";
import { GALLERY_LIMITS } from "../gallery";
import { MAX_IMAGE_BYTES, MAX_INPUT_PIXELS } from "../images/validate";
import { VARIANT_LIMITS } from "../variants";
import { plainHeaders } from "./product-columns";

/**
 * The catalog's CSV: its columns, its limits, and every problem an import can answer, each by
 * line and column with a code the back office translates (lib/i18n, admin.catalogue.problems)
 * and an English message for the JSON API and the CLI.
 * No database and no file system here: the page imports it too.
 */

/** The product's plain columns (./product-columns.ts) sit after `slug`, or last when a file may leave them out. */
export const CSV_COLUMNS = [
  "slug",
  ...plainHeaders(true),
  "price_aoa",
  "stock",
  "categories",
  "images",
  "image_alts",
  "option1_name",
  "option1_value",
  "option2_name",
  "option2_value",
  "option3_name",
  "option3_value",
  "sku",
  ...plainHeaders(false),
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/**
 * A file without these is refused at its header; `categories`, `images`, `image_alts`, the option
 * columns (by pairs: `option<n>_name` with `option<n>_value`), `sku` and the optional plain
 * columns may be left out.
 */
export const REQUIRED_COLUMNS = ["slug", ...plainHeaders(true), "price_aoa", "stock"] as const satisfies CsvColumn[];

export const CSV_LIMITS = {
  /** What the upload route reads and the CLI accepts: a 20 000-row catalogue is about 4 MB. */
  bytesMax: 20 * 1024 * 1024,
  /** Lines per file (the header not counted): a product with options has one per variant. */
  rowsMax: 20_000,
} as const;

/** Between the paths of a cell (`categories`, `images`, `image_alts`). */
export const LIST_SEPARATOR = "|";
/** Between a category and its sub-category: `Mercearia > Café`. */
export const PATH_SEPARATOR = ">";
/** The stock adjustments an import writes say this (kind `initial` for a new variant, `edit` for a change). */
export const IMPORT_REASON = "CSV import";

/** The option columns, by option: `option1_name`/`option1_value`… */
export const OPTION_COLUMNS = [
  ["option1_name", "option1_value"],
  ["option2_name", "option2_value"],
  ["option3_name", "option3_value"],
] as const satisfies [CsvColumn, CsvColumn][];

export const PROBLEM_CODES = [
  // The file as a whole (line 0) or its header (line 1).
  "file_too_large",
  "not_utf8",
  "nul_character",
  "empty_file",
  "malformed",
  "missing_column",
  "unknown_column",
  "duplicate_column",
  "too_many_rows",
  // One line.
  "field_count",
  "required",
  "too_long",
  "slug_format",
  "duplicate_slug",
  "not_kwanza",
  "not_whole",
  "below_min",
  "above_max",
  "category_empty_name",
  "category_name_too_long",
  "category_too_deep",
  "category_unusable_name",
  "category_is_sub",
  "category_ambiguous",
  "image_empty_path",
  "image_url",
  "image_bad_path",
  "image_unknown",
  "image_file_not_allowed",
  "image_outside_folder",
  "image_not_found",
  "image_empty",
  "image_too_large",
  "image_too_many_pixels",
  "unsupported_image",
  "image_unreadable",
  "image_duplicate",
  "too_many_images",
  "alts_count",
  "alts_without_images",
  "alt_empty",
  "alt_too_long",
  // Products with options: one line per variant, sharing the slug.
  "product_column_differs",
  "option_gap",
  "option_text",
  "option_name_twice",
  "option_names_differ",
  "duplicate_combination",
  "too_many_values",
  "too_many_variants",
  "product_has_options",
  "sku_format",
  "duplicate_sku",
  "sku_taken",
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

/**
 * One thing wrong with the file: where (`line` as a text editor counts them, the header being 1,
 * 0 for the file as a whole; `column` as the header names it, null when the whole line is meant),
 * what (`code`, and `value`: the number, name or path the sentence needs) and in English.
 */
export interface CsvProblem {
  line: number;
  column: string | null;
  code: ProblemCode;
  value?: string;
  message: string;
}

/** The English sentence of each problem (the JSON API's and the CLI's). */
export function describeProblem(code: ProblemCode, value = ""): string {
  switch (code) {
    case "file_too_large":
      return `the file has more than ${value} bytes`;
    case "not_utf8":
      return "the file is not UTF-8 text (in Excel: Save as, CSV UTF-8)";
    case "nul_character":
      return "the file holds a NUL character, which no text of the shop can hold (is it really a CSV?)";
    case "empty_file":
      return `the file has no header line; the first line names the columns: ${CSV_COLUMNS.join(",")}`;
    case "malformed":
      return `the CSV cannot be read from here on: ${value}`;
    case "missing_column":
      return "this column is required in the header";
    case "unknown_column":
      return `is not a column of the catalogue CSV (${CSV_COLUMNS.join(", ")})`;
    case "duplicate_column":
      return "this column appears twice in the header";
    case "too_many_rows":
      return `a file has at most ${value} lines; split it`;
    case "field_count":
      return `the line has ${value} fields where the header has a different number (a missing or extra separator?)`;
    case "required":
      return "is required";
    case "too_long":
      return `must have at most ${value} characters`;
    case "slug_format":
      return "must be lower-case letters and digits joined by single hyphens";
    case "duplicate_slug":
      return `this slug is also on line ${value}; a product without options has one line (a product with options has one line per variant, each with its option columns)`;
    case "not_kwanza":
      return "must be a whole number of kwanza written with digits only (no spaces, dots, commas or decimals)";
    case "not_whole":
      return "must be a whole number written with digits only";
    case "below_min":
      return `must be at least ${value}`;
    case "above_max":
      return `must be at most ${value}`;
    case "category_empty_name":
      return "a category path has an empty name (write `Parent > Child`, paths separated by |)";
    case "category_name_too_long":
      return `the category name "${value}" has more than ${CATEGORY_LIMITS.nameMax} characters`;
    case "category_too_deep":
      return `"${value}" has more than two levels; categories have at most two (Parent > Child)`;
    case "category_unusable_name":
      return `the category name "${value}" needs at least one letter or digit`;
    case "category_is_sub":
      return `"${value}" is a sub-category: write it with its parent (Parent > Child)`;
    case "category_ambiguous":
      return `more than one category is called "${value}" (ignoring case and accents); rename one in the back office`;
    case "image_empty_path":
      return "an image path is empty (paths are separated by |)";
    case "image_url":
      return `"${value}" is an address on the internet; the import reads files, download it next to the CSV`;
    case "image_bad_path":
      return `"${value}" is not a shop path (/products/<file> or /api/images/<id>) nor a file inside the CSV's folder`;
    case "image_unknown":
      return `"${value}" names no image stored by the shop`;
    case "image_file_not_allowed":
      return `"${value}" is a file name: an upload can only name images the shop already serves (/products/… or /api/images/…); import files with npm run catalogue:import`;
    case "image_outside_folder":
      return `"${value}" is outside the CSV's folder`;
    case "image_not_found":
      return `the file "${value}" does not exist`;
    case "image_empty":
      return `the file "${value}" is empty`;
    case "image_too_large":
      return `the image "${value}" has more than ${MAX_IMAGE_BYTES} bytes (2 MB)`;
    case "image_too_many_pixels":
      return `the image "${value}" has more than ${MAX_INPUT_PIXELS} pixels`;
    case "unsupported_image":
      return `"${value}" is not a PNG, JPEG or WebP image`;
    case "image_unreadable":
      return `the image "${value}" could not be read (damaged or incomplete)`;
    case "image_duplicate":
      return `"${value}" is twice in this product's gallery`;
    case "too_many_images":
      return `a product has at most ${GALLERY_LIMITS.imagesMax} images`;
    case "alts_count":
      return `needs one text alternative per image, separated by | (${value} images)`;
    case "alts_without_images":
      return "text alternatives without images in the images column";
    case "alt_empty":
      return `the text alternative of image ${value} is empty`;
    case "alt_too_long":
      return `the text alternative of image ${value} has more than ${GALLERY_LIMITS.altMax} characters`;
    case "product_column_differs":
      return `differs from line ${value}, this product's first line: a product's columns are read from its first line and must be equal or empty on its other lines`;
    case "option_gap":
      return "is empty while a later option is set: options are filled from option1 on";
    case "option_text":
      return `must be 1 to ${VARIANT_LIMITS.nameMax} characters, without commas or control characters`;
    case "option_name_twice":
      return `the option "${value}" is named twice on this line`;
    case "option_names_differ":
      return `this product's options are not the ones of line ${value}: every line of a product names the same options in the same order`;
    case "duplicate_combination":
      return `this combination of values is also on line ${value}; each variant once`;
    case "too_many_values":
      return `an option has at most ${VARIANT_LIMITS.valuesPerOption} values`;
    case "too_many_variants":
      return `the options' values make more than ${VARIANT_LIMITS.variantsMax} combinations`;
    case "product_has_options":
      return "this product has options: the file needs the option columns (option1_name, option1_value…), one line per variant";
    case "sku_format":
      return `must be letters, digits and - _ . / only, at most ${VARIANT_LIMITS.skuMax} characters`;
    case "duplicate_sku":
      return `this SKU is also on line ${value}; each SKU once`;
    case "sku_taken":
      return `this SKU is another variant's (product ${value})`;
  }
}

export const problem = (
  line: number,
  column: string | null,
  code: ProblemCode,
  value?: string | number,
): CsvProblem => ({
  line,
  column,
  code,
  ...(value === undefined ? {} : { value: String(value) }),
  message: describeProblem(code, value === undefined ? undefined : String(value)),
});

/** By line, then in the columns' order. */
export function sortProblems(problems: CsvProblem[]): CsvProblem[] {
  const rank = (column: string | null) => {
    const index = CSV_COLUMNS.indexOf(column as CsvColumn);
    return column === null ? -1 : index === -1 ? CSV_COLUMNS.length : index;
  };
  return problems.sort((a, b) => a.line - b.line || rank(a.column) - rank(b.column));
}

/** What an import did, or would do in a dry run. */
export interface ImportSummary {
  /** Lines in the file (a product with options has one per variant). */
  rows: number;
  /** Products (not lines), from here to `archived`. */
  created: number;
  updated: number;
  unchanged: number;
  /** Lines of archived products: updated like the others, they stay archived. */
  archived: number;
  categoriesCreated: number;
  /** Image files stored (or to store) that the shop did not have. */
  imagesStored: number;
}

export const emptySummary = (): ImportSummary => ({
  rows: 0,
  created: 0,
  updated: 0,
  unchanged: 0,
  archived: 0,
  categoriesCreated: 0,
  imagesStored: 0,
});
