import { posix } from "node:path";
import { z } from "zod";
import { SLUG_PATTERN } from "../../slug";
import { CATEGORY_LIMITS } from "../categories";
import { GALLERY_LIMITS } from "../gallery";
import { PRODUCT_LIMITS } from "../product-rules";
import { CSV_COLUMNS, LIST_SEPARATOR, PATH_SEPARATOR, problem, type CsvColumn, type CsvProblem } from "./format";
import { PLAIN_CELLS, plainNotValue, textCell, wholeCell } from "./product-columns";

/**
 * The cells of a catalog CSV line that describe the product: slug, its plain columns, price and
 * stock through zod, its categories as paths, its images as shop paths or files beside the CSV.
 * Each problem is kept by line and column.
 */

/** An image of the `images` column: a path the shop already serves, or a file beside the CSV. */
export type ImageRef = { kind: "path"; path: string } | { kind: "file"; name: string };

/** `Mercearia > Café` is { parent: "Mercearia", name: "Café" }; `Ofertas` is { parent: null, name: "Ofertas" }. */
export interface CategoryPath {
  parent: string | null;
  name: string;
}

/** An image of the line, with its text alternative ("" when the alts do not match the images). */
export interface CsvImage {
  ref: ImageRef;
  alt: string;
}

/** The shape's keys in the file's order of columns: the order in which a line's problems are found. */
function inColumnOrder<Shape extends Partial<Record<CsvColumn, z.ZodType>>>(shape: Shape): Shape {
  return Object.fromEntries(
    CSV_COLUMNS.flatMap((column) => (column in shape ? [[column, shape[column]]] : [])),
  ) as Shape;
}

export const rowSchema = z.object(
  inColumnOrder({
    slug: textCell(PRODUCT_LIMITS.slugMax).regex(SLUG_PATTERN),
    ...PLAIN_CELLS,
    price_aoa: wholeCell(1, PRODUCT_LIMITS.priceMax),
    stock: wholeCell(0, PRODUCT_LIMITS.stockMax),
  }),
);

/** A product's other lines: their own slug, price and stock; its plain columns are its first line's. */
export const variantRowSchema = rowSchema.pick({ slug: true, price_aoa: true, stock: true });

/** A zod issue of `rowSchema` as one of our problems. */
export function issueProblem(line: number, issue: z.core.$ZodIssue): CsvProblem {
  const column = String(issue.path[0]);
  switch (issue.code) {
    case "too_small":
      return issue.origin === "number"
        ? problem(line, column, "below_min", Number(issue.minimum))
        : problem(line, column, "required");
    case "too_big":
      return issue.origin === "number"
        ? problem(line, column, "above_max", Number(issue.maximum))
        : problem(line, column, "too_long", Number(issue.maximum));
    default:
      return problem(
        line,
        column,
        column === "price_aoa"
          ? "not_kwanza"
          : column === "stock"
            ? "not_whole"
            : column === "slug"
              ? "slug_format"
              : plainNotValue(column),
      );
  }
}

const splitList = (cell: string) => cell.split(LIST_SEPARATOR).map((part) => part.trim());

export function parseCategories(line: number, cell: string, problems: CsvProblem[]): CategoryPath[] | null {
  // An empty path between two | (a trailing one, as spreadsheets concatenate) says nothing.
  const paths = splitList(cell).filter((path) => path !== "");
  if (paths.length === 0) return null;
  const categories: CategoryPath[] = [];
  for (const path of paths) {
    const names = path.split(PATH_SEPARATOR).map((name) => name.trim().replace(/\s+/g, " "));
    if (names.length > 2) {
      problems.push(problem(line, "categories", "category_too_deep", path));
      continue;
    }
    if (names.some((name) => name === "")) {
      problems.push(problem(line, "categories", "category_empty_name"));
      continue;
    }
    const tooLong = names.find((name) => name.length > CATEGORY_LIMITS.nameMax);
    if (tooLong) {
      problems.push(problem(line, "categories", "category_name_too_long", tooLong));
      continue;
    }
    const [first, second] = names as [string, string | undefined];
    categories.push(second === undefined ? { parent: null, name: first } : { parent: first, name: second });
  }
  return categories;
}

const SHOP_PUBLIC_PATH = /^\/products\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const SHOP_STORED_PATH = /^\/api\/images\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One cell of `images`: a shop path as it is, or a file name relative to the CSV's folder (`\` read as `/`). */
function imageRef(line: number, raw: string, problems: CsvProblem[]): ImageRef | null {
  if (raw === "") {
    problems.push(problem(line, "images", "image_empty_path"));
    return null;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    problems.push(problem(line, "images", "image_url", raw));
    return null;
  }
  if (raw.startsWith("/")) {
    if (SHOP_PUBLIC_PATH.test(raw) || SHOP_STORED_PATH.test(raw.toLowerCase()))
      return { kind: "path", path: raw.startsWith("/api/") ? raw.toLowerCase() : raw };
    problems.push(problem(line, "images", "image_bad_path", raw));
    return null;
  }
  const name = raw.replaceAll("\\", "/");
  const normalized = posix.normalize(name);
  if (/^[A-Za-z]:\//.test(name) || normalized === ".." || normalized.startsWith("../")) {
    problems.push(problem(line, "images", "image_outside_folder", raw));
    return null;
  }
  return { kind: "file", name: normalized };
}

/** The cell's images, those it names correctly (each with its alt, "" when the alts do not match). */
export function parseImages(
  line: number,
  imagesCell: string,
  altsCell: string,
  problems: CsvProblem[],
): CsvImage[] | null {
  if (imagesCell === "") {
    if (altsCell !== "") problems.push(problem(line, "image_alts", "alts_without_images"));
    return null;
  }
  const paths = splitList(imagesCell);
  if (paths.length > GALLERY_LIMITS.imagesMax)
    problems.push(problem(line, "images", "too_many_images", GALLERY_LIMITS.imagesMax));
  const seen = new Set<string>();
  for (const raw of paths) {
    if (raw !== "" && seen.has(raw)) problems.push(problem(line, "images", "image_duplicate", raw));
    seen.add(raw);
  }
  const alts = altsCell === "" ? [] : splitList(altsCell);
  if (alts.length !== paths.length) problems.push(problem(line, "image_alts", "alts_count", paths.length));
  else
    alts.forEach((alt, index) => {
      if (alt === "") problems.push(problem(line, "image_alts", "alt_empty", index + 1));
      else if (alt.length > GALLERY_LIMITS.altMax)
        problems.push(problem(line, "image_alts", "alt_too_long", index + 1));
    });
  return paths.flatMap((raw, index) => {
    const ref = imageRef(line, raw, problems);
    return ref ? [{ ref, alt: alts.length === paths.length ? alts[index]! : "" }] : [];
  });
}
