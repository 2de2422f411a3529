import { createHash, randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addGalleryImage } from "@/lib/admin/gallery";
import { importCatalogueCsv } from "@/lib/catalog-csv/import";
import { db } from "@/lib/db/client";
import { GALLERY_LIMITS } from "@/lib/gallery";
import { postgresImageStore } from "@/lib/images/postgres-store";
import { ORPHAN_IMAGE_GRACE_MS, sweepOrphanImages } from "@/lib/images/sweep";
import { prepareImage } from "@/lib/images/validate";
import { testPng } from "../../harness/support/images";
import { settleAfterTasks } from "../../harness/support/next-after";
import { insertTestProduct } from "../../harness/support/orders";

// The PostgreSQL image store (lib/images/postgres-store.ts) against the suite's real database:
// an image is stored in the transaction of the change that names it, so a change refused or
// failed leaves none behind; the orphans' sweep (lib/images/sweep.ts) deletes what nothing names
// once it is a day old, and nothing a change in progress is storing.

afterEach(() => settleAfterTasks());

const store = postgresImageStore(db());
const HOUR = 60 * 60 * 1000;
const server = Boolean(process.env.TEST_SERVER_DATABASE_URL);

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A new image as an upload would store it: prepared (re-encoded), never stored yet. */
async function newImage() {
  const prepared = await prepareImage(await testPng());
  if (!prepared.ok) throw new Error(prepared.message);
  return { bytes: prepared.bytes, contentType: prepared.contentType, sha256: sha256(prepared.bytes) };
}

/** Stores a new image on its own (named by nothing), `ageMs` old. */
async function storedImage(ageMs = 0) {
  const image = await newImage();
  const { id, path } = await db().$transaction((tx) => store.put(image.bytes, image.contentType, tx));
  await backdate(id, ageMs);
  return { ...image, id, path };
}

async function backdate(id: string, ageMs: number) {
  await db()
    .$executeRaw`UPDATE product_images SET created_at = created_at - ${ageMs}::int * interval '1 millisecond' WHERE id = ${id}::uuid`;
}

const exists = async (id: string) => (await db().productImage.findUnique({ where: { id } })) !== null;

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
    const result = await addGalleryImage(
      product.id,
      { alt: "Mais uma" },
      { bytes: new Uint8Array(upload) },
      {
        db: db(),
        images: store,
      },
    );
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
      importCatalogueCsv(new TextEncoder().encode(csv), { dryRun: false, files }, { db: db(), images: store }),
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

describe("the orphans' sweep", () => {
  it("deletes images nothing names once they are a day old; keeps those a product, a gallery or a variant names, and younger ones", async () => {
    const day = ORPHAN_IMAGE_GRACE_MS;
    const [orphan, young, ofProduct, ofGallery, ofVariant] = [
      await storedImage(day + HOUR),
      await storedImage(day - HOUR),
      await storedImage(day + HOUR),
      await storedImage(day + HOUR),
      await storedImage(day + HOUR),
    ];
    const product = await insertTestProduct();
    await db().product.update({ where: { id: product.id }, data: { imagePath: ofProduct.path } });
    await db().galleryImage.create({ data: { productId: product.id, position: 0, path: ofGallery.path, alt: "G" } });
    await db().productVariant.update({ where: { id: product.variantId }, data: { imagePath: ofVariant.path } });

    expect(await sweepOrphanImages(store)).toBeGreaterThanOrEqual(1);
    expect(await exists(orphan.id)).toBe(false);
    for (const kept of [young, ofProduct, ofGallery, ofVariant]) expect(await exists(kept.id)).toBe(true);
    // Served no more.
    expect(await store.get(orphan.id)).toBeNull();
  });

  it("deletes at most `limit`, oldest first", async () => {
    const older = await storedImage(3 * ORPHAN_IMAGE_GRACE_MS + 2 * HOUR);
    const newer = await storedImage(3 * ORPHAN_IMAGE_GRACE_MS + HOUR);
    const storedBefore = new Date(Date.now() - 3 * ORPHAN_IMAGE_GRACE_MS);
    expect(await store.deleteOrphans({ storedBefore, limit: 1 })).toBe(1);
    expect([await exists(older.id), await exists(newer.id)]).toEqual([false, true]);
    expect(await store.deleteOrphans({ storedBefore, limit: 1 })).toBe(1);
    expect(await exists(newer.id)).toBe(false);
  });

  it.skipIf(!server)(
    "leaves alone an old orphan that a change in progress is storing again, which then names it",
    async () => {
      const orphan = await storedImage(ORPHAN_IMAGE_GRACE_MS + HOUR);
      const product = await insertTestProduct();
      let stored!: () => void;
      const putDone = new Promise<void>((resolve) => (stored = resolve));
      let finish!: () => void;
      const finishing = new Promise<void>((resolve) => (finish = resolve));
      // An upload of the same picture: its put finds the old row and locks it until the change commits.
      const change = db().$transaction(
        async (tx) => {
          const { path } = await store.put(orphan.bytes, orphan.contentType, tx);
          stored();
          await finishing;
          await tx.galleryImage.create({ data: { productId: product.id, position: 0, path, alt: "De novo" } });
          return path;
        },
        { timeout: 20_000 },
      );
      await putDone;
      // Meanwhile the sweep runs: the row is locked, so it is skipped, not waited for.
      await sweepOrphanImages(store);
      finish();
      expect(await change).toBe(orphan.path);
      expect(await exists(orphan.id)).toBe(true);
      await sweepOrphanImages(store);
      expect(await exists(orphan.id)).toBe(true);
    },
  );
});

describe("GET /api/cron/reconcile", () => {
  it("sweeps the orphan images too, and says how many it deleted", async () => {
    const orphan = await storedImage(ORPHAN_IMAGE_GRACE_MS + HOUR);
    vi.stubEnv("CRON_SECRET", "a-cron-secret-of-some-length");
    vi.resetModules();
    try {
      const { GET } = await import("@/app/api/cron/reconcile/route");
      const response = await GET(
        new Request("http://localhost:3000/api/cron/reconcile", {
          headers: { Authorization: "Bearer a-cron-secret-of-some-length" },
        }),
      );
      expect(response.status).toBe(200);
      expect((await response.json()).imagesDeleted).toBeGreaterThanOrEqual(1);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
    expect(await exists(orphan.id)).toBe(false);
  });
});
