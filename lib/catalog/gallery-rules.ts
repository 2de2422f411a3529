import { requiredText } from "../text-input";
import { GALLERY_LIMITS } from "./gallery";

/**
 * What the back office's gallery answers and accepts: its outcomes, refusal codes and form
 * fields, the query parameters of its flash, and an image's text alternative. No database, so the
 * product form and the pages read them too.
 */

export const GALLERY_DONE = ["added", "alt_saved", "moved", "removed"] as const;
export type GalleryDone = (typeof GALLERY_DONE)[number];
export const GALLERY_ERRORS = [
  "invalid_input",
  "image_required",
  "image_empty",
  "image_too_large",
  "image_too_many_pixels",
  "unsupported_image",
  "image_unreadable",
  "duplicate_image",
  "gallery_full",
  "image_gone",
  "cannot_move",
] as const;
export type GalleryError = (typeof GALLERY_ERRORS)[number];
export const GALLERY_FIELDS = ["image", "alt", "direction"] as const;
export type GalleryField = (typeof GALLERY_FIELDS)[number];

/** An image's text alternative: what a screen reader says instead of showing it. */
export const altSchema = requiredText(GALLERY_LIMITS.altMax);

/**
 * The query parameters of the gallery's flash on the product's page, apart from the product
 * form's (?done=, ?error=), and the section a form goes back to.
 */
export const GALLERY_FLASH = {
  done: "gallery",
  error: "galleryError",
  field: "galleryField",
  hash: "#gallery",
} as const;
