/**
 * Where the back office's product images live. One interface, so that a Blob store (Vercel Blob,
 * S3) can replace the PostgreSQL one (./postgres-store.ts) without touching the rest of the shop:
 * `put` stores bytes already validated (./validate.ts) and answers the path the shop serves them
 * at; `get` reads them back for that path. Stored images never change: a new image is a new id.
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

export interface ImageStore {
  put(bytes: Uint8Array<ArrayBuffer>, contentType: ImageContentType): Promise<StoredImage>;
  /** null for an id the store does not have. */
  get(id: string): Promise<ImageContent | null>;
}

/** The route that serves stored images (app/api/images/[id]/route.ts). */
export const imagePath = (id: string) => `/api/images/${id}`;
