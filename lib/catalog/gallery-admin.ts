import "server-only";
import { z } from "zod";
import type { Database } from "../db/client";
import { Rollback, rolledBack, type Refusal } from "../refusal";
import { GALLERY_LIMITS, legacyGallery, replaceGallery, type GalleryImage } from "./gallery";
import { Prisma } from "../generated/prisma/client";
import type { ImageStore } from "./images/store";
import { prepareImage } from "./images/validate";
import { invalidInput } from "../text-input";
import { isUuid } from "../uuid";
import { productSubject, recordStaffEvent, type Actor, type StaffEventKind } from "../admin/staff-events";
import { altSchema, GALLERY_FIELDS, type GalleryDone, type GalleryError, type GalleryField } from "./gallery-rules";

/**
 * A product's gallery in the back office (the "Images" part of /admin/products/<id>), without the
 * web: add an image with its text alternative, change an image's text, move an image, remove one
 * (the last one too: the product then shows the shop's placeholder). Two admins may change the
 * same gallery at once: every change locks the product's row first and names images by their id,
 * so an image another admin removed meanwhile is 409 image_gone, never a silent loss. Each change
 * is recorded (lib/admin/staff-events.ts) on the product's subject, in its transaction.
 */

/** An uploaded file, as the route read it; absent or empty when the form had none. */
export interface ImageUpload {
  bytes: Uint8Array<ArrayBuffer>;
}

export interface AdminGalleryImage {
  id: string;
  path: string;
  alt: string;
}

export type GalleryRefusal = Refusal<GalleryError | "not_found", GalleryField> & {
  status: 400 | 404 | 409 | 413 | 415;
};
export type GalleryResult = { ok: true; done: GalleryDone; gallery: AdminGalleryImage[] } | GalleryRefusal;

const altInput = z.object({ alt: altSchema });
const moveInput = z.object({ direction: z.enum(["up", "down"], { error: "must be up or down" }) });

const notFound: GalleryRefusal = { ok: false, status: 404, code: "not_found", message: "no such product" };
const imageGone: GalleryRefusal = {
  ok: false,
  status: 409,
  code: "image_gone",
  message: "this image is no longer in the gallery (another change removed it); nothing was changed",
};

const invalid = (error: z.ZodError): GalleryRefusal => invalidInput(error, GALLERY_FIELDS);

const galleryFields = { id: true, path: true, alt: true } as const;

/**
 * Locks the product's row and reads its gallery as it is now, for a change in this transaction:
 * null for an unknown product. A product without gallery rows has lib/catalog/gallery.ts legacyGallery's.
 */
export async function lockedGallery(
  tx: Prisma.TransactionClient,
  productId: string,
): Promise<(GalleryImage & { id?: string })[] | null> {
  const [product] = await tx.$queryRaw<{ imagePath: string; name: string }[]>(
    Prisma.sql`SELECT image_path AS "imagePath", name FROM products WHERE id = ${productId}::uuid FOR UPDATE`,
  );
  if (!product) return null;
  const rows = await tx.galleryImage.findMany({
    where: { productId },
    orderBy: { position: "asc" },
    select: galleryFields,
  });
  return rows.length > 0 ? rows : legacyGallery(product);
}

const readGallery = (db: Pick<Database, "galleryImage">, productId: string): Promise<AdminGalleryImage[]> =>
  db.galleryImage.findMany({ where: { productId }, orderBy: { position: "asc" }, select: galleryFields });

/**
 * The gallery of /admin/products/<id>, each image with the id its forms post. A product without
 * gallery rows gets its one image as its first row here, so that it has an id like the others.
 */
export async function adminGallery(db: Database, productId: string): Promise<AdminGalleryImage[]> {
  if (!isUuid(productId)) return [];
  const rows = await readGallery(db, productId);
  if (rows.length > 0) return rows;
  return db.$transaction(async (tx) => {
    const images = await lockedGallery(tx, productId);
    const adopted = images?.[0];
    if (adopted && !adopted.id)
      await tx.galleryImage.create({ data: { productId, position: 0, path: adopted.path, alt: adopted.alt } });
    return readGallery(tx, productId);
  });
}

export interface GalleryDeps {
  db: Database;
  images: ImageStore;
}

