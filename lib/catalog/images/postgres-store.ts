import "server-only";
import { createHash } from "node:crypto";
import type { Database } from "../../db/client";
import { isUuid } from "../../uuid";
import { IMAGE_CONTENT_TYPES, imagePath, type ImageStore } from "./store";

/**
 * Images in the shop's own PostgreSQL (the product_images table): every deployment, serverless or
 * not, serves them without a file system or another service. Fine for a small shop's few hundred
 * images, each re-encoded within 4000 × 4000 (./validate.ts); a larger one puts a Blob store
 * behind the same interface. One row per content (the SHA-256 of the stored, re-encoded bytes):
 * storing the same image again answers the first row. `put` writes in the caller's transaction,
 * so the row exists only if the change that names it commits.
 */
export function postgresImageStore(db: Database): ImageStore {
  return {
    async put(bytes, contentType, tx) {
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      await tx.productImage.createMany({
        data: [{ contentType, bytes, byteSize: bytes.byteLength, sha256 }],
        skipDuplicates: true,
      });
      const { id } = await tx.productImage.findUniqueOrThrow({ where: { sha256 }, select: { id: true } });
      return { id, path: imagePath(id) };
    },
    async get(id) {
      if (!isUuid(id)) return null;
      const row = await db.productImage.findUnique({
        where: { id },
        select: { contentType: true, bytes: true, sha256: true },
      });
      const contentType = IMAGE_CONTENT_TYPES.find((type) => type === row?.contentType);
      return row && contentType ? { contentType, bytes: row.bytes, sha256: row.sha256 } : null;
    },
  };
}
