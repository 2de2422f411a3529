import "server-only";
import { stringify } from "csv-stringify/sync";
import type { Database } from "../../db/client";
import { legacyGallery } from "../gallery";
import { readVariantOptions } from "../variants";
import { CSV_COLUMNS, LIST_SEPARATOR, OPTION_COLUMNS, PATH_SEPARATOR, type CsvColumn } from "./format";
import { PLAIN_SELECT, plainCells } from "./product-columns";

/**
 * The catalog as the import reads it (GET /api/admin/catalogue/export): every product, archived
 * ones too (an import keeps them archived), by slug, with its categories as `Parent > Child`
 * paths and its gallery as the paths the shop serves its images at, so that importing the file
 * into the same shop changes nothing.
 */

/** Products read at a time, by keyset (slug), each batch written to the response as it comes. */
export const CATALOG_EXPORT_BATCH = 500;

export type CsvDelimiter = "," | ";";

/** `?delimiter=semicolon` gives what Excel in pt-AO opens in columns; a comma otherwise. */
export const delimiterOf = (value: string | null): CsvDelimiter => (value === "semicolon" ? ";" : ",");

/**
 * The file, streamed. A product with options is one line per active variant, by position, each
 * with the product's columns repeated (a spreadsheet sorted or filtered still reads back), its
 * option names and values, its SKU, price and stock; a product without options is one line, its
 * default variant's SKU in `sku`. A variant's own image is not in the file (an import keeps it).
 */
export function catalogCsv(
  db: Pick<Database, "product" | "category" | "galleryImage" | "productCategory" | "productVariant" | "productOption">,
  delimiter: CsvDelimiter = ",",
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  // An apostrophe before a text starting with =, +, -, @ (OWASP "CSV injection"), which the import takes off again.
  const options = { escape_formulas: true, record_delimiter: "\r\n", delimiter } as const;
  let after: string | undefined;
  let paths: Map<string, string> | undefined;
  let done = false;
  return new ReadableStream({
    start(controller) {
      // A BOM first, so that Excel reads the file as UTF-8.
      controller.enqueue(encoder.encode(`\uFEFF${stringify([[...CSV_COLUMNS]], options)}`));
    },
    async pull(controller) {
      if (done) return;
      paths ??= await categoryPaths(db);
      const products = await db.product.findMany({
        where: after === undefined ? {} : { slug: { gt: after } },
        orderBy: { slug: "asc" },
        take: CATALOG_EXPORT_BATCH,
        select: { id: true, slug: true, ...PLAIN_SELECT, priceAoa: true, stock: true, imagePath: true },
      });
      const ids = products.map((product) => product.id);
      const [images, links, variantRows, optionRows] = await Promise.all([
        db.galleryImage.findMany({
          where: { productId: { in: ids } },
          orderBy: [{ productId: "asc" }, { position: "asc" }],
          select: { productId: true, path: true, alt: true },
        }),
        db.productCategory.findMany({
          where: { productId: { in: ids } },
          select: { productId: true, categoryId: true },
        }),
        db.productVariant.findMany({
          where: { productId: { in: ids }, archivedAt: null },
          orderBy: [{ productId: "asc" }, { position: "asc" }, { createdAt: "asc" }, { id: "asc" }],
          select: { productId: true, options: true, sku: true, priceAoa: true, stock: true },
        }),
        db.productOption.findMany({
          where: { productId: { in: ids } },
          orderBy: [{ productId: "asc" }, { position: "asc" }],
          select: { productId: true, name: true },
        }),
      ]);
      const variantsOf = byProduct(variantRows);
      const optionsOf = byProduct(optionRows);
      const galleries = byProduct(images);
      const categoriesOf = byProduct(links);
      const rows = products.flatMap((product) => {
        const gallery = galleries.get(product.id) ?? legacyGallery(product);
        const categories = (categoriesOf.get(product.id) ?? [])
          .map((link) => paths!.get(link.categoryId)!)
          .sort((a, b) => a.localeCompare(b, "pt"));
        const productCells = {
          slug: product.slug,
          ...plainCells(product),
          categories: categories.join(LIST_SEPARATOR),
          images: gallery.map((image) => image.path).join(LIST_SEPARATOR),
          image_alts: gallery.map((image) => image.alt).join(LIST_SEPARATOR),
        };
        const names = (optionsOf.get(product.id) ?? []).map((option) => option.name);
        const variants = variantsOf.get(product.id) ?? [];
        // A product without an active variant (every one archived): its line as the product has it.
        if (variants.length === 0)
          return [line({ ...productCells, price_aoa: product.priceAoa, stock: product.stock })];
        return variants.map((variant) => {
          const values = readVariantOptions(variant.options);
          const optionCells = OPTION_COLUMNS.flatMap(([nameColumn, valueColumn], i) =>
            names[i] === undefined || values[names[i]] === undefined
              ? []
              : [
                  [nameColumn, names[i]],
                  [valueColumn, values[names[i]]],
                ],
          );
          return line({
            ...productCells,
            price_aoa: variant.priceAoa,
            stock: variant.stock,
            ...Object.fromEntries(optionCells),
            sku: variant.sku ?? "",
          });
        });
      });
      if (rows.length > 0) controller.enqueue(encoder.encode(stringify(rows, options)));
      after = products.at(-1)?.slug;
      if (products.length < CATALOG_EXPORT_BATCH) {
        done = true;
        controller.close();
      }
    },
  });
}

/** A line's cells in the file's order of columns; a column not given is empty. */
const line = (cells: Partial<Record<CsvColumn, string | number>>) => CSV_COLUMNS.map((column) => cells[column] ?? "");

/** Every category's path, `Parent > Child` or `Top`, by id. */
async function categoryPaths(db: Pick<Database, "category">): Promise<Map<string, string>> {
  const rows = await db.category.findMany({ select: { id: true, parentId: true, name: true } });
  const names = new Map(rows.map((row) => [row.id, row.name]));
  return new Map(
    rows.map((row) => [row.id, row.parentId ? `${names.get(row.parentId)} ${PATH_SEPARATOR} ${row.name}` : row.name]),
  );
}

function byProduct<T extends { productId: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(row.productId, [...(groups.get(row.productId) ?? []), row]);
  return groups;
}
