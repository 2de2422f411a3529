import { access, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

describe("the cached pages' own expiry", () => {
  it("is the one lib/catalog/cached-pages.ts documents, on both pages (a segment config cannot import it)", async () => {
    const library = await readFile("lib/catalog/cached-pages.ts", "utf8");
    const seconds = Number(/export const CATALOG_PAGE_SECONDS = (\d+);/.exec(library)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    for (const page of ["app/[lang]/(shop)/page.tsx", "app/[lang]/(shop)/products/[slug]/page.tsx"]) {
      const source = await readFile(page, "utf8");
      expect(source, page).toContain(`export const revalidate = ${seconds};`);
      // Nothing per request, which would make the page dynamic again.
      expect(source, page).not.toMatch(/export const dynamic|cookies\(|headers\(|searchParams/);
    }
  });
});

describe("the cached pages marked stale", () => {
  it("are named as their page files are, route group included: Next matches a page's route exactly", async () => {
    // Reading the list from its source: the module itself is server-only (next/cache).
    const library = await readFile("lib/catalog/cached-pages.ts", "utf8");
    const list = /export const CATALOG_ROUTES = \[([\s\S]*?)\] as const;/.exec(library)?.[1] ?? "";
    const routes = [...list.matchAll(/"([^"]+)"/g)].map((match) => match[1]!);
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) await expect(access(`app${route}/page.tsx`), route).resolves.toBeUndefined();
  });
});
