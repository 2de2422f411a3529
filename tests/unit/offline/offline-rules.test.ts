import { describe, expect, it } from "vitest";
import {
  isOrderPageRequest,
  isShopCache,
  isStaticFile,
  isStylesheet,
  keptUntil,
  mayKeepPage,
  mayKeepStaticFile,
  ORDER_PAGE_CACHE_CONTROL,
  ORDER_PAGES_CACHE,
  orderPageOf,
  staticFilesCache,
  staticFileUrl,
  staticFilesOf,
  staticFilesOfStylesheet,
} from "@/lib/offline/offline-rules";

const id = "order_7cdac2dd-1234-4abc-8def-0123456789ab";
const origin = "https://shop.example";

const get = (headers: Record<string, string> = {}) => ({ method: "GET", headers: new Headers(headers) });
const html = (headers: Record<string, string> = {}, status = 200, type = "basic", redirected = false) => ({
  status,
  type,
  redirected,
  headers: new Headers({ "Content-Type": "text/html; charset=utf-8", ...headers }),
});
const file = (
  contentType: string,
  headers: Record<string, string> = {},
  status = 200,
  type = "basic",
  redirected = false,
) => ({
  status,
  type,
  redirected,
  headers: new Headers({ "Content-Type": contentType, ...headers }),
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
    expect(mayKeepPage(html({}, 200, "basic", true))).toBe(false);
    expect(mayKeepPage(html({}, 200, "cors"))).toBe(false);
    expect(
      mayKeepPage({ status: 200, type: "basic", headers: new Headers({ "Content-Type": "text/x-component" }) }),
    ).toBe(false);
  });

  it("never one that sets a cookie", () => {
    expect(mayKeepPage(html({ "Set-Cookie": "shopper_id=x; Path=/" }))).toBe(false);
  });

  it("is shown offline for seven days after the server answered", () => {
    expect(keptUntil(new Headers({ Date: "Mon, 02 Mar 2026 10:00:00 GMT" }))?.toISOString()).toBe(
      "2026-03-09T10:00:00.000Z",
    );
    expect(keptUntil(new Headers())).toBeNull();
  });
});

/** What a shopper wrote into an order's delivery address to make the owner's browser fetch the back office. */
const HOSTILE = [
  "/_next/static/../../api/admin/orders/export?from=2026-01-01&to=2026-12-31&x=",
  "/_next/static/../../api/admin/orders/export",
  "/_next/static/%2e%2e/%2e%2e/admin/orders",
  "/_next/static/%2E%2E/%2E%2E/admin/orders",
  "/_next/static/.%2e/.%2E/admin/orders",
  "/_next/static/..%2f..%2fapi/admin/orders/export",
  "/_next/static/..%2F..%2Fapi/admin/orders/export",
  "/_next/static/%252e%252e/%252e%252e/admin/orders",
  "/_next/static/..%5c..%5capi/admin/orders/export",
  "/_next/static/..\\..\\api\\admin\\orders\\export",
  "/_next/static\\..\\..\\admin\\orders",
  "/_next/static/.\n./.\t./admin/orders",
  "/_next/static/chunks/../../../admin/orders",
  "//evil.example/_next/static/x.js",
  "https://evil.example/_next/static/x.js",
  "http://shop.example/_next/static/x.js",
  "https://user:secret@shop.example/_next/static/x.js",
  "/_next/static/chunks/a.js?from=2026-01-01",
  "/_next/static/chunks/a.js?",
  "/_next/static/chunks/a.js#x",
  "/_next/static/chunks/a%00.js",
  "/_next/static/chunks//a.js",
  "/_next/static/",
  "/_next/staticx/a.js",
  "/api/admin/orders/export",
  "javascript:alert(1)",
  "data:text/javascript,alert(1)",
  "",
];

