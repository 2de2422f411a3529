import sharp from "sharp";

/**
 * Real images for the tests, made with sharp when a test runs (no binary fixture in the
 * repository): the shop decodes and re-encodes every upload (lib/catalog/images/validate.ts), so a file
 * that only starts like an image is refused as unreadable.
 */

export type Colour = [number, number, number];

export const randomColour = (): Colour => [0, 0, 0].map(() => Math.floor(Math.random() * 256)) as Colour;

export interface TestImageOptions {
  width?: number;
  height?: number;
  colour?: Colour;
  /**
   * A second colour for the right half, so that which way is up can be seen in the pixels: the
   * stored image's left and right halves (or, turned, its top and bottom) differ.
   */
  rightHalf?: Colour;
  /** EXIF written into the file, as a phone does: its make, GPS position and orientation (1 to 8). */
  exif?: { gps?: boolean; orientation?: number };
}

const background = ([r, g, b]: Colour) => ({ r, g, b });

function draw(options: TestImageOptions) {
  const { width = 4, height = 3, colour = randomColour(), rightHalf, exif } = options;
  let image = sharp({ create: { width, height, channels: 3, background: background(colour) } });
  if (rightHalf)
    image = image.composite([
      {
        input: { create: { width: Math.ceil(width / 2), height, channels: 3, background: background(rightHalf) } },
        left: Math.floor(width / 2),
        top: 0,
      },
    ]);
  if (exif?.gps)
    image = image.withExif({
      IFD0: { Make: "Test Phone", Model: "Camera" },
      // IFD3 is the GPS directory: 8° 50′ S, 13° 14′ E (Luanda).
      IFD3: { GPSLatitudeRef: "S", GPSLatitude: "8/1 50/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "13/1 14/1 0/1" },
    });
  if (exif?.orientation) image = image.withMetadata({ orientation: exif.orientation });
  return image;
}

/** A PNG, by default 4 × 3 of a random colour: a different colour is a different image (and id). */
export const testPng = (options: TestImageOptions = {}) => draw(options).png().toBuffer();
export const testJpeg = (options: TestImageOptions = {}) => draw(options).jpeg().toBuffer();
export const testWebp = (options: TestImageOptions = {}) => draw(options).webp({ lossless: true }).toBuffer();

/**
 * A decompression bomb: a PNG of `side` × `side` pixels of one colour (10 000 × 10 000 is 100
 * megapixels, 300 MB decoded) that compresses to about 300 KB, well under the 2 MB an upload may have.
 */
export const pixelBombPng = (side = 10_000) =>
  sharp({ create: { width: side, height: side, channels: 3, background: "#ffffff" }, limitInputPixels: false })
    .png({ compressionLevel: 9 })
    .toBuffer();

/** Whether the file's EXIF has a GPS directory (its pointer, tag 0x8825, in either byte order). */
export async function hasGpsExif(bytes: Uint8Array): Promise<boolean> {
  const { exif } = await sharp(bytes).metadata();
  if (!exif) return false;
  const littleEndian = exif.includes(Buffer.from("II*\0", "latin1"));
  return exif.includes(Buffer.from(littleEndian ? [0x25, 0x88] : [0x88, 0x25]));
}

/** The colour of one pixel of an image, as it is decoded. */
export async function pixelAt(bytes: Uint8Array, x: number, y: number): Promise<Colour> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

/** Whether two colours are the same but for what a lossy encoding changes. */
export const nearColour = (a: Colour, b: Colour, tolerance = 24) =>
  a.every((channel, i) => Math.abs(channel - b[i]!) <= tolerance);
