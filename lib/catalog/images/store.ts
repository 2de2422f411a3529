import type { Prisma } from "../../generated/prisma/client";

/**
 * Where the back office's product images live: one interface, so that a Blob store (Vercel Blob,
 * S3) can replace the PostgreSQL one (./postgres-store.ts) without touching the rest of the shop.
 * Stored images never change: a new image is a new id, the same content stored again the same id.
 * Images a product no longer shows are kept: past orders sent their address to the payment
 * service, and a catalog export may still name them.
 */

export const IMAGE_CONTENT_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number];

export interface StoredImage {
  id: string;
  /** Where the shop serves it: what products.image_path holds (e.g. /api/images/<id>). */
  path: string;
}

export interface ImageContent {
  contentType: ImageContentType;
  bytes: Uint8Array<ArrayBuffer>;
  /** Hex SHA-256 of the bytes (the ETag). */
  sha256: string;
}

/**
 * An image is stored in the transaction of the change that names it (the product form, the
 * gallery, the catalog's import), so that a change refused or failed leaves no image behind. The
 * PostgreSQL store writes its row in that transaction. A Blob store cannot take part in a database
 * transaction; it would write, in that same transaction, a row recording the blob (its address and
 * SHA-256, what dedupes), and delete on a schedule the blobs that no row records once they are a
 * day old: the uploads of changes that did not happen, and nothing else.
 */
export interface ImageStore {
  /**
   * Stores `bytes` (prepareImage's, never an upload as it came) as part of `tx`, the transaction
   * of the change that will name it: rolled back, it leaves nothing. The same bytes again answer
   * the image already stored, at the path the shop serves it at.
   */
  put(
    bytes: Uint8Array<ArrayBuffer>,
    contentType: ImageContentType,
    tx: Prisma.TransactionClient,
  ): Promise<StoredImage>;
  /** null for an id the store does not have. */
  get(id: string): Promise<ImageContent | null>;
}

/** The route that serves stored images (app/api/images/[id]/route.ts). */
export const IMAGE_PATH_PREFIX = "/api/images/";
export const imagePath = (id: string) => `${IMAGE_PATH_PREFIX}${id}`;