describe("the shop's built files", () => {
  it("are plain addresses under /_next/static/ of the shop's own origin, made absolute", () => {
    expect(staticFileUrl("/_next/static/chunks/a1b2.js", origin, origin)).toBe(`${origin}/_next/static/chunks/a1b2.js`);
    expect(staticFileUrl(`${origin}/_next/static/media/font.p.woff2`, origin, origin)).toBe(
      `${origin}/_next/static/media/font.p.woff2`,
    );
    // Turbopack's chunk names carry encoded brackets.
    expect(staticFileUrl("/_next/static/chunks/%5Broot-of-the-server%5D__0a1b._.js", origin, origin)).toBe(
      `${origin}/_next/static/chunks/%5Broot-of-the-server%5D__0a1b._.js`,
    );
  });

  it.each(HOSTILE)("never anything else, however it is written: %j", (address) => {
    expect(staticFileUrl(address, origin, origin)).toBeNull();
    expect(staticFileUrl(address, `${origin}/_next/static/chunks/a.css`, origin)).toBeNull();
  });

  it("a stylesheet's fonts resolve against the stylesheet, and must still land under /_next/static/", () => {
    const stylesheet = `${origin}/_next/static/chunks/0a1b.css`;
    expect(staticFileUrl("../media/font.woff2", stylesheet, origin)).toBe(`${origin}/_next/static/media/font.woff2`);
    expect(staticFileUrl("../../../api/admin/orders/export", stylesheet, origin)).toBeNull();
  });

  it("are the only requests answered from the worker's cache", () => {
    expect(isStaticFile(new URL(`${origin}/_next/static/chunks/a1b2.js`), origin)).toBe(true);
    expect(isStaticFile(new URL(`${origin}/_next/static/chunks/a1b2.js?v=1`), origin)).toBe(false);
    expect(isStaticFile(new URL(`${origin}/_next/static/%2e%2e/%2e%2e/admin/orders`), origin)).toBe(false);
    expect(isStaticFile(new URL(`${origin}/_next/static/..%2f..%2fadmin/orders`), origin)).toBe(false);
    expect(isStaticFile(new URL(`${origin}/_next/image?url=x`), origin)).toBe(false);
    expect(isStaticFile(new URL("https://cdn.example/_next/static/chunks/a1b2.js"), origin)).toBe(false);
  });

  it("are kept only as a page is: whole, not after a redirect, not no-store, no cookie, and a script, style, font or picture", () => {
    for (const type of ["application/javascript; charset=utf-8", "text/css; charset=utf-8", "font/woff2", "image/png"])
      expect(mayKeepStaticFile(file(type)), type).toBe(true);
    expect(mayKeepStaticFile(file("text/csv; charset=utf-8"))).toBe(false);
    expect(mayKeepStaticFile(file("text/html; charset=utf-8"))).toBe(false);
    expect(mayKeepStaticFile(file("application/json"))).toBe(false);
    expect(mayKeepStaticFile(file("font/woff2", { "Cache-Control": "private, no-store" }))).toBe(false);
    expect(mayKeepStaticFile(file("font/woff2", { "Set-Cookie": "a=b" }))).toBe(false);
    expect(mayKeepStaticFile(file("font/woff2", {}, 200, "basic", true))).toBe(false);
    expect(mayKeepStaticFile(file("font/woff2", {}, 404))).toBe(false);
    expect(mayKeepStaticFile(file("font/woff2", {}, 0, "opaque"))).toBe(false);
    expect(mayKeepStaticFile(file("font/woff2", {}, 200, "cors"))).toBe(false);
    expect(isStylesheet(file("text/css; charset=utf-8"))).toBe(true);
    expect(isStylesheet(file("font/woff2"))).toBe(false);
  });

  it("are read from a page's own script and link tags, once each, made absolute", () => {
    const page = `<!DOCTYPE html><html><head>
      <link rel="stylesheet" href="/_next/static/chunks/0a1b.css" data-precedence="next" />
      <link rel="preload" href="/_next/static/media/font.p.woff2" as="font" crossorigin="" type="font/woff2" />
      <link rel="modulepreload" href="/_next/static/chunks/mod.js" />
      <link rel="icon" href="/_next/static/media/icon.png" />
      <SCRIPT SRC=/_next/static/chunks/main-9f8e.js async></SCRIPT>
      <script src="/_next/static/chunks/main-9f8e.js" async=""></script>
      <script src="/_next/static/chunks/%5Broot-of-the-server%5D__0a1b._.js" async=""></script>
      <link rel="stylesheet" href="/_next/static/chunks/0a1b.css?dpl=d1&amp;x=2" />
      </head><body><img src="/_next/static/media/photo.png" /></body></html>`;
    expect(staticFilesOf(page, origin)).toEqual([
      `${origin}/_next/static/chunks/0a1b.css`,
      `${origin}/_next/static/media/font.p.woff2`,
      `${origin}/_next/static/chunks/mod.js`,
      `${origin}/_next/static/chunks/main-9f8e.js`,
      `${origin}/_next/static/chunks/%5Broot-of-the-server%5D__0a1b._.js`,
    ]);
  });

  it("never from the page's text: a shopper's address in a text node, in Next's inline payload, in a textarea or a comment", () => {
    const shopperText = [
      "/_next/static/../../api/admin/orders/export?from=2026-01-01&amp;to=2026-12-31&amp;x=",
      "/_next/static/%2e%2e/%2e%2e/admin/orders",
      // Even a well-formed built file's address, written as text, is text.
      "/_next/static/chunks/from-text.js",
    ];
    const page = `<html><head><script src="/_next/static/chunks/main.js" async=""></script></head><body>
      <span data-testid="delivery-address">${shopperText.join(", ")} (&lt;script src=&quot;/_next/static/chunks/escaped.js&quot;&gt;)</span>
      <script>self.__next_f.push([1,"8:[\\"$\\",\\"span\\",null,{\\"children\\":\\"/_next/static/../../api/admin/orders/export?from=2026-01-01\\u0026x=\\"}]\\n"])</script>
      <script>var s = '<script src="/_next/static/chunks/in-script.js"><\\/script><link rel="stylesheet" href="/_next/static/chunks/in-script.css">';</script>
      <textarea><script src="/_next/static/chunks/in-textarea.js"></script></textarea>
      <title><link rel="stylesheet" href="/_next/static/chunks/in-title.css"></title>
      <style>a::after { content: '<link rel="stylesheet" href="/_next/static/chunks/in-style.css">' }</style>
      <!-- <script src="/_next/static/chunks/in-comment.js"></script> -->
      <svg><![CDATA[ <script src="/_next/static/chunks/in-cdata.js"></script> ]]></svg>
      <p title="<script src='/_next/static/chunks/in-attribute.js'>">x</p>
      <script src="/_next/static/chunks/last.js" async=""></script>
      </body></html>`;
    expect(staticFilesOf(page, origin)).toEqual([
      `${origin}/_next/static/chunks/main.js`,
      `${origin}/_next/static/chunks/last.js`,
    ]);
  });

  it("never an address a tag writes with entities to hide a dot-dot, and never one whose entities it cannot read", () => {
    const page = `<script src="/_next/static/&#46;&#46;/&#x2e;&#x2E;/api/admin/orders/export"></script>
      <link rel="stylesheet" href="/_next/static/%2e%2e/%2e%2e/admin/orders" />
      <script src="/_next/static/chunks/a.js&ampx"></script>
      <script src="/_next/static/chunks/b.js&hellip;"></script>
      <script src="&#x2F;_next&#x2F;static&#x2F;chunks&#x2F;plain.js"></script>`;
    expect(staticFilesOf(page, origin)).toEqual([`${origin}/_next/static/chunks/plain.js`]);
  });

  it("and the fonts a kept stylesheet names, resolved against it, under the same rule", () => {
    const stylesheet = `${origin}/_next/static/chunks/0a1b.css`;
    const css = `@font-face{font-family:a;src:url(../media/a.p.woff2) format("woff2"),url("../media/b.woff") format("woff")}
      @font-face{src:url('/_next/static/media/c.woff2')}
      .x{background:url(data:image/png;base64,AAAA)}
      .y{background:url(https://evil.example/_next/static/x.png)}
      .z{background:url(../../../api/admin/orders/export)}
      .w{background:url(/_next/static/media/d.woff2?v=1)}
      .v{background:url(../media/a.p.woff2)}`;
    expect(staticFilesOfStylesheet(css, stylesheet, origin)).toEqual([
      `${origin}/_next/static/media/a.p.woff2`,
      `${origin}/_next/static/media/b.woff`,
      `${origin}/_next/static/media/c.woff2`,
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
