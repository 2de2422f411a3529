/** The back office's catalogue CSV: its import and export. In English; composed into ../en.ts. */

import type { adminCatalogCsvTexts as pt } from "../pt/admin-catalog-csv";
import { productFieldTexts } from "./product-fields";

export const adminCatalogCsvTexts: typeof pt = {
  catalogue: {
    title: "Catalogue CSV",
    importTitle: "Import a CSV file",
    importHint:
      "Check it first: nothing is written, and the page shows every problem by line and column, or what the file changes. Then import the same file, all at once: everything or nothing.",
    file: "CSV file",
    fileHint: (megabytes: number, rows: number) =>
      `UTF-8, separated by commas or semicolons, up to ${megabytes} MB and ${rows.toLocaleString("en")} lines.`,
    check: "Check (writes nothing)",
    applyTitle: "Import this file",
    applyHint:
      "Choose the same file again. It is checked again and imported in one transaction; if it changed meanwhile, nothing is written.",
    apply: "Import",
    checked: "File checked, no problems. Nothing has been written yet. Importing it would give:",
    applied: "File imported.",
    appliedHint: "The shop already shows the changes.",
    invalid: (total: number) =>
      total === 1
        ? "The file has 1 problem. Nothing was written."
        : `The file has ${total} problems. Nothing was written.`,
    firstProblems: (shown: number) =>
      `The first ${shown} are shown. Fix them and check again, or see the whole list with npm run catalogue:import -- file.csv --dry-run.`,
    line: (line: number) => `Line ${line}`,
    wholeFile: "The file",
    summary: {
      rows: "Lines",
      created: "New products",
      updated: "Changed products",
      unchanged: "Unchanged",
      categoriesCreated: "New categories",
      imagesStored: "New images",
      archived: "Archived (they stay archived)",
    },
    formatTitle: "The format",
    /** Its first rule: `columns` are the header's names, in order. */
    formatHeader: (columns: string) => `The first line names the columns: ${columns}. Those after stock are optional.`,
    formatRules: [
      "Each product is found by its slug: a slug the shop does not have creates a new product; the others are updated. Importing the same file twice changes nothing.",
      ...productFieldTexts.csvColumnRules,
      "An empty categories or images cell leaves the product's categories or images as they are.",
      "Products with options (Tamanho, Cor…): one line per variant, all with the same slug, each with the options' names and values (option1_name, option1_value…), its sku, price and stock. The name, description, categories and images come from the product's first line; on the others leave them empty or the same. A variant the file no longer lists is archived. An empty sku cell leaves the SKU as it is.",
      "To import image files (photos next to the CSV), run npm run catalogue:import -- catalogue.csv on the server.",
    ],
    example: "Example:",
    exportTitle: "Export the catalogue",
    exportHint:
      "Every product, archived ones too, with the columns the import reads. Edit it in a spreadsheet and import it: what did not change stays as it is.",
    exportComma: "Download CSV",
    exportSemicolon: "Download CSV for Excel (semicolons)",
    errors: {
      file_required: "Choose the CSV file.",
      file_too_large: "The file is larger than 20 MB. Split it.",
      unsupported_media_type: "Send the file with the form.",
      unreadable: "The upload was cut off. Try again.",
      not_checked: "This is not the file that was checked. Check it first.",
      conflict:
        "Another change of the catalogue (a product or category created, a category moved) collided with the import. Nothing was written: import again.",
    },
    problems: {
      file_too_large: (value: string) => `The file is larger than ${value} bytes.`,
      not_utf8: () => "The file is not UTF-8. In Excel: Save as, “CSV UTF-8 (Comma delimited)”.",
      nul_character: () => "The file holds a NUL character, which no text of the shop can hold (is it really a CSV?).",
      empty_file: () => "The file has no line naming the columns.",
      malformed: () => "The CSV cannot be read from here on (a quote left open?).",
      missing_column: () => "This column is missing from the first line.",
      unknown_column: () => "This is not a column of the catalogue CSV.",
      duplicate_column: () => "This column appears twice.",
      too_many_rows: (value: string) => `A file has at most ${value} lines: split it.`,
      field_count: () => "The line does not have as many columns as the first (a missing or extra separator?).",
      required: () => "Is empty.",
      too_long: (value: string) => `Has more than ${value} characters.`,
      slug_format: () => "Lower-case letters, digits and hyphens only, e.g. roasted-coffee-1kg.",
      duplicate_slug: (value: string) =>
        `This slug is already on line ${value}: a product without options appears once (one with options, once per variant).`,
      not_kwanza: () => "Must be a whole number of kwanza, digits only (no dots, commas, spaces or decimals).",
      not_whole: () => "Must be a whole number, digits only.",
      below_min: (value: string) => `Must be at least ${value}.`,
      above_max: (value: string) => `Must be at most ${value}.`,
      category_empty_name: () => "A category path has an empty name (write “Top > Sub-category”).",
      category_name_too_long: (value: string) => `The category name “${value}” is too long.`,
      category_too_deep: (value: string) => `“${value}” has more than two levels; categories have two.`,
      category_unusable_name: (value: string) => `The category name “${value}” needs at least one letter or digit.`,
      category_is_sub: (value: string) => `It is a sub-category: write “${value}”.`,
      category_ambiguous: (value: string) =>
        `More than one category is called “${value}” (ignoring case and accents): rename one of them.`,
      image_empty_path: () => "An image address is empty (separate them with |).",
      image_url: (value: string) => `“${value}” is an internet address: the import does not download images.`,
      image_bad_path: (value: string) =>
        `“${value}” is not an image address of the shop (/products/… or /api/images/…).`,
      image_unknown: (value: string) => `The shop has no image “${value}”.`,
      image_file_not_allowed: (value: string) =>
        `“${value}” is a file name. Here only images the shop already has can be named; to import files, use npm run catalogue:import.`,
      image_outside_folder: (value: string) => `“${value}” is outside the CSV's folder.`,
      image_not_found: (value: string) => `The file “${value}” does not exist.`,
      image_empty: (value: string) => `The file “${value}” is empty.`,
      image_too_large: (value: string) => `The image “${value}” is larger than 2 MB.`,
      image_too_many_pixels: (value: string) => `The image “${value}” has more than 40 megapixels.`,
      unsupported_image: (value: string) => `“${value}” is not a PNG, JPEG or WebP image.`,
      image_unreadable: (value: string) => `The image “${value}” could not be read: it is damaged or incomplete.`,
      image_duplicate: (value: string) => `“${value}” appears twice in this product's images.`,
      too_many_images: (value: string) => `A product has at most ${value} images.`,
      alts_count: (value: string) => `Needs one text alternative per image, separated by | (${value} images).`,
      alts_without_images: () => "There are text alternatives without images in the images column.",
      alt_empty: (value: string) => `The text alternative of image ${value} is empty.`,
      alt_too_long: (value: string) => `The text alternative of image ${value} is too long.`,
      product_column_differs: (value: string) =>
        `Differs from line ${value}, this product's first line: leave it empty or write the same.`,
      option_gap: () => "Is empty while a later option is filled: fill the options from option 1 on.",
      option_text: () => "Must have 1 to 40 characters, without commas.",
      option_name_twice: (value: string) => `The option “${value}” is named twice on this line.`,
      option_names_differ: (value: string) =>
        `These are not the options of line ${value}: every line of a product names the same options, in the same order.`,
      duplicate_combination: (value: string) => `This combination of values is already on line ${value}.`,
      too_many_values: () => "An option has at most 100 values.",
      too_many_variants: () => "The options' values make more than 250 combinations.",
      product_has_options: () => "This product has options: the file needs the option columns, one line per variant.",
      sku_format: () => "Letters, digits and - _ . / only, at most 64 characters.",
      duplicate_sku: (value: string) => `This SKU is already on line ${value}.`,
      sku_taken: (value: string) => `This SKU belongs to another variant (product ${value}).`,
    },
  },
};
