import type { Database } from "../db/client";
import type { Prisma } from "../generated/prisma/client";

/**
 * A product's gallery: its images in order, each with the text alternative the back office and
 * the CSV import require. The first image is also products.image_path (what the product card, the
 * cart and the sitemap show), and {@link replaceGallery} keeps the two together. A product may
 * have no image at all (a catalogue imported before its photos): its gallery is empty, its
 * image_path {@link NO_IMAGE}, and the shop shows a placeholder (components/catalog/product-image.tsx).
 */

export const GALLERY_LIMITS = {
  /** As many as Next.js Commerce's gallery shows. */
  imagesMax: 20,
  altMax: 300,
} as const;

export interface GalleryImage {
  path: string;
  alt: string;
}

/**
 * products.image_path of a product without an image. Not NULL: the column stays NOT NULL, so the
 * release before this one, still serving while this one rolls out, reads every row it can.
 */
export const NO_IMAGE = "";

/** The image a product or variant shows, null for none (image_path {@link NO_IMAGE}). */
export const shownImage = (path: string | null | undefined): string | null =>
  path === null || path === undefined || path === NO_IMAGE ? null : path;

/**
 * The gallery of a product without gallery rows: the one image of a product created by a release
 * before galleries, described by its name as the migration described the others; none for a
 * product without an image.
 */
export const legacyGallery = (product: { imagePath: string | null; name: string }): GalleryImage[] => {
  const path = shownImage(product.imagePath);
  return path === null ? [] : [{ path, alt: product.name.slice(0, GALLERY_LIMITS.altMax) }];
};

/** A product's gallery in order, empty for a product without an image. */
export async function productGallery(
  db: Pick<Database, "galleryImage">,
  product: { id: string; image: string | null; name: string },
): Promise<GalleryImage[]> {
  const rows = await db.galleryImage.findMany({
    where: { productId: product.id },
    orderBy: { position: "asc" },
    select: { path: true, alt: true },
  });
  return rows.length > 0 ? rows : legacyGallery({ imagePath: product.image, name: product.name });
}

/**
 * Makes `images` the product's gallery, in this order, and the first its card's image (none:
 * {@link NO_IMAGE}): one transaction's work, so callers pass theirs. Rows are replaced, not moved, so the
 * unique (product, position) never stands in the way of a new order. An image given with its row's
 * `id` keeps it: the back office addresses images by id (lib/catalog/gallery-admin.ts).
 */
export async function replaceGallery(
  tx: Prisma.TransactionClient,
  productId: string,
  images: readonly (GalleryImage & { id?: string })[],
): Promise<void> {
  if (images.length > GALLERY_LIMITS.imagesMax)
    throw new Error(`a gallery has at most ${GALLERY_LIMITS.imagesMax} images`);
  await tx.galleryImage.deleteMany({ where: { productId } });
  await tx.galleryImage.createMany({
    data: images.map((image, position) => ({
      ...(image.id ? { id: image.id } : {}),
      productId,
      position,
      path: image.path,
      alt: image.alt,
    })),
  });
  await tx.product.update({ where: { id: productId }, data: { imagePath: images[0]?.path ?? NO_IMAGE } });
}
