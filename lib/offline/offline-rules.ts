/**
 * What the shop keeps in the browser to be read offline, and what it never keeps: the rules the
 * service worker (app/sw.ts) applies, shared with the component that registers it and with the
 * offline page. Pure, so the browser and the worker load it. Why these rules:
 * docs/storefront.md#offline, docs/security.md#the-service-worker.
 *
 * Kept: the offline page (precached), the shop's own content-hashed files under /_next/static/
 * (one cache per build) and the shopper's order pages this browser opened (success, pending with
 * the reference, the order page), for ORDER_PAGE_KEPT_DAYS. Never: the back office, the API, any
 * other page, or a response the server marked `no-store`.
 */

import { EXTERNAL_TRANSACTION_ID } from "../orders/order-number";

/** Where the worker is served (app/serwist/[path]/route.ts builds it), and the pages it controls. */
export const SERVICE_WORKER_URL = "/serwist/sw.js";
export const SERVICE_WORKER_SCOPE = "/";

/** Shown in place of any page that cannot be loaded offline (app/[lang]/offline/page.tsx). */
export const OFFLINE_PAGE_PATH = "/offline";

/** Every cache the worker makes starts with this, so that a new build can drop an old one. */
const CACHE_PREFIX = "shop-";

/** The build's files under /_next/static/: a name per build, so a deploy replaces them. */
export const staticFilesCache = (build: string) => `${CACHE_PREFIX}static-${build}`;

/**
 * The order pages this browser opened. One name for every build: a pending reference must stay
 * readable across a deploy; the worker carries the files those pages need into each new build's cache.
 */
export const ORDER_PAGES_CACHE = `${CACHE_PREFIX}order-pages`;

export const isShopCache = (name: string) => name.startsWith(CACHE_PREFIX);

/** An order page stays readable offline this long after it was last loaded online. */
export const ORDER_PAGE_KEPT_DAYS = 7;
export const ORDER_PAGE_MAX_AGE_SECONDS = ORDER_PAGE_KEPT_DAYS * 24 * 60 * 60;
/** At most this many order pages (three per order at most), the least recently loaded dropped first. */
export const ORDER_PAGES_MAX = 30;
/**
 * How long an order page may take online before the worker shows the copy it has (and keeps
 * the network's answer for next time): a slow connection still gets the reference at once.
 */
export const ORDER_PAGE_NETWORK_TIMEOUT_SECONDS = 6;

/**
 * The Cache-Control of the order pages (proxy.ts): `private`, so that no shared cache (a CDN, a
 * proxy) stores them, and `no-cache`, so that the browser asks the server again each time. The
 * other pages rendered per request keep Next's `no-store`, which the worker honours.
 */
export const ORDER_PAGE_CACHE_CONTROL = "private, no-cache";

export type OrderPageKind = "success" | "pending" | "order";

const ORDER_PAGE = /^\/(?:checkout\/(success|pending)|orders)\/([^/]+)$/;

/** The shopper's order page at `pathname` (/checkout/success/<id>, /checkout/pending/<id>, /orders/<id>), else null. */
export function orderPageOf(pathname: string): { kind: OrderPageKind; externalTransactionId: string } | null {
  const match = ORDER_PAGE.exec(pathname);
  const externalTransactionId = match?.[2];
  if (!match || !externalTransactionId || !EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) return null;
  return { kind: match[1] === "success" || match[1] === "pending" ? match[1] : "order", externalTransactionId };
}

/**
 * A request for an order page's HTML that the worker may keep: a GET of the shop's own address,
 * without a query, and not the RSC payload of a client-side navigation (the same address, other
 * content: the `RSC` header, the `_rsc` parameter).
 */
export function isOrderPageRequest(request: { method: string; headers: Headers }, url: URL, origin: string): boolean {
  return (
    request.method === "GET" &&
    url.origin === origin &&
    url.search === "" &&
    !request.headers.has("RSC") &&
    orderPageOf(url.pathname) !== null
  );
}

/** One of the shop's built files (scripts, styles, fonts): named by their content, never changed. */
export const isStaticFile = (url: URL, origin: string) =>
  url.origin === origin && url.pathname.startsWith("/_next/static/");

/**
 * Whether a page's response may be kept: the whole page (200, HTML, from the shop itself, not a
 * redirect), that the server did not mark `no-store`. Set-Cookie cannot be checked here, nor needs
 * to be: fetch() never shows it to a script, the worker included, and the order pages set none.
 */
export function mayKeepPage(response: { status: number; type: string; headers: Headers }): boolean {
  return (
    response.status === 200 &&
    response.type === "basic" &&
    (response.headers.get("Content-Type") ?? "").startsWith("text/html") &&
    !/(?:^|,)\s*no-store\s*(?:,|$)/i.test(response.headers.get("Cache-Control") ?? "")
  );
}

/** Until when a kept page is shown offline: ORDER_PAGE_MAX_AGE_SECONDS after its Date, the time the server answered. */
export function keptUntil(headers: Headers): Date | null {
  const date = Date.parse(headers.get("Date") ?? "");
  return Number.isNaN(date) ? null : new Date(date + ORDER_PAGE_MAX_AGE_SECONDS * 1000);
}

/** The shop's built files a page's HTML names (its scripts, styles, fonts), each once, as the browser asks for them. */
export function staticFilesOf(html: string): string[] {
  const paths = html.match(/\/_next\/static\/[^"'\s<>\\)]+/g) ?? [];
  return [...new Set(paths.map((path) => path.replaceAll("&amp;", "&")))];
}
