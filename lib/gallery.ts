import type { Database } from "./db/client";
import type { Prisma } from "./generated/prisma/client";

/**
 * A product's gallery: its images in order, each with the text alternative the back office and
 * the CSV import require. The first image is also products.image_path (what the product card, the
 * cart and the sitemap show), and {@link replaceGallery} keeps the two together.
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

/** A product's gallery in order; a product without gallery rows (written by an older release) shows its one image. */
export async function productGallery(
  db: Pick<Database, "galleryImage">,
  product: { id: string; image: string; name: string },
): Promise<GalleryImage[]> {
  const rows = await db.galleryImage.findMany({
    where: { productId: product.id },
    orderBy: { position: "asc" },
    select: { path: true, alt: true },
  });
  return rows.length > 0 ? rows : [{ path: product.image, alt: product.name }];
}

/**
 * Makes `images` (at least one) the product's gallery, in this order, and the first its card's
 * image: one transaction's work, so callers pass theirs. Rows are replaced, not moved, so the
 * unique (product, position) never stands in the way of a new order. An image given with its row's
 * `id` keeps it: the back office addresses images by id (lib/admin/gallery.ts).
 */
export async function replaceGallery(
  tx: Prisma.TransactionClient,
  productId: string,
  images: readonly (GalleryImage & { id?: string })[],
): Promise<void> {
  if (images.length === 0) throw new Error("a gallery has at least one image");
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
  await tx.product.update({ where: { id: productId }, data: { imagePath: images[0]!.path } });
}
