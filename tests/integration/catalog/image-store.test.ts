import { createHash, randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { addGalleryImage } from "@/lib/catalog/gallery-admin";
import { importCatalogCsv } from "@/lib/catalog/csv/import";
import { db } from "@/lib/db/client";
import { GALLERY_LIMITS } from "@/lib/catalog/gallery";
import { postgresImageStore } from "@/lib/catalog/images/postgres-store";
import { prepareImage } from "@/lib/catalog/images/validate";
import { testOwner } from "../../../harness/support/admin";
import { testPng } from "../../../harness/support/images";
import type { Actor } from "@/lib/admin/staff-events";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct } from "../../../harness/support/orders";

// The PostgreSQL image store (lib/catalog/images/postgres-store.ts) against the suite's real database:
// an image is stored in the transaction of the change that names it, so a change refused or
// failed leaves none behind.

afterEach(() => settleAfterTasks());

/** Who the back office's functions called directly record the change by. */
let owner: Actor;
beforeAll(async () => {
  owner = await testOwner();
});

const store = postgresImageStore(db());

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A new image as an upload would store it: prepared (re-encoded), never stored yet. */
async function newImage() {
  const prepared = await prepareImage(await testPng());
  if (!prepared.ok) throw new Error(prepared.message);
  return { bytes: prepared.bytes, contentType: prepared.contentType, sha256: sha256(prepared.bytes) };
}

/** Stores a new image on its own. */
async function storedImage() {
  const image = await newImage();
  return db().$transaction((tx) => store.put(image.bytes, image.contentType, tx));
}

describe("put", () => {
  it("writes in the caller's transaction: rolled back, nothing is stored; committed, the same bytes again are the same image", async () => {
    const image = await newImage();
    await expect(
      db().$transaction(async (tx) => {
        await store.put(image.bytes, image.contentType, tx);
        throw new Error("the change is refused");
      }),
    ).rejects.toThrow("the change is refused");
    expect(await db().productImage.findUnique({ where: { sha256: image.sha256 } })).toBeNull();

    const first = await db().$transaction((tx) => store.put(image.bytes, image.contentType, tx));
    const second = await db().$transaction((tx) => store.put(image.bytes, image.contentType, tx));
    expect(second).toEqual(first);
    expect(first.path).toBe(`/api/images/${first.id}`);
    expect(await db().productImage.count({ where: { sha256: image.sha256 } })).toBe(1);
    const served = await store.get(first.id);
    expect(served).toMatchObject({ contentType: "image/png", sha256: image.sha256 });
    expect(Buffer.from(served!.bytes).equals(image.bytes)).toBe(true);
  });
});

describe("changes refused after the image was prepared leave none behind", () => {
  it("a full gallery: 409 gallery_full, the new image not stored", async () => {
    const product = await insertTestProduct();
    const images = await Promise.all(Array.from({ length: GALLERY_LIMITS.imagesMax - 1 }, () => storedImage()));
    await db().galleryImage.createMany({
      data: [
        { productId: product.id, position: 0, path: product.imagePath, alt: "Primeira" },
        ...images.map((image, i) => ({ productId: product.id, position: i + 1, path: image.path, alt: `Imagem ${i}` })),
      ],
    });
    const upload = await testPng();
    const result = await addGalleryImage(product.id, { alt: "Mais uma" }, { bytes: new Uint8Array(upload) }, owner, {
      db: db(),
      images: store,
    });
    expect(result).toMatchObject({ ok: false, status: 409, code: "gallery_full" });
    const prepared = await prepareImage(upload);
    expect(prepared.ok && (await db().productImage.findUnique({ where: { sha256: sha256(prepared.bytes) } }))).toBe(
      null,
    );
  });

  it("an import that fails in its transaction (a file changed meanwhile) stores none of its files", async () => {
    const [first, second] = [await testPng(), await testPng()];
    const reads = new Map<string, number>();
    const files = {
      async read(name: string) {
        reads.set(name, (reads.get(name) ?? 0) + 1);
        // b.png is another image by the time the import stores it.
        if (name === "b.png" && reads.get(name)! > 1) return new Uint8Array(await testPng());
        return new Uint8Array(name === "a.png" ? first : second);
      },
    };
    const slug = `importado-${randomUUID().slice(0, 8)}`;
    const csv = [
      "slug,name,description,price_aoa,stock,categories,images,image_alts",
      `${slug},Importado,Texto.,100,1,,a.png|b.png,A|B`,
    ].join("\n");
    await expect(
      importCatalogCsv(
        new TextEncoder().encode(csv),
        { dryRun: false, files, actor: owner },
        { db: db(), images: store },
      ),
    ).rejects.toThrow(/changed or disappeared/);
    for (const upload of [first, second]) {
      const prepared = await prepareImage(upload);
      expect(prepared.ok && (await db().productImage.findUnique({ where: { sha256: sha256(prepared.bytes) } }))).toBe(
        null,
      );
    }
    expect(await db().product.findUnique({ where: { slug } })).toBeNull();
  });
});
