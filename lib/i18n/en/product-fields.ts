/**
 * A product's fields in words, in English: each field's label (the back office's product form and
 * the error that names the field; the shop's product page when it names one), the form's hints,
 * and the catalogue CSV's rules for the product's columns. Composed into ./admin-catalog.ts and
 * ./admin-catalog-csv.ts.
 */

import type { productFieldTexts as pt } from "../pt/product-fields";

export const productFieldTexts: typeof pt = {
  /** By field (lib/catalog/product-rules.ts PRODUCT_FIELDS): the flash of an error names it so too. */
  labels: {
    name: "Name",
    slug: "Address (slug)",
    description: "Description",
    priceAoa: "Price (Kz, whole)",
    stock: "Stock",
    stockReason: "Reason for the stock change",
    image: "Image (optional)",
    imageAlt: "Image text alternative",
    categories: "Categories",
    delta: "Units to add (negative to take away)",
    reason: "Reason",
  },
  /** The product form's hint under a field. */
  hints: {
    slug: "Lower-case letters, digits and hyphens, e.g. roasted-coffee-1kg. It is part of the product page's address.",
  },
  /** The CSV's rules for the product's columns, in the file's order, after the rules for the file as a whole. */
  csvColumnRules: [
    "price_aoa: whole kwanza, digits only (8500; not 8.500 nor 8500,50). stock: the stock the product should have; the difference goes into the stock history with the reason “CSV import”.",
    "categories: “Top > Sub-category” paths separated by |, e.g. Mercearia > Café|Ofertas. Names are matched ignoring case and accents; missing ones are created. There are two levels only.",
    "images: the addresses of images the shop already has (/products/… or /api/images/…, as the export writes them), separated by |; image_alts: each one's text alternative, in the same order. Both may stay empty: a product without images shows its initial in place of a photo.",
  ],
};
