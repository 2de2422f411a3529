import "server-only";
import { createHash } from "node:crypto";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { isUuid } from "../uuid";
import { IMAGE_CONTENT_TYPES, IMAGE_PATH_PREFIX, imagePath, type ImageStore } from "./store";

/**
 * Images in the shop's own PostgreSQL (the product_images table): every deployment, serverless or
 * not, serves them without a file system or another service. Fine for a small shop's few hundred
 * images, each re-encoded within 4000 × 4000 (./validate.ts); a larger one puts a Blob store
 * behind the same interface. One row per content (the SHA-256 of the stored, re-encoded bytes):
 * storing the same image again answers the first row.
 *
 * `put` writes in the caller's transaction, so the row exists only if the change that names it
 * commits. Its upsert locks the row, existing or new, until that transaction ends, and
 * `deleteOrphans` skips locked rows: an old orphan that an upload finds again is not deleted
 * under it.
 */
export function postgresImageStore(db: Database): ImageStore {
  return {
    async put(bytes, contentType, tx) {
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      // DO UPDATE rather than DO NOTHING: it answers the existing row's id and locks it. Were that
      // row being deleted meanwhile, PostgreSQL waits for the delete, then inserts anew.
      const [row] = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
INSERT INTO product_images (content_type, bytes, byte_size, sha256)
VALUES (${contentType}, ${bytes}, ${bytes.byteLength}, ${sha256})
ON CONFLICT (sha256) DO UPDATE SET sha256 = EXCLUDED.sha256
RETURNING id::text AS id`);
      return { id: row!.id, path: imagePath(row!.id) };
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
    async deleteOrphans({ storedBefore, limit }) {
      const path = Prisma.sql`${IMAGE_PATH_PREFIX} || i.id::text`;
      const unnamed = Prisma.sql`
NOT EXISTS (SELECT 1 FROM products p WHERE p.image_path = ${path})
AND NOT EXISTS (SELECT 1 FROM gallery_images g WHERE g.path = ${path})
AND NOT EXISTS (SELECT 1 FROM product_variants v WHERE v.image_path = ${path})`;
      return db.$transaction(async (tx) => {
        // created_at holds UTC without a time zone, as every timestamp of the schema.
        const candidates = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
SELECT i.id::text AS id FROM product_images i
WHERE i.created_at < (${storedBefore.toISOString()}::timestamptz AT TIME ZONE 'UTC') AND ${unnamed}
ORDER BY i.created_at, i.id LIMIT ${limit}
FOR UPDATE OF i SKIP LOCKED`);
        if (candidates.length === 0) return 0;
        // Asked again now that they are locked, with this statement's newer snapshot: a change that
        // named one of them and committed since the first look is seen here.
        return tx.$executeRaw(Prisma.sql`
DELETE FROM product_images i WHERE i.id = ANY(${candidates.map((row) => row.id)}::uuid[]) AND ${unnamed}`);
      });
    },
  };
}
