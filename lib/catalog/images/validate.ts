import { fileTypeFromBuffer } from "file-type";
import sharp, { type Metadata } from "sharp";
import { IMAGE_CONTENT_TYPES, type ImageContentType } from "./store";
import type { Refusal } from "../../refusal";

/**
 * What an uploaded product image must be, and what the shop stores of it: every upload (the
 * product form, the gallery, the catalog's import) goes through {@link prepareImage}, which checks
 * it and encodes it again, so that what is stored is what was encoded here, never the uploaded
 * bytes.
 */

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** Stored images fit inside this square: a sharp product photo on any screen, zoomed. */
export const MAX_IMAGE_SIDE = 4000;
/**
 * Pixels an upload may have (width × height), 8000 × 5000: more than any photo that fits in
 * 2 MB needs. Decoding this many takes about 160 MB at most (RGBA) while it is resized.
 */
export const MAX_INPUT_PIXELS = 40_000_000;

export type ImageRefusalCode =
  "image_empty" | "image_too_large" | "image_too_many_pixels" | "unsupported_image" | "image_unreadable";

/** An image refused; the form that sent it names its own field. */
export type ImageRefusal = Refusal<ImageRefusalCode, never> & { status: 400 | 413 | 415 };

export type PreparedImage =
  | {
      ok: true;
      contentType: ImageContentType;
      /** The image to store: re-encoded, upright, within the cap, without metadata. */
      bytes: Uint8Array<ArrayBuffer>;
      width: number;
      height: number;
    }
  | ImageRefusal;

/** sharp's name of each format the shop takes. */
const SHARP_FORMAT = { "image/png": "png", "image/jpeg": "jpeg", "image/webp": "webp" } as const;

const unreadable: ImageRefusal = {
  ok: false,
  status: 400,
  code: "image_unreadable",
  message: "the image could not be read: the file is damaged or incomplete",
};

/**
 * - PNG, JPEG or WebP, told by its bytes (never by the name or the type the browser declares),
 *   and at most MAX_IMAGE_BYTES. SVG is refused whatever it is called: it can carry script, and
 *   the shop serves images from its own origin.
 * - At most MAX_INPUT_PIXELS, read from the header before anything is decoded: a few hundred KB
 *   can declare 20 000 × 20 000 pixels of one colour, gigabytes once decoded (a decompression
 *   bomb), in this server and on every shopper's phone.
 * - Decoded and encoded again with sharp (libvips, as Next's image optimiser), in its own format:
 *   turned upright by its EXIF orientation, fitted inside MAX_IMAGE_SIDE × MAX_IMAGE_SIDE (never
 *   enlarged), converted to sRGB by its ICC profile, and written without any metadata: no EXIF
 *   (a phone's photo carries where it was taken), XMP, IPTC or profile. What is stored is what
 *   was encoded here, never the uploaded bytes: nothing the uploader hid in the file survives.
 * - A file that cannot be decoded (corrupt, truncated) is a 400, never a 500.
 *
 * Encoding the same file again gives the same bytes (libvips is deterministic for a given
 * version), which is what lets the store keep one copy per content and the catalogue's import
 * find a file the shop already has.
 */
export async function prepareImage(bytes: Uint8Array): Promise<PreparedImage> {
  if (bytes.byteLength === 0)
    return { ok: false, status: 400, code: "image_empty", message: "the image file is empty" };
  if (bytes.byteLength > MAX_IMAGE_BYTES)
    return {
      ok: false,
      status: 413,
      code: "image_too_large",
      message: `an image may have at most ${MAX_IMAGE_BYTES} bytes (2 MB)`,
    };
  const sniffed = await fileTypeFromBuffer(bytes);
  const contentType = IMAGE_CONTENT_TYPES.find((type) => type === sniffed?.mime);
  if (!contentType)
    return { ok: false, status: 415, code: "unsupported_image", message: "the image must be a PNG, JPEG or WebP file" };
  const format = SHARP_FORMAT[contentType];

  // The header only: sharp's own pixel limit would refuse a bomb here with an error we could not
  // tell from a damaged file, so it is off for this read and the count is compared below.
  let header: Metadata;
  try {
    header = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return unreadable;
  }
  if (header.format !== format) return unreadable;
  if (header.width * header.height > MAX_INPUT_PIXELS)
    return {
      ok: false,
      status: 413,
      code: "image_too_many_pixels",
      message: `an image may have at most ${MAX_INPUT_PIXELS} pixels (${header.width} × ${header.height} is more)`,
    };

  try {
    const pipeline = sharp(bytes, {
      // Again while decoding, should the header have understated the image.
      limitInputPixels: MAX_INPUT_PIXELS,
      // Damaged or truncated data is refused; a mere warning (extra bytes after the image) is not.
      failOn: "error",
    })
      .autoOrient()
      .resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: "inside", withoutEnlargement: true });
    // No keepMetadata/withMetadata: sharp then writes none, and converts to sRGB first.
    const encoded =
      format === "jpeg"
        ? pipeline.jpeg({ quality: 85 })
        : format === "webp"
          ? pipeline.webp({ quality: 85 })
          : // A palette PNG (≤ 256 colours) stays one, with the same colours; any other keeps its depth.
            pipeline.png({ palette: header.isPalette === true });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { ok: true, contentType, bytes: new Uint8Array(data), width: info.width, height: info.height };
  } catch {
    return unreadable;
  }
}
