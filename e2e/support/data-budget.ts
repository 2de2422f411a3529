/**
 * The shop's data budget: what a first visit from a phone may cost, in bytes over the wire and in
 * requests, measured by e2e/page-weight.spec.ts. The shop is built for shoppers in Luanda who pay
 * for every megabyte of prepaid mobile data: a page's weight is part of its price.
 *
 * Bytes are what came over the wire for each response, as a phone's data plan counts them: its
 * headers and its compressed body (Brotli or gzip from the production server, scripts/serve.mjs),
 * Chromium's `encodedDataLength` (e2e/support/page-weight.ts). 1 KB = 1024 bytes.
 *
 * Sizes are deterministic (the same build, catalogue and scroll give the same bytes): this is a
 * budget, not a timing, and a change that goes past it fails the test with the figures printed.
 * Raise a number only with a reason written here.
 */

export const KB = 1024;

export interface PageBudget {
  /** Everything the first visit fetches, scrolled to the bottom and left until the network is quiet. */
  totalBytes: number;
  /** Of which JavaScript. */
  scriptBytes: number;
  /** How many requests that takes. */
  requests: number;
}

/**
 * JavaScript, on every page: React and Next's own runtime are about 130 kB compressed and
 * cannot shrink without leaving Next; 150 kB leaves the shop's own client code about 20 kB. A
 * product card needs none (a server component with a plain form), nor does the header but for its
 * cart count, nor the product page but for its option picker.
 */
const SCRIPT = 150 * KB;

/**
 * At most 30 requests: the document, its stylesheet, the runtime's few chunks, the cart count's
 * GET /api/cart, the icon and the products' images (the demo catalogue's 13, or a category page of
 * 24 products made with them). More than that is prefetching or chunks split too fine.
 */
const REQUESTS = 30;

export const DATA_BUDGET = {
  /**
   * The catalogue's first page (the demo's 13 products) and a category's (24 products, a full
   * page): 200 kB, the script above plus the page's HTML (which carries its React payload twice,
   * as markup and as data) and its stylesheet and images. No prefetch of pages not opened.
   */
  home: { totalBytes: 200 * KB, scriptBytes: SCRIPT, requests: REQUESTS },
  category: { totalBytes: 200 * KB, scriptBytes: SCRIPT, requests: REQUESTS },
  /** A search's results: a listing like the category's, rendered per request. */
  search: { totalBytes: 200 * KB, scriptBytes: SCRIPT, requests: REQUESTS },
  /** A product page (the product with options, the heaviest: its option picker is client code): one product, less HTML. */
  product: { totalBytes: 180 * KB, scriptBytes: SCRIPT, requests: REQUESTS },
} as const satisfies Record<string, PageBudget>;

/**
 * With `Save-Data: on` (or `navigator.connection.saveData`) the shopper asked for less: no
 * prefetch at all, smaller images, no decorative ones. The catalogue's first page then fits in
 * 160 kB, 40 kB under its usual budget: what is left is the runtime, the page and its images.
 */
export const SAVE_DATA_BUDGET = {
  home: { totalBytes: 160 * KB, scriptBytes: SCRIPT, requests: REQUESTS },
  product: { totalBytes: 180 * KB, scriptBytes: SCRIPT, requests: REQUESTS },
} as const satisfies Record<string, PageBudget>;
