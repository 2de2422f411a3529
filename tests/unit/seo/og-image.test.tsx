import { readFile } from "node:fs/promises";
import { ImageResponse } from "next/og";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OG_IMAGE_SIZE, ogCardImage, ogText } from "@/lib/http/og-image";

// The Open Graph cards (lib/http/og-image.tsx) must render with no network: next/og fetches a font
// from Google Fonts, or an emoji from a CDN, for any character its own font lacks. The spy only
// counts the calls (next/og loads its WebAssembly from a data: URL with fetch); none may leave the machine.

const fetchSpy = () => vi.spyOn(globalThis, "fetch");
const networkCalls = (spy: ReturnType<typeof fetchSpy>) =>
  spy.mock.calls
    .map(([input]) => String(input instanceof Request ? input.url : input))
    .filter((url) => !url.startsWith("data:"));

/** The PNG's width and height, from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

afterEach(() => vi.restoreAllMocks());

describe("ogText", () => {
  it("keeps Portuguese, prices in kwanza and typographic punctuation as they are", () => {
    expect(ogText("Café de Angola — “torrado”, 1 kg")).toBe("Café de Angola — “torrado”, 1 kg");
    expect(ogText("12\u00a0500\u00a0Kz")).toBe("12\u00a0500\u00a0Kz");
  });

  it("drops what the font cannot draw, keeps a plain letter for an accented one it lacks, and tidies spaces", () => {
    expect(ogText("Mel ☕🍯 do  Huambo\n漢字")).toBe("Mel do Huambo");
    expect(ogText("ǹ ẁ")).toBe("n w");
    expect(ogText("\u202f12\u2009500 Kz\t")).toBe("12 500 Kz");
  });
});

describe("ogCardImage", () => {
  it("is a 1200×630 PNG", async () => {
    const response = ogCardImage({
      shop: "Loja Kwanza",
      title: "Café de Angola torrado, 1 kg",
      detail: "8\u00a0500\u00a0Kz",
    });
    expect(response.headers.get("content-type")).toBe("image/png");
    // The route's Cache-Control is Next's, from its `revalidate`.
    expect(response.headers.get("cache-control")).toBeNull();
    expect(pngSize(Buffer.from(await response.arrayBuffer()))).toEqual(OG_IMAGE_SIZE);
  });

  it("asks the network for nothing, whatever the names hold", async () => {
    const spy = fetchSpy();
    const response = ogCardImage({
      shop: "Loja 🛒 Kwanza",
      kicker: "Категория ☕",
      title: "Máscara Mwana Pwo 漢字 🎭 ﷺ ʘ",
      detail: "12\u00a0500\u00a0Kz",
    });
    await response.arrayBuffer();
    expect(networkCalls(spy)).toEqual([]);
  });

  it("keeps only characters next/og's own font draws (none needs a font from elsewhere)", async () => {
    let every = "";
    for (let code = 0x20; code < 0x3000; code++) every += String.fromCodePoint(code);
    const kept = ogText(every);
    expect(kept.length).toBeGreaterThan(300);
    const spy = fetchSpy();
    // All of it on the picture (the card clamps its title, and next/og looks only at what it lays out).
    const all = <div style={{ display: "flex", flexWrap: "wrap", fontSize: 8 }}>{kept}</div>;
    await new ImageResponse(all, OG_IMAGE_SIZE).arrayBuffer();
    expect(networkCalls(spy)).toEqual([]);
  });
});

describe("the opengraph-image routes", () => {
  const ROUTES = [
    "app/[lang]/(shop)/products/[slug]/opengraph-image.tsx",
    "app/[lang]/(shop)/categories/[slug]/opengraph-image.tsx",
  ];

  it("expire with the pages (CATALOG_PAGE_SECONDS) and declare the card's size, nothing per request", async () => {
    const library = await readFile("lib/catalog/cached-pages.ts", "utf8");
    const seconds = Number(/export const CATALOG_PAGE_SECONDS = (\d+);/.exec(library)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    for (const route of ROUTES) {
      const source = await readFile(route, "utf8");
      expect(source, route).toContain(`export const revalidate = ${seconds};`);
      expect(source, route).toContain(
        `export const size = { width: ${OG_IMAGE_SIZE.width}, height: ${OG_IMAGE_SIZE.height} };`,
      );
      expect(source, route).not.toMatch(/export const dynamic|cookies\(|headers\(/);
    }
  });
});
