import { describe, expect, it } from "vitest";
import {
  isOrderPageRequest,
  isShopCache,
  isStaticFile,
  keptUntil,
  mayKeepPage,
  ORDER_PAGE_CACHE_CONTROL,
  ORDER_PAGES_CACHE,
  orderPageOf,
  staticFilesCache,
  staticFilesOf,
} from "@/lib/offline/offline-rules";

const id = "order_7cdac2dd-1234-4abc-8def-0123456789ab";
const origin = "https://shop.example";

const get = (headers: Record<string, string> = {}) => ({ method: "GET", headers: new Headers(headers) });
const html = (headers: Record<string, string> = {}, status = 200, type = "basic") => ({
  status,
  type,
  headers: new Headers({ "Content-Type": "text/html; charset=utf-8", ...headers }),
});

describe("the shopper's order pages", () => {
  it("are the success, pending and order pages of a well-formed order id", () => {
    expect(orderPageOf(`/checkout/success/${id}`)).toEqual({ kind: "success", externalTransactionId: id });
    expect(orderPageOf(`/checkout/pending/${id}`)).toEqual({ kind: "pending", externalTransactionId: id });
    expect(orderPageOf(`/orders/${id}`)).toEqual({ kind: "order", externalTransactionId: id });
  });

  it("are nothing else: the list, the lookup, another page under an order, a malformed id, the back office's order", () => {
    for (const path of [
      "/orders",
      "/orders/lookup",
      `/orders/${id}/receipt`,
      `/orders/${id.toUpperCase()}`,
      "/orders/order_1",
      `/pt/orders/${id}`,
      `/admin/orders/${id}`,
      `/checkout/other/${id}`,
      "/checkout",
      `/api/pay/order/${id}/status`,
    ])
      expect(orderPageOf(path), path).toBeNull();
  });

  it("are kept from a GET of the shop's own address, never from another origin, a query, a POST or an RSC payload", () => {
    const page = new URL(`${origin}/checkout/pending/${id}`);
    expect(isOrderPageRequest(get(), page, origin)).toBe(true);
    expect(isOrderPageRequest(get(), page, "https://other.example")).toBe(false);
    expect(isOrderPageRequest(get(), new URL(`${page.href}?x=1`), origin)).toBe(false);
    expect(isOrderPageRequest({ ...get(), method: "POST" }, page, origin)).toBe(false);
    expect(isOrderPageRequest(get({ RSC: "1" }), page, origin)).toBe(false);
    expect(isOrderPageRequest(get(), new URL(`${origin}/admin/orders/${id}`), origin)).toBe(false);
  });
});

describe("what a response must be to be kept", () => {
  it("a whole HTML page the server allows this browser to keep: the order pages' own Cache-Control", () => {
    expect(mayKeepPage(html({ "Cache-Control": ORDER_PAGE_CACHE_CONTROL }))).toBe(true);
    expect(mayKeepPage(html())).toBe(true);
  });

  it("never what the server marked no-store (Next's default for every other page it renders per request)", () => {
    expect(mayKeepPage(html({ "Cache-Control": "private, no-cache, no-store, max-age=0, must-revalidate" }))).toBe(
      false,
    );
    expect(mayKeepPage(html({ "Cache-Control": "no-store" }))).toBe(false);
    expect(mayKeepPage(html({ "Cache-Control": "NO-STORE" }))).toBe(false);
  });

  it("never an error, a redirect, another origin's answer or something other than a page", () => {
    expect(mayKeepPage(html({}, 404))).toBe(false);
    expect(mayKeepPage(html({}, 500))).toBe(false);
    expect(mayKeepPage(html({}, 0, "opaqueredirect"))).toBe(false);
    expect(mayKeepPage(html({}, 200, "cors"))).toBe(false);
    expect(
      mayKeepPage({ status: 200, type: "basic", headers: new Headers({ "Content-Type": "text/x-component" }) }),
    ).toBe(false);
  });

  it("is shown offline for seven days after the server answered", () => {
    expect(keptUntil(new Headers({ Date: "Mon, 02 Mar 2026 10:00:00 GMT" }))?.toISOString()).toBe(
      "2026-03-09T10:00:00.000Z",
    );
    expect(keptUntil(new Headers())).toBeNull();
  });
});

describe("the shop's built files", () => {
  it("are those under /_next/static/ of the shop's own origin", () => {
    expect(isStaticFile(new URL(`${origin}/_next/static/chunks/a1b2.js`), origin)).toBe(true);
    expect(isStaticFile(new URL(`${origin}/_next/image?url=x`), origin)).toBe(false);
    expect(isStaticFile(new URL("https://cdn.example/_next/static/chunks/a1b2.js"), origin)).toBe(false);
  });

  it("are read from a page's HTML once each, the scripts, styles and fonts it names, with their query", () => {
    const page = `<link rel="stylesheet" href="/_next/static/chunks/0a1b.css?dpl=d1&amp;x=2" />
      <script src="/_next/static/chunks/main-9f8e.js" async=""></script>
      <link rel="preload" href="/_next/static/media/font.woff2" as="font" />
      <script>self.__next_f.push([1,"2:I[\\"/_next/static/chunks/main-9f8e.js\\"]"])</script>
      <script src="/_next/static/chunks/main-9f8e.js"></script><img src="/products/a.svg" />`;
    expect(staticFilesOf(page)).toEqual([
      "/_next/static/chunks/0a1b.css?dpl=d1&x=2",
      "/_next/static/chunks/main-9f8e.js",
      "/_next/static/media/font.woff2",
    ]);
  });
});

describe("the worker's caches", () => {
  it("are named so that a new build can tell its own from an old one's", () => {
    expect(staticFilesCache("b1")).not.toBe(staticFilesCache("b2"));
    expect(isShopCache(staticFilesCache("b1"))).toBe(true);
    expect(isShopCache(ORDER_PAGES_CACHE)).toBe(true);
    expect(isShopCache("serwist-precache-v2-https://shop.example/")).toBe(false);
  });

  it("never include the back office", () => {
    expect(orderPageOf("/admin/orders")).toBeNull();
    expect(orderPageOf("/admin/orders/order_3f9c2a4e-8b1d-4c7a-9e2f-5a6b7c8d9e0f")).toBeNull();
  });
});
