import { fileTypeFromBuffer } from "file-type";
import { IMAGE_CONTENT_TYPES, type ImageContentType } from "./store";

/**
 * What an uploaded product image must be: PNG, JPEG or WebP, told by its bytes (never by the
 * name or the type the browser declares), and at most MAX_IMAGE_BYTES. SVG is refused whatever
 * it is called: it can carry script, and the shop serves images from its own origin.
 */

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

export type ImageCheck =
  | { ok: true; contentType: ImageContentType }
  | {
      ok: false;
      status: 400 | 413 | 415;
      code: "image_empty" | "image_too_large" | "unsupported_image";
      message: string;
    };

export async function checkImage(bytes: Uint8Array): Promise<ImageCheck> {
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
  return { ok: true, contentType };
}
