/**
 * Finding products: categories, search, sort and filters, a listing's pages, breadcrumbs, and a
 * product's gallery. In English; composed into ../en.ts.
 */

import type { browseTexts as pt } from "../pt/browse";

export const browseTexts: typeof pt = {
  browse: {
    categories: "Categories",
    allProducts: "All products",
    breadcrumbs: "Breadcrumbs",
    home: "Home",
    searchLabel: "Search products",
    searchPlaceholder: "Search…",
    searchButton: "Search",
    searchTitle: (q: string) => `Results for “${q}”`,
    searchTitleEmpty: "Search",
    resultCount: (total: number) => (total === 1 ? "1 product" : `${total} products`),
    noResults: (q: string) => `No products found for “${q}”.`,
    noResultsFiltered: "No products match these filters.",
    trySuggestions: "Try one of these categories:",
    clearFilters: "Clear filters",
    subcategories: "Subcategories",
    refine: "Sort and filter",
    sort: "Sort by",
    sorts: {
      relevance: "Relevance",
      newest: "Newest",
      price_asc: "Price: low to high",
      price_desc: "Price: high to low",
      name: "Name",
    },
    minPrice: "Minimum price (Kz)",
    maxPrice: "Maximum price (Kz)",
    inStockOnly: "In stock only",
    apply: "Apply",
    pagination: "Pages",
    previous: "Previous",
    next: "Next",
    pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
    goToPage: (page: number) => `Page ${page}`,
    pastLastPage: "This page no longer exists.",
    firstPage: "Back to the first page",
    priceFrom: (price: string) => `from ${price}`,
    chooseOptions: "Choose options",
    chooseOptionsFor: (name: string) => `Choose options: ${name}`,
    optionValue: (value: string, count: number) => `${value} (${count})`,
  },
  gallery: {
    label: "Product images",
    showImage: (index: number, count: number) => `Show image ${index} of ${count}`,
  },
};
