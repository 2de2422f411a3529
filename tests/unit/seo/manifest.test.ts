import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import manifest from "@/app/manifest";
import { pt } from "@/lib/i18n/dictionaries";

// The web app manifest: a phone can add the shop to its home screen with the shop's name, its
// colour and icons it can draw at every size it asks for, the maskable one included.

const publicFile = (src: string) => new URL(`../../../public${src}`, import.meta.url);

describe("the web app manifest", () => {
  const app = manifest();

  it("names the shop, starts at its home and opens as an app", () => {
    expect(app).toMatchObject({
      name: pt.shop.name,
      short_name: pt.shop.name,
      start_url: "/",
      scope: "/",
      display: "standalone",
      theme_color: "#9a3412",
    });
    // A home screen label is cut past about 12 characters.
    expect(app.short_name!.length).toBeLessThanOrEqual(12);
  });

  it("has PNG icons of 192 and 512 pixels, and a maskable one, each the size it says", async () => {
    const icons = app.icons ?? [];
    expect(icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
      "192x192 any",
      "512x512 any",
      "512x512 maskable",
    ]);
    for (const icon of icons) {
      const meta = await sharp(await readFile(publicFile(icon.src))).metadata();
      expect(`${meta.format} ${meta.width}x${meta.height}`, icon.src).toBe(`png ${icon.sizes}`);
    }
  });

  it("draws the maskable icon's background to its edges, so a round mask cuts no transparent corner", async () => {
    const maskable = app.icons!.find((icon) => icon.purpose === "maskable")!;
    const { data, info } = await sharp(await readFile(publicFile(maskable.src)))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3];
    for (const [x, y] of [
      [0, 0],
      [info.width - 1, 0],
      [0, info.height - 1],
      [info.width - 1, info.height - 1],
    ] as const) {
      expect(alphaAt(x, y), `alpha at ${x},${y}`).toBe(255);
    }
  });
});