/** Adds an image (checked and re-encoded by lib/catalog/images/validate.ts) with its text alternative, last in the gallery. */
export async function addGalleryImage(
  productId: string,
  input: unknown,
  image: ImageUpload | undefined,
  actor: Actor,
  deps: GalleryDeps,
): Promise<GalleryResult> {
  if (!isUuid(productId)) return notFound;
  const parsed = altInput.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  if (!image || image.bytes.byteLength === 0)
    return { ok: false, status: 400, code: "image_required", message: "choose an image to add", field: "image" };
  const prepared = await prepareImage(image.bytes);
  if (!prepared.ok) return { ...prepared, field: "image" };
  if (!(await deps.db.product.findUnique({ where: { id: productId }, select: { id: true } }))) return notFound;
  try {
    return await deps.db.$transaction(async (tx): Promise<GalleryResult> => {
      const images = await lockedGallery(tx, productId);
      if (!images) return notFound;
      // In this transaction: a refusal below rolls it back, and leaves no image behind.
      const { path } = await deps.images.put(prepared.bytes, prepared.contentType, tx);
      if (images.some((existing) => existing.path === path))
        throw new Rollback({
          ok: false,
          status: 409,
          code: "duplicate_image",
          message: "this image is already in the gallery",
          field: "image",
        });
      if (images.length >= GALLERY_LIMITS.imagesMax)
        throw new Rollback({
          ok: false,
          status: 409,
          code: "gallery_full",
          message: `a gallery has at most ${GALLERY_LIMITS.imagesMax} images; remove one first`,
        });
      await replaceGallery(tx, productId, [...images, { path, alt: parsed.data.alt }]);
      const gallery = await readGallery(tx, productId);
      await recordStaffEvent(tx, actor, {
        kind: "gallery.add",
        subject: productSubject(productId),
        details: { imageId: gallery.at(-1)?.id, path, alt: parsed.data.alt },
      });
      return { ok: true, done: "added", gallery };
    });
  } catch (error) {
    const refused = rolledBack<GalleryRefusal>(error);
    if (refused) return refused;
    throw error;
  }
}

/** Changes one image's text alternative. */
export async function saveGalleryAlt(
  productId: string,
  imageId: string,
  input: unknown,
  actor: Actor,
  { db }: { db: Database },
): Promise<GalleryResult> {
  if (!isUuid(productId)) return notFound;
  const parsed = altInput.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { alt } = parsed.data;
  return change(db, actor, productId, imageId, async (tx, images) => {
    const image = images.find((candidate) => candidate.id === imageId);
    if (!image) return imageGone;
    await tx.galleryImage.update({ where: { id: imageId }, data: { alt } });
    return {
      done: "alt_saved",
      details: image.alt === alt ? undefined : { imageId, alt: { from: image.alt, to: alt } },
    };
  });
}

/** Moves one image a place up (towards the first, the card's image) or down. */
export async function moveGalleryImage(
  productId: string,
  imageId: string,
  input: unknown,
  actor: Actor,
  { db }: { db: Database },
): Promise<GalleryResult> {
  if (!isUuid(productId)) return notFound;
  const parsed = moveInput.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  return change(db, actor, productId, imageId, async (tx, images) => {
    const index = images.findIndex((image) => image.id === imageId);
    if (index === -1) return imageGone;
    const target = parsed.data.direction === "up" ? index - 1 : index + 1;
    const moved = images[index];
    const other = images[target];
    if (!moved || !other)
      return {
        ok: false,
        status: 409,
        code: "cannot_move",
        message: `the image is already the ${parsed.data.direction === "up" ? "first" : "last"}`,
        field: "direction",
      };
    const order = [...images];
    order[target] = moved;
    order[index] = other;
    await replaceGallery(tx, productId, order);
    // Positions as the page counts them, from 1 (the card's image).
    return { done: "moved", details: { imageId, direction: parsed.data.direction, from: index + 1, to: target + 1 } };
  });
}

/** Removes one image from the gallery, the last one too. */
export async function removeGalleryImage(
  productId: string,
  imageId: string,
  actor: Actor,
  { db }: { db: Database },
): Promise<GalleryResult> {
  if (!isUuid(productId)) return notFound;
  return change(db, actor, productId, imageId, async (tx, images) => {
    const image = images.find((candidate) => candidate.id === imageId);
    if (!image) return imageGone;
    await replaceGallery(
      tx,
      productId,
      images.filter((other) => other.id !== imageId),
    );
    return { done: "removed", details: { imageId, path: image.path, alt: image.alt } };
  });
}

/** The event each change of one image is recorded as. */
const CHANGE_EVENTS: Record<Exclude<GalleryDone, "added">, StaffEventKind> = {
  alt_saved: "gallery.update",
  moved: "gallery.move",
  removed: "gallery.delete",
};

/**
 * A change of one image, under the product's lock, applied to the gallery as it is now, and
 * recorded with the details `apply` gives (none: it changed nothing, so nothing is recorded).
 */
async function change(
  db: Database,
  actor: Actor,
  productId: string,
  imageId: string,
  apply: (
    tx: Prisma.TransactionClient,
    images: (GalleryImage & { id?: string })[],
  ) => Promise<{ done: keyof typeof CHANGE_EVENTS; details?: Record<string, unknown> } | GalleryRefusal>,
): Promise<GalleryResult> {
  return db.$transaction(async (tx): Promise<GalleryResult> => {
    const images = await lockedGallery(tx, productId);
    if (!images) return notFound;
    // A malformed id names no image either.
    if (!isUuid(imageId)) return imageGone;
    const outcome = await apply(tx, images);
    if ("ok" in outcome) return outcome;
    if (outcome.details)
      await recordStaffEvent(tx, actor, {
        kind: CHANGE_EVENTS[outcome.done],
        subject: productSubject(productId),
        details: outcome.details,
      });
    return { ok: true, done: outcome.done, gallery: await readGallery(tx, productId) };
  });
}
