import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
  MAX_INPUT_PIXELS,
  prepareImage,
  type PreparedImage,
} from "@/lib/catalog/images/validate";
import {
  hasGpsExif,
  nearColour,
  pixelAt,
  pixelBombPng,
  testJpeg,
  testPng,
  testWebp,
  type Colour,
} from "../../../harness/support/images";

// What the shop makes of an uploaded image (lib/catalog/images/validate.ts prepareImage): refused with a
// clear 4xx, or re-encoded in its own format, upright, within the cap and without metadata.

const RED: Colour = [220, 20, 20];
const BLUE: Colour = [20, 20, 220];

function accepted(result: PreparedImage) {
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
  return result as Extract<PreparedImage, { ok: true }>;
}

/** A 1 × 1 PNG whose header declares `width` × `height`: its header reads well, its pixels never decode. */
async function declaredPng(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await testPng({ width: 1, height: 1 }));
  // IHDR's data (width, height, …) at 16..29, after the signature, its length and its type; then its CRC.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

const refusal = (result: PreparedImage) => (result.ok ? { ok: true } : { status: result.status, code: result.code });

describe("accepted images", () => {
  it.each([
    ["PNG", testPng, "image/png", "png"],
    ["JPEG", testJpeg, "image/jpeg", "jpeg"],
    ["WebP", testWebp, "image/webp", "webp"],
  ] as const)("a %s stays a %s, re-encoded the same way every time", async (_name, make, contentType, format) => {
    const upload = await make({ width: 30, height: 20, colour: RED });
    const first = accepted(await prepareImage(upload));
    expect(first).toMatchObject({ contentType, width: 30, height: 20 });
    expect(await sharp(first.bytes).metadata()).toMatchObject({ format, width: 30, height: 20 });
    expect(nearColour(await pixelAt(first.bytes, 15, 10), RED)).toBe(true);
    // The store keeps one copy per content: the same upload must give the same bytes.
    const second = accepted(await prepareImage(upload));
    expect(Buffer.from(second.bytes).equals(first.bytes)).toBe(true);
  });

  it("a phone's JPEG loses its EXIF (the GPS position with it) and is turned upright by its orientation", async () => {
    // Red left, blue right, orientation 6: a viewer shows it turned a quarter clockwise, red on top.
    const photo = await testJpeg({
      width: 60,
      height: 40,
      colour: RED,
      rightHalf: BLUE,
      exif: { gps: true, orientation: 6 },
    });
    expect(await hasGpsExif(photo)).toBe(true);
    const prepared = accepted(await prepareImage(photo));
    const metadata = await sharp(prepared.bytes).metadata();
    expect(metadata).toMatchObject({ format: "jpeg", width: 40, height: 60 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(await hasGpsExif(prepared.bytes)).toBe(false);
    expect(nearColour(await pixelAt(prepared.bytes, 20, 5), RED)).toBe(true);
    expect(nearColour(await pixelAt(prepared.bytes, 20, 55), BLUE)).toBe(true);
  });

  it("keeps no ICC profile: a Display P3 photo is converted to sRGB, its colours kept", async () => {
    // sharp converts the sRGB colour into P3 to write the file; the shop converts it back.
    const colour: Colour = [200, 100, 50];
    const p3 = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 100, b: 50 } } })
      .withIccProfile("p3")
      .jpeg({ quality: 100 })
      .toBuffer();
    expect((await sharp(p3).metadata()).icc).toBeDefined();
    expect(nearColour(await pixelAt(await sharp(p3, { ignoreIcc: true }).png().toBuffer(), 4, 4), colour, 5)).toBe(
      false,
    );
    const prepared = accepted(await prepareImage(p3));
    expect((await sharp(prepared.bytes).metadata()).icc).toBeUndefined();
    expect(nearColour(await pixelAt(prepared.bytes, 4, 4), colour, 6)).toBe(true);
  });

  it(`fits inside ${MAX_IMAGE_SIDE} × ${MAX_IMAGE_SIDE}, its proportions kept, and never enlarges`, async () => {
    expect(accepted(await prepareImage(await testJpeg({ width: 6000, height: 3000 })))).toMatchObject({
      width: MAX_IMAGE_SIDE,
      height: 2000,
    });
    expect(accepted(await prepareImage(await testPng({ width: 1000, height: 5000 })))).toMatchObject({
      width: 800,
      height: MAX_IMAGE_SIDE,
    });
    expect(accepted(await prepareImage(await testPng({ width: 4000, height: 40 })))).toMatchObject({
      width: 4000,
      height: 40,
    });
    expect(accepted(await prepareImage(await testWebp({ width: 3, height: 2 })))).toMatchObject({
      width: 3,
      height: 2,
    });
  });

  it("keeps transparency, and a palette PNG stays a palette PNG with its colours", async () => {
    const translucent = await sharp({
      create: { width: 6, height: 4, channels: 4, background: { r: 0, g: 200, b: 0, alpha: 0.5 } },
    });
    for (const upload of [await translucent.clone().png().toBuffer(), await translucent.clone().webp().toBuffer()]) {
      const prepared = accepted(await prepareImage(upload));
      expect((await sharp(prepared.bytes).metadata()).hasAlpha).toBe(true);
    }
    const palette = await sharp({ create: { width: 20, height: 10, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .composite([
        { input: { create: { width: 10, height: 10, channels: 3, background: "#fa6407" } }, left: 10, top: 0 },
      ])
      .png({ palette: true })
      .toBuffer();
    const prepared = accepted(await prepareImage(palette));
    expect((await sharp(prepared.bytes).metadata()).isPalette).toBe(true);
    expect(await sharp(prepared.bytes).raw().toBuffer()).toEqual(await sharp(palette).raw().toBuffer());
  });
});

describe("refused images", () => {
  it("a pixel bomb, a few hundred KB declaring 10 000 × 10 000: 413 image_too_many_pixels", async () => {
    const bomb = await pixelBombPng();
    expect(bomb.byteLength).toBeLessThan(MAX_IMAGE_BYTES);
    expect(refusal(await prepareImage(bomb))).toEqual({ status: 413, code: "image_too_many_pixels" });
    // At the limit, the header passes (this one's pixels then fail to decode); one row more does not.
    expect(refusal(await prepareImage(await declaredPng(8000, 5000)))).toEqual({
      status: 400,
      code: "image_unreadable",
    });
    expect(refusal(await prepareImage(await declaredPng(8000, 5001)))).toEqual({
      status: 413,
      code: "image_too_many_pixels",
    });
  });

  it("what starts like an image but does not decode: 400 image_unreadable", async () => {
    const jpeg = await testJpeg({ width: 200, height: 100 });
    const png = await testPng({ width: 200, height: 100 });
    for (const broken of [
      // The JPEG signature and nothing of an image after it.
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("no image here")]),
      // WebP's RIFF header, with a body that is not one.
      Buffer.concat([Buffer.from("RIFF\x24\x00\x00\x00WEBPVP8 ", "latin1"), Buffer.from("no image here")]),
      jpeg.subarray(0, jpeg.byteLength / 2),
      png.subarray(0, png.byteLength - 20),
    ])
      expect(refusal(await prepareImage(broken))).toEqual({ status: 400, code: "image_unreadable" });
  });

  it("SVG and text: 415 unsupported_image; empty: 400; more than 2 MB: 413", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(refusal(await prepareImage(svg))).toEqual({ status: 415, code: "unsupported_image" });
    expect(refusal(await prepareImage(Buffer.from("just text")))).toEqual({ status: 415, code: "unsupported_image" });
    expect(refusal(await prepareImage(new Uint8Array()))).toEqual({ status: 400, code: "image_empty" });
    const big = Buffer.concat([await testPng(), Buffer.alloc(MAX_IMAGE_BYTES)]);
    expect(refusal(await prepareImage(big))).toEqual({ status: 413, code: "image_too_large" });
  });
});
