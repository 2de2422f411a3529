import "server-only";
import { createHash } from "node:crypto";
import type { Database } from "../db/client";
import { isUuid } from "../uuid";
import { IMAGE_CONTENT_TYPES, imagePath, type ImageStore } from "./store";

/**
 * Images in the shop's own PostgreSQL (the product_images table): every deployment, serverless or
 * not, serves them without a file system or another service. Fine for a small shop's few hundred
 * images of at most 2 MB; a larger one puts a Blob store behind the same interface. One row per
 * content: uploading the same file again answers the first row.
 */
export function postgresImageStore(db: Database): ImageStore {
  return {
    async put(bytes, contentType) {
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      await db.productImage.createMany({
        data: [{ contentType, bytes, byteSize: bytes.byteLength, sha256 }],
        skipDuplicates: true,
      });
      const { id } = await db.productImage.findUniqueOrThrow({ where: { sha256 }, select: { id: true } });
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
