/**
 * What the shop keeps in the browser to be read offline, and what it never keeps: the rules the
 * service worker (app/sw.ts) applies, shared with the component that registers it and with the
 * offline page. Pure, so the browser and the worker load it. Why these rules:
 * docs/offline.md#offline, docs/security.md#the-service-worker.
 *
 * Kept: the offline page (precached), the shop's own content-hashed files under /_next/static/
 * (one cache per build) and the shopper's order pages this browser opened (success, pending with
 * the reference, the order page), for ORDER_PAGE_KEPT_DAYS. Never: the back office, the API, any
 * other page, or a response the server marked `no-store`.
 */

import { EXTERNAL_TRANSACTION_ID } from "../orders/order-number";
import { linkedFilesOf } from "./page-tags";

/** Where the worker is served (app/serwist/[path]/route.ts builds it), and the pages it controls. */
export const SERVICE_WORKER_URL = "/serwist/sw.js";
export const SERVICE_WORKER_SCOPE = "/";

/** Shown in place of any page that cannot be loaded offline (app/[lang]/(shop)/offline/page.tsx). */
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

/**
 * The message a page sends the worker once it has deleted every cache of the shop's ("Esquecer
 * este telefone", components/offline/forget-this-phone.tsx): keep the offline page's built files
 * again, the same for every visitor, so that it still opens offline as it should. The worker
 * answers on the message's port when done.
 */
export const KEEP_OFFLINE_PAGE_FILES = "KEEP_OFFLINE_PAGE_FILES";

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

/** Where the shop's built files are served from (named by their content, never changed). */
const STATIC_FILES_PATH = "/_next/static/";

/**
 * The shop's built file that `address` names, as an absolute URL, or null when it names anything
 * else. `address` is what a page or a stylesheet says (lib/offline/page-tags.ts), resolved
 * against `base` (the shop's origin for a page, the stylesheet's own URL for what it names),
 * the way the browser would. Kept only when the resolved address is the shop's own origin (no
 * user or password), under /_next/static/ once URL normalisation has collapsed every `..`, with
 * no query and no fragment; and when it is written plainly: no space or control character, no
 * backslash, nothing outside printable ASCII, and no segment that decodes to `.`, `..` or to
 * something with a slash, a backslash or a `%` in it (an encoded slash or dot-dot that a server
 * or a proxy might decode once more). Anything a shopper could have typed into the page is text,
 * never read as an address in the first place; this is the second wall.
 */
export function staticFileUrl(address: string, base: string, origin: string): string | null {
  if (!/^[\x21-\x7e]+$/.test(address) || /[\\?#]/.test(address)) return null;
  let url: URL;
  try {
    url = new URL(address, base);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.username !== "" || url.password !== "") return null;
  if (url.search !== "" || url.hash !== "" || !url.pathname.startsWith(STATIC_FILES_PATH)) return null;
  const segments = url.pathname.slice(STATIC_FILES_PATH.length).split("/");
  return segments.every(isPlainSegment) ? url.href : null;
}

function isPlainSegment(segment: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return false;
  }
  return decoded !== "" && decoded !== "." && decoded !== ".." && !/[/\\%\x00-\x1f\x7f]/.test(decoded);
}

/** One of the shop's built files (scripts, styles, fonts) at a plain address: the only requests the worker answers from its cache. */
export const isStaticFile = (url: URL, origin: string) => staticFileUrl(url.href, origin, origin) !== null;

/** What a kept response is at all: read from a response, from the network or from a cache. */
interface KeepableResponse {
  status: number;
  type: string;
  /** Whether fetch() followed a redirect to get it; absent (a cached copy, a test's) counts as no. */
  redirected?: boolean;
  headers: Headers;
}

/**
 * What every response the worker keeps must be: the whole answer (200, not after a redirect, not
 * an opaque or cross-origin one), which the server did not mark `no-store` and which sets no
 * cookie. fetch() never shows `Set-Cookie` to a script, the worker's included, so that check
 * only matters where headers are built by hand; the shop's order pages and built files set none.
 */
function mayKeep(response: KeepableResponse): boolean {
  return (
    response.status === 200 &&
    response.type === "basic" &&
    response.redirected !== true &&
    !response.headers.has("Set-Cookie") &&
    !/(?:^|,)\s*no-store\s*(?:,|$)/i.test(response.headers.get("Cache-Control") ?? "")
  );
}

/** Whether a page's response may be kept: a kept response (`mayKeep`) that is HTML. */
export const mayKeepPage = (response: KeepableResponse) =>
  mayKeep(response) && (response.headers.get("Content-Type") ?? "").startsWith("text/html");

/** What the built files the worker keeps are: scripts, styles, fonts and pictures. */
const STATIC_FILE_TYPE =
  /^(?:text\/css|(?:text|application)\/(?:x-)?javascript|font\/|image\/|application\/font-woff)/i;

/** Whether a built file's response may be kept: a kept response (`mayKeep`) of a script, a style, a font or a picture. */
export const mayKeepStaticFile = (response: KeepableResponse) =>
  mayKeep(response) && STATIC_FILE_TYPE.test(response.headers.get("Content-Type") ?? "");

/** Whether a kept built file is a stylesheet, whose fonts are kept with it. */
export const isStylesheet = (response: { headers: Headers }) =>
  /^text\/css\b/i.test(response.headers.get("Content-Type") ?? "");

/** Until when a kept page is shown offline: ORDER_PAGE_MAX_AGE_SECONDS after its Date, the time the server answered. */
export function keptUntil(headers: Headers): Date | null {
  const date = Date.parse(headers.get("Date") ?? "");
  return Number.isNaN(date) ? null : new Date(date + ORDER_PAGE_MAX_AGE_SECONDS * 1000);
}

/**
 * The shop's built files a page loads, as absolute URLs, each once: its own `<script src>` and
 * stylesheet and preload `<link href>` (lib/offline/page-tags.ts), those that `staticFileUrl` allows.
 * Never a string from the page's text: a shopper's address shown on an order page is text.
 */
export function staticFilesOf(html: string, origin: string): string[] {
  const urls = linkedFilesOf(html).map((address) => staticFileUrl(address, origin, origin));
  return [...new Set(urls.filter((url) => url !== null))];
}

/** The built files a kept stylesheet at `stylesheetUrl` names with `url(…)` (its fonts), under the same rule. */
export function staticFilesOfStylesheet(css: string, stylesheetUrl: string, origin: string): string[] {
  const urls = [...css.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^"'()\s]*))\s*\)/gi)].map((match) =>
    staticFileUrl(match[1] ?? match[2] ?? match[3] ?? "", stylesheetUrl, origin),
  );
  return [...new Set(urls.filter((url) => url !== null))];
}
