import { describe, expect, it } from "vitest";
import nextConfig from "../../next.config.mjs";
import { DEFAULT_LANG, LANG_COOKIE, LANGS } from "@/lib/i18n/languages";
import { contentSecurityPolicy } from "@/lib/http/csp";

// next.config.mjs is plain JavaScript that Node loads before any TypeScript: it cannot import
// lib/. What it repeats from there (the languages and their cookie, the cached pages' policy)
// is checked here against the source.

type Rewrite = { source: string; destination: string; has?: { type: string; key: string; value?: string }[] };
type HeaderRule = { source: string; headers: { key: string; value: string }[] };

const config = (phase = "phase-production-server") => nextConfig(phase);

/** The first rewrite that applies, as Next picks them: in order, each with its cookie and header conditions. */
async function rewrite(
  path: string,
  cookies: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<string | undefined> {
  const { afterFiles } = (await config().rewrites!()) as unknown as { afterFiles: Rewrite[] };
  // Next matches a condition's value as an anchored regular expression (prepare-destination.js matchHas).
  const holds = ({ type, key, value }: { type: string; key: string; value?: string }) => {
    const actual = type === "cookie" ? cookies[key] : type === "header" ? headers[key.toLowerCase()] : undefined;
    return actual !== undefined && new RegExp(`^${value}$`).test(actual);
  };
  for (const rule of afterFiles) {
    if (rule.has && !rule.has.every(holds)) continue;
    if (rule.source === "/") {
      if (path === "/") return rule.destination;
      continue;
    }
    const pattern = /^\/:path\((.+)\)$/.exec(rule.source)![1]!;
    const match = new RegExp(`^/(${pattern})$`).exec(path);
    if (match) return rule.destination.replace(":path", match[1]!);
  }
  return undefined;
}

describe("next.config.mjs", () => {
  it("rewrites every page into the language of the lang cookie, the default without one", async () => {
    expect(await rewrite("/")).toBe(`/${DEFAULT_LANG}`);
    expect(await rewrite("/products/x")).toBe(`/${DEFAULT_LANG}/products/x`);
    for (const lang of LANGS) {
      expect(await rewrite("/", { [LANG_COOKIE]: lang })).toBe(`/${lang}`);
      expect(await rewrite("/cart", { [LANG_COOKIE]: lang })).toBe(`/${lang}/cart`);
    }
    // A cookie nobody set that way is the default language, as lib/i18n reads it.
    expect(await rewrite("/cart", { [LANG_COOKIE]: "xx" })).toBe(`/${DEFAULT_LANG}/cart`);
  });

  it("sends a Save-Data request for a cached page to its lighter form, in the cookie's language, and nothing else", async () => {
    const saving = { "save-data": "on" };
    expect(await rewrite("/", {}, saving)).toBe(`/${DEFAULT_LANG}/save-data`);
    expect(await rewrite("/", {}, { "save-data": "On" })).toBe(`/${DEFAULT_LANG}/save-data`);
    for (const lang of LANGS)
      for (const path of ["/products/cafe", "/page/2", "/categories/mercearia", "/categories/mercearia/page/3"])
        expect(await rewrite(path, { [LANG_COOKIE]: lang }, saving), path).toBe(`/${lang}/save-data${path}`);
    // Pages rendered per request read the header themselves (/search), or have no lighter form.
    for (const path of ["/search", "/cart", "/checkout", "/orders"])
      expect(await rewrite(path, {}, saving), path).toBe(`/${DEFAULT_LANG}${path}`);
    // Without the header, or with another value, the usual page.
    expect(await rewrite("/products/cafe", {}, { "save-data": "off" })).toBe(`/${DEFAULT_LANG}/products/cafe`);
    // The lighter form has no address of its own: typed, it is no page (a 404).
    expect(await rewrite("/save-data/products/cafe")).toBeUndefined();
    expect(await rewrite("/save-data")).toBeUndefined();
  });

  it("says the cached pages vary by Save-Data", async () => {
    const rules = (await config().headers!()) as HeaderRule[];
    const varying = rules.filter((rule) => rule.headers.some((header) => header.key === "Vary"));
    expect(varying.map((rule) => rule.source)).toEqual([
      "/",
      "/products/:slug((?!.*\\.svg$)[^/]+)",
      "/page/:page",
      "/categories/:slug",
      "/categories/:slug/page/:page",
    ]);
    for (const rule of varying) expect(rule.headers).toEqual([{ key: "Vary", value: "Save-Data" }]);
  });

  it("leaves the API and Next's own files alone", async () => {
    for (const path of ["/api/cart", "/api/pay/order/order_1/status", "/_next/static/chunks/a.js", "/api"])
      expect(await rewrite(path), path).toBeUndefined();
  });

  it("leaves the service worker's script at its address, for every language", async () => {
    for (const lang of LANGS)
      for (const path of ["/serwist/sw.js", "/serwist/sw.js.map"])
        expect(await rewrite(path, { [LANG_COOKIE]: lang }), path).toBeUndefined();
    expect(await rewrite("/offline")).toBe(`/${DEFAULT_LANG}/offline`);
  });

  it("leaves the split sitemaps and a language's Open Graph images at the addresses Next gives them", async () => {
    for (const path of [
      "/sitemap/0.xml",
      "/sitemap/12.xml",
      "/pt/products/cafe/opengraph-image",
      "/en/categories/mercearia/opengraph-image",
      // Next's name for an image whose folder is in a route group (app/[lang]/(shop)/).
      "/pt/products/cafe/opengraph-image-1yzh3a",
      "/en/categories/mercearia/opengraph-image-n8c0fz",
    ])
      expect(await rewrite(path, { [LANG_COOKIE]: "en" }), path).toBeUndefined();
    // Without the language, as any page.
    expect(await rewrite("/products/cafe/opengraph-image")).toBe(`/${DEFAULT_LANG}/products/cafe/opengraph-image`);
    expect(await rewrite("/pt/products/cafe")).toBe(`/${DEFAULT_LANG}/pt/products/cafe`);
  });

  it("serves the sitemap index at /sitemap.xml, before any file or page, and rewrites nothing else there", async () => {
    const { beforeFiles } = (await config().rewrites!()) as unknown as { beforeFiles: Rewrite[] };
    expect(beforeFiles).toEqual([{ source: "/sitemap.xml", destination: "/sitemap_index.xml" }]);
    // Next's route for the index: a static route, served before the pages' language rewrites.
    expect(await rewrite("/sitemap_index.xml")).toBeUndefined();
  });

  it("sends the cached pages the policy without a nonce, as lib/http/csp.ts writes it", async () => {
    for (const [phase, development] of [
      ["phase-production-server", false],
      ["phase-development-server", true],
    ] as const) {
      const rules = (await config(phase).headers!()) as HeaderRule[];
      const policies = rules.filter((rule) => rule.headers.some((header) => header.key === "Content-Security-Policy"));
      expect(policies.map((rule) => rule.source)).toEqual([
        "/",
        "/products/:slug((?!.*\\.svg$)[^/]+)",
        "/page/:page",
        "/categories/:slug",
        "/categories/:slug/page/:page",
        "/offline",
      ]);
      for (const rule of policies)
        expect(rule.headers).toEqual([
          { key: "Content-Security-Policy", value: contentSecurityPolicy({ nonce: null, development }) },
        ]);
    }
  });
});
