import { z } from "zod";
import { PRODUCT_LIMITS } from "../product-rules";

/**
 * The catalog CSV's plain product columns, each listed once: a cell that is one of the product's
 * own columns as it is, given on the product's first line. The parse, the import's plan and
 * writes, and the export derive from this table; slug, price, stock, categories, images, options
 * and sku have their own handling. No database here: the page's format module imports it.
 */

/** A cell of text: trimmed, not empty, at most `max` characters. */
export const textCell = (max: number) => z.string().trim().min(1).max(max);

/** A cell of a whole number written with digits only. */
export const wholeCell = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .regex(/^[0-9]+$/)
    .transform(Number)
    .pipe(z.number().min(min).max(max));

/** Texts compared as a spreadsheet keeps them: its \n for the form's \r\n is no change. */
export const sameText = (a: string, b: string) => a.replace(/\r\n?/g, "\n") === b.replace(/\r\n?/g, "\n");

interface PlainColumn<Header extends string, Key extends string, Value> {
  /** The column's name in the CSV's header. */
  header: Header;
  /** The product's field (Prisma's, and the import's and the export's name for the value). */
  key: Key;
  /** The column of `products` and the type of the unnest array that writes it: constants, never input. */
  sql: string;
  sqlType: "text" | "int";
  /**
   * A file must have it (it comes right after `slug`), or may leave it out: then it comes after
   * every other column, so that the files made before it keep their columns' places.
   */
  required: boolean;
  /** The cell's text into the value; an optional column's empty cell is null: the product keeps its value. */
  cell: z.ZodType<Value, string>;
  /** The problem of a cell zod finds in the wrong format (a length or a range has its own); "required" when absent. */
  notValue?: "not_whole";
  /** The value as the export writes it. */
  toCell: (value: Value) => string | number;
  /** Whether the file's value is what the product has (an unchanged product is not written). */
  same: (current: Value, next: Value) => boolean;
}

const plainColumn = <const Header extends string, const Key extends string, Value>(
  column: PlainColumn<Header, Key, Value>,
) => column;

/** In the file's order of columns. */
export const PLAIN_COLUMNS = [
  plainColumn({
    header: "name",
    key: "name",
    sql: "name",
    sqlType: "text",
    required: true,
    cell: textCell(PRODUCT_LIMITS.nameMax),
    toCell: (value) => value,
    same: (current, next) => current === next,
  }),
  plainColumn({
    header: "description",
    key: "description",
    sql: "description",
    sqlType: "text",
    required: true,
    cell: textCell(PRODUCT_LIMITS.descriptionMax),
    toCell: (value) => value,
    same: sameText,
  }),
] as const;

type Plain = (typeof PLAIN_COLUMNS)[number];
export type PlainHeader = Plain["header"];
export type PlainKey = Plain["key"];
/** A product's values of the plain columns, by the product's field. */
export type PlainValues = { [C in Plain as C["key"]]: z.output<C["cell"]> };

/** The plain columns' headers: a file's required ones, or those it may leave out. */
export const plainHeaders = (required: boolean): PlainHeader[] =>
  PLAIN_COLUMNS.filter((column) => column.required === required).map((column) => column.header);

/** Each plain column's cell schema, by header (./parse-cells.ts rowSchema). */
export const PLAIN_CELLS = Object.fromEntries(PLAIN_COLUMNS.map((column) => [column.header, column.cell])) as {
  [C in Plain as C["header"]]: C["cell"];
};

/** A Prisma select of the plain columns. */
export const PLAIN_SELECT = Object.fromEntries(PLAIN_COLUMNS.map((column) => [column.key, true])) as {
  [K in PlainKey]: true;
};

/** The problem a cell in the wrong format gets when its column is plain and says which; "required" otherwise. */
export const plainNotValue = (header: string) =>
  PLAIN_COLUMNS.find((column) => column.header === header)?.notValue ?? "required";

/**
 * A line's values of the plain columns, from its cells as rowSchema read them (by header); for a
 * line that could not be read, empty texts and nulls, which are never written.
 */
export function plainValues(cells: Partial<Record<PlainHeader, unknown>> | undefined): PlainValues {
  return Object.fromEntries(
    PLAIN_COLUMNS.map((column) => [column.key, cells ? cells[column.header] : column.sqlType === "text" ? "" : null]),
  ) as PlainValues;
}

/**
 * What the product holds after the import: the file's values, the product's own where the file's
 * cell was empty (null) and where they are the same (a text kept with its own line breaks).
 */
export function mergedPlainValues(current: PlainValues | undefined, file: PlainValues): PlainValues {
  return Object.fromEntries(
    PLAIN_COLUMNS.map(({ key, same }) => {
      const now = current?.[key];
      const next = file[key] ?? now ?? null;
      const kept = now !== undefined && (same as (a: unknown, b: unknown) => boolean)(now, next);
      return [key, kept ? now : next];
    }),
  ) as PlainValues;
}

/** Whether `merged` (mergedPlainValues) changes one of the product's plain columns. */
export const plainValuesChange = (current: PlainValues, merged: PlainValues) =>
  PLAIN_COLUMNS.some(({ key }) => current[key] !== merged[key]);

/** The product's plain cells as the export writes them, by header. */
export function plainCells(product: PlainValues): Record<PlainHeader, string | number> {
  return Object.fromEntries(
    PLAIN_COLUMNS.map(({ header, key, toCell }) => [
      header,
      (toCell as (value: unknown) => string | number)(product[key]),
    ]),
  ) as Record<PlainHeader, string | number>;
}
