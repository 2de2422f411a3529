import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

describe("the cached pages' own expiry", () => {
  it("is the one lib/catalog/cached-pages.ts documents, on both pages (a segment config cannot import it)", async () => {
    const library = await readFile("lib/catalog/cached-pages.ts", "utf8");
    const seconds = Number(/export const CATALOG_PAGE_SECONDS = (\d+);/.exec(library)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    for (const page of ["app/[lang]/page.tsx", "app/[lang]/products/[slug]/page.tsx"]) {
      const source = await readFile(page, "utf8");
      expect(source, page).toContain(`export const revalidate = ${seconds};`);
      // Nothing per request, which would make the page dynamic again.
      expect(source, page).not.toMatch(/export const dynamic|cookies\(|headers\(|searchParams/);
    }
  });
});
