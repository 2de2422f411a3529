import { randomUUID } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  addGalleryImage,
  adminGallery,
  moveGalleryImage,
  removeGalleryImage,
  saveGalleryAlt,
} from "@/lib/catalog/gallery-admin";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { GALLERY_LIMITS, productGallery } from "@/lib/catalog/gallery";
import { postgresImageStore } from "@/lib/catalog/images/postgres-store";
import { MAX_IMAGE_BYTES } from "@/lib/catalog/images/validate";
import { adminRequest, testOwner, type AdminCaller } from "../../../harness/support/admin";
import type { Actor } from "@/lib/admin/staff-events";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct } from "../../../harness/support/orders";

// A product's gallery in the back office (lib/catalog/gallery-admin.ts through the routes under
// app/api/admin/products/<id>/gallery), and the product form's image and its text alternative
// (lib/catalog/products-admin.ts), against the suite's real database: what each route answers, what the
// gallery then is, and that products.image_path stays its first image. Every test has products of
// its own.

afterEach(() => settleAfterTasks());

/** A PNG of one colour, 4×3: a different colour is a different image (and stored path). */
function png([r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "latin1");
    data.copy(out, 8);
    out.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "latin1"), data])), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(4, 0);
  header.writeUInt32BE(3, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.from([0, ...Array.from({ length: 4 }, () => [r, g, b]).flat()]);
  return Buffer.concat([
    Buffer.from("89504e470d0a1a0a", "hex"),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat([row, row, row]))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
const uniquePng = () => png([0, 0, 0].map(() => Math.floor(Math.random() * 256)) as [number, number, number]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

type Caller = Pick<AdminCaller, "session" | "crossSite" | "accept">;
type Body =
  | { json: unknown }
  | { form: Record<string, string> }
  | { multipart: Record<string, string>; image?: Buffer; imageName?: string }
  | { raw: string; contentType: string }
  | undefined;

function request(path: string, body: Body, caller: Caller = {}) {
  if (body && "multipart" in body) {
    const { multipart: fields, image, imageName } = body;
    return adminRequest(path, { ...caller, multipart: { fields, image, imageName } });
  }
  if (body && "raw" in body)
    return adminRequest(path, { ...caller, raw: { body: body.raw, contentType: body.contentType } });
  return adminRequest(path, { ...caller, ...body });
}

const routes = {
  add: () => import("@/app/api/admin/products/[id]/gallery/route"),
  alt: () => import("@/app/api/admin/products/[id]/gallery/[imageId]/route"),
  move: () => import("@/app/api/admin/products/[id]/gallery/[imageId]/move/route"),
  delete: () => import("@/app/api/admin/products/[id]/gallery/[imageId]/delete/route"),
};

async function add(id: string, body: Body, caller?: Caller) {
  const { POST } = await routes.add();
  return POST(await request(`/api/admin/products/${id}/gallery`, body, caller), { params: Promise.resolve({ id }) });
}
async function onImage(route: "alt" | "move" | "delete", id: string, imageId: string, body: Body, caller?: Caller) {
  const { POST } = await routes[route]();
  const suffix = route === "alt" ? "" : `/${route}`;
  return POST(await request(`/api/admin/products/${id}/gallery/${imageId}${suffix}`, body, caller), {
    params: Promise.resolve({ id, imageId }),
  });
}

const json = async (response: Response) => (await response.json()) as Record<string, any>;
const JSON_ACCEPT = { accept: "application/json" };
const deps = () => ({ db: db(), images: postgresImageStore(db()) });
/** Who the back office's functions called directly record the change by. */
let owner: Actor;
beforeAll(async () => {
  owner = await testOwner();
});

/** The gallery in order, as rows. */
const galleryOf = (productId: string) =>
  db().galleryImage.findMany({
    where: { productId },
    orderBy: { position: "asc" },
    select: { id: true, path: true, alt: true },
  });
const imagePathOf = async (productId: string) =>
  (await db().product.findUniqueOrThrow({ where: { id: productId } })).imagePath;

/** A product of the test's own with `extra` more images after its first (each with its alt text). */
async function productWithGallery(extra = 0) {
  const product = await insertTestProduct();
  await adminGallery(db(), product.id);
  for (let i = 0; i < extra; i++) {
    const result = await addGalleryImage(
      product.id,
      { alt: `Imagem ${i + 2}` },
      { bytes: new Uint8Array(uniquePng()) },
      owner,
      deps(),
    );
    expect(result.ok).toBe(true);
  }
  return { product, gallery: await galleryOf(product.id) };
}

describe("every route refuses", () => {
  const id = randomUUID();
  const imageId = randomUUID();
  const calls = [
    ["add", (caller: Caller) => add(id, { multipart: { alt: "x" }, image: uniquePng() }, caller)],
    ["alt", (caller: Caller) => onImage("alt", id, imageId, { json: { alt: "x" } }, caller)],
    ["move", (caller: Caller) => onImage("move", id, imageId, { json: { direction: "up" } }, caller)],
    ["delete", (caller: Caller) => onImage("delete", id, imageId, undefined, caller)],
  ] as const;

  it.each(calls)("%s without a session: 401", async (_name, call) => {
    const response = await call({ session: false, ...JSON_ACCEPT });
    expect(response.status).toBe(401);
    expect(await json(response)).toMatchObject({ error: { code: "unauthorized" } });
  });

  it("the page's form without a session: to the sign-in, never JSON", async () => {
    const response = await add(id, { multipart: { alt: "x" }, image: uniquePng() }, { session: false });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(/^\/admin\?expired=1&next=/);
  });

  it.each(calls)("%s from another site: 403", async (_name, call) => {
    const response = await call({ crossSite: true });
    expect(response.status).toBe(403);
    expect(await json(response)).toMatchObject({ error: { code: "cross_site" } });
  });

  it("a cross-site form changes nothing", async () => {
    const { product, gallery } = await productWithGallery(1);
    expect((await onImage("delete", product.id, gallery[1]!.id, { form: {} }, { crossSite: true })).status).toBe(403);
    expect(await galleryOf(product.id)).toEqual(gallery);
  });
});

describe("a product's first gallery row", () => {
  it("a product without gallery rows (an older release's) gets its image as its first, described by its name", async () => {
    const product = await insertTestProduct();
    expect(await galleryOf(product.id)).toEqual([]);
    const gallery = await adminGallery(db(), product.id);
    expect(gallery).toEqual([{ id: expect.any(String), path: product.imagePath, alt: product.name }]);
    // Once only.
    expect(await adminGallery(db(), product.id)).toEqual(gallery);
    expect(await adminGallery(db(), randomUUID())).toEqual([]);
    expect(await adminGallery(db(), "nope")).toEqual([]);
  });

  it("adding to a product without rows keeps its image first", async () => {
    const product = await insertTestProduct();
    const response = await add(product.id, { multipart: { alt: "Vista de lado" }, image: uniquePng() }, JSON_ACCEPT);
    expect(response.status).toBe(201);
    expect((await json(response)).gallery).toEqual([
      expect.objectContaining({ path: product.imagePath, alt: product.name }),
      expect.objectContaining({ alt: "Vista de lado" }),
    ]);
    expect(await imagePathOf(product.id)).toBe(product.imagePath);
  });
});

describe("adding an image", () => {
  it("the page's form: 303 back to the gallery; the image is last, with its text; the card's image stays", async () => {
    const { product, gallery } = await productWithGallery();
    const response = await add(product.id, { multipart: { alt: "  O pacote visto de trás  " }, image: uniquePng() });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/admin/products/${product.id}?gallery=added#gallery`);
    const after = await galleryOf(product.id);
    expect(after).toEqual([
      gallery[0],
      { id: expect.any(String), path: expect.stringMatching(/^\/api\/images\//), alt: "O pacote visto de trás" },
    ]);
    expect(await imagePathOf(product.id)).toBe(product.imagePath);
    // What the shop's product page reads.
    expect(await productGallery(db(), { id: product.id, image: product.imagePath, name: product.name })).toEqual(
      after.map(({ path, alt }) => ({ path, alt })),
    );
  });

  it.each([
    ["no alt text", {}],
    ["an empty alt text", { alt: "" }],
    ["an alt text of spaces", { alt: "   " }],
    ["an alt text too long", { alt: "x".repeat(GALLERY_LIMITS.altMax + 1) }],
  ])("%s: 400 invalid_input naming alt, nothing added or stored", async (_case, fields) => {
    const { product, gallery } = await productWithGallery();
    const image = uniquePng();
    const refused = await add(product.id, { multipart: fields, image }, JSON_ACCEPT);
    expect(refused.status).toBe(400);
    expect(await json(refused)).toMatchObject({ error: { code: "invalid_input" } });
    const form = await add(product.id, { multipart: fields, image });
    expect(form.headers.get("location")).toBe(
      `/admin/products/${product.id}?galleryError=invalid_input&galleryField=alt#gallery`,
    );
    expect(await galleryOf(product.id)).toEqual(gallery);
  });

  it("an alt text of exactly the limit is kept whole", async () => {
    const { product } = await productWithGallery();
    const alt = "é".repeat(GALLERY_LIMITS.altMax);
    expect((await add(product.id, { multipart: { alt }, image: uniquePng() }, JSON_ACCEPT)).status).toBe(201);
    expect((await galleryOf(product.id))[1]?.alt).toBe(alt);
  });

  it("refuses what is not an image: SVG and text 415, nothing 400, more than 2 MB 413", async () => {
    const { product, gallery } = await productWithGallery();
    for (const image of [SVG, Buffer.from(`text ${randomUUID()}`)]) {
      const response = await add(product.id, { multipart: { alt: "x" }, image, imageName: "x.png" }, JSON_ACCEPT);
      expect(response.status).toBe(415);
      expect(await json(response)).toMatchObject({ error: { code: "unsupported_image" } });
    }
    const svgForm = await add(product.id, { multipart: { alt: "x" }, image: SVG });
    expect(svgForm.headers.get("location")).toBe(
      `/admin/products/${product.id}?galleryError=unsupported_image&galleryField=image#gallery`,
    );
    const none = await add(product.id, { multipart: { alt: "x" } }, JSON_ACCEPT);
    expect(none.status).toBe(400);
    expect(await json(none)).toMatchObject({ error: { code: "image_required" } });
    const viaJson = await add(product.id, { json: { alt: "x" } });
    expect(viaJson.status).toBe(400);
    const large = await add(
      product.id,
      { multipart: { alt: "x" }, image: Buffer.concat([uniquePng(), Buffer.alloc(MAX_IMAGE_BYTES)]) },
      JSON_ACCEPT,
    );
    expect(large.status).toBe(413);
    const whole = await add(product.id, { multipart: { alt: "x" }, image: Buffer.alloc(3 * MAX_IMAGE_BYTES) });
    expect(whole.headers.get("location")).toBe(`/admin/products/${product.id}?galleryError=image_too_large#gallery`);
    expect(await galleryOf(product.id)).toEqual(gallery);
  });

  it("the same image twice: 409 duplicate_image (a form sent twice adds it once)", async () => {
    const { product } = await productWithGallery();
    const image = uniquePng();
    expect((await add(product.id, { multipart: { alt: "Uma" }, image })).headers.get("location")).toContain(
      "gallery=added",
    );
    const again = await add(product.id, { multipart: { alt: "Outra vez" }, image }, JSON_ACCEPT);
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ error: { code: "duplicate_image" } });
    expect(await galleryOf(product.id)).toHaveLength(2);
  });

  it(`at most ${GALLERY_LIMITS.imagesMax} images: 409 gallery_full`, async () => {
    const { product } = await productWithGallery();
    await db().galleryImage.createMany({
      data: Array.from({ length: GALLERY_LIMITS.imagesMax - 1 }, (_, i) => ({
        productId: product.id,
        position: i + 1,
        path: `/products/extra-${i}.svg`,
        alt: `Extra ${i}`,
      })),
    });
    const response = await add(product.id, { multipart: { alt: "Uma a mais" }, image: uniquePng() }, JSON_ACCEPT);
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ error: { code: "gallery_full" } });
    expect(await galleryOf(product.id)).toHaveLength(GALLERY_LIMITS.imagesMax);
  });

  it("an unknown or malformed product: 404", async () => {
    for (const id of [randomUUID(), "nope"]) {
      const response = await add(id, { multipart: { alt: "x" }, image: uniquePng() });
      expect(response.status).toBe(404);
    }
  });
});

describe("changing an image's text alternative", () => {
  it("saves it for that image only; the order and the card's image stay", async () => {
    const { product, gallery } = await productWithGallery(2);
    const response = await onImage("alt", product.id, gallery[1]!.id, { form: { alt: "Nova descrição" } });
    expect(response.headers.get("location")).toBe(`/admin/products/${product.id}?gallery=alt_saved#gallery`);
    expect(await galleryOf(product.id)).toEqual([gallery[0], { ...gallery[1], alt: "Nova descrição" }, gallery[2]]);
    const viaJson = await onImage("alt", product.id, gallery[0]!.id, { json: { alt: "Frente" } });
    expect(viaJson.status).toBe(200);
    expect((await json(viaJson)).gallery[0]).toMatchObject({ id: gallery[0]!.id, alt: "Frente" });
    expect(await imagePathOf(product.id)).toBe(gallery[0]!.path);
  });

  it("an empty text: 400 naming alt, nothing changed", async () => {
    const { product, gallery } = await productWithGallery(1);
    const response = await onImage("alt", product.id, gallery[1]!.id, { form: { alt: " " } });
    expect(response.headers.get("location")).toBe(
      `/admin/products/${product.id}?galleryError=invalid_input&galleryField=alt#gallery`,
    );
    expect(await galleryOf(product.id)).toEqual(gallery);
  });

  it("an image that is not in this gallery (gone, another product's, malformed): 409 image_gone", async () => {
    const [{ product }, { gallery: others }] = await Promise.all([productWithGallery(1), productWithGallery()]);
    for (const imageId of [randomUUID(), others[0]!.id, "nope"]) {
      const response = await onImage("alt", product.id, imageId, { json: { alt: "x" } });
      expect(response.status).toBe(409);
      expect(await json(response)).toMatchObject({ error: { code: "image_gone" } });
    }
    expect(await galleryOf(product.id).then((rows) => rows.map((row) => row.alt))).not.toContain("x");
    const missing = await onImage("alt", randomUUID(), others[0]!.id, { json: { alt: "x" } });
    expect(missing.status).toBe(404);
  });
});

describe("moving an image", () => {
  it("up and down, keeping every image's id; the first is always the card's image", async () => {
    const { product, gallery } = await productWithGallery(2);
    const [a, b, c] = gallery;
    const down = await onImage("move", product.id, a!.id, { form: { direction: "down" } });
    expect(down.headers.get("location")).toBe(`/admin/products/${product.id}?gallery=moved#gallery`);
    expect(await galleryOf(product.id)).toEqual([b, a, c]);
    expect(await imagePathOf(product.id)).toBe(b!.path);

    const up = await onImage("move", product.id, c!.id, { json: { direction: "up" } });
    expect(up.status).toBe(200);
    expect((await json(up)).gallery).toEqual([b, c, a]);
    expect(await imagePathOf(product.id)).toBe(b!.path);
  });

  it("the first up or the last down: 409 cannot_move; another direction: 400", async () => {
    const { product, gallery } = await productWithGallery(1);
    const first = await onImage("move", product.id, gallery[0]!.id, { json: { direction: "up" } });
    expect(first.status).toBe(409);
    expect(await json(first)).toMatchObject({ error: { code: "cannot_move" } });
    const last = await onImage("move", product.id, gallery[1]!.id, { form: { direction: "down" } });
    expect(last.headers.get("location")).toBe(
      `/admin/products/${product.id}?galleryError=cannot_move&galleryField=direction#gallery`,
    );
    for (const direction of ["left", "", undefined]) {
      const response = await onImage("move", product.id, gallery[1]!.id, { json: { direction } });
      expect(response.status).toBe(400);
    }
    expect(await galleryOf(product.id)).toEqual(gallery);
  });
});

describe("removing an image", () => {
  it("removes it; removing the first makes the next the card's image", async () => {
    const { product, gallery } = await productWithGallery(2);
    const [a, b, c] = gallery;
    const response = await onImage("delete", product.id, b!.id, { form: {} });
    expect(response.headers.get("location")).toBe(`/admin/products/${product.id}?gallery=removed#gallery`);
    expect(await galleryOf(product.id)).toEqual([a, c]);
    const first = await onImage("delete", product.id, a!.id, undefined);
    expect(first.status).toBe(200);
    expect((await json(first)).gallery).toEqual([c]);
    expect(await imagePathOf(product.id)).toBe(c!.path);
  });

  it("the last one too: the product is left without an image, and the shop shows none", async () => {
    const { product, gallery } = await productWithGallery();
    const response = await onImage("delete", product.id, gallery[0]!.id, undefined);
    expect(response.status).toBe(200);
    expect((await json(response)).gallery).toEqual([]);
    expect(await galleryOf(product.id)).toEqual([]);
    expect(await imagePathOf(product.id)).toBe("");
    // Its page in the back office does not take the empty path for an image of an older release.
    expect(await adminGallery(db(), product.id)).toEqual([]);
    const shown = await db().product.findUniqueOrThrow({ where: { id: product.id } });
    expect(await productGallery(db(), { id: product.id, image: null, name: shown.name })).toEqual([]);
    // An image added then is its first again.
    const added = await add(product.id, { multipart: { alt: "De novo" }, image: uniquePng() }, JSON_ACCEPT);
    expect(added.status).toBe(201);
    const [first] = await galleryOf(product.id);
    expect(await imagePathOf(product.id)).toBe(first!.path);
  });

  it("one already removed: 409 image_gone", async () => {
    const { product, gallery } = await productWithGallery(2);
    expect((await onImage("delete", product.id, gallery[2]!.id, undefined)).status).toBe(200);
    const again = await onImage("delete", product.id, gallery[2]!.id, undefined);
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ error: { code: "image_gone" } });
  });
});

/**
 * On a PostgreSQL server: waits (5 s at most) until another session is blocked by `tx`'s, and says
 * so. On embedded PGlite, whose one session is `tx`'s until it ends, false at once.
 */
async function blockedBy(tx: Prisma.TransactionClient): Promise<boolean> {
  if (!process.env.TEST_SERVER_DATABASE_URL) return false;
  const [{ pid }] = await tx.$queryRaw<[{ pid: number }]>`SELECT pg_backend_pid() AS pid`;
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const [{ waiting }] = await db().$queryRaw<[{ waiting: number }]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE ${pid}::int = ANY(pg_blocking_pids(pid))`;
    if (waiting > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the edit never waited for the product's lock");
}

describe("two admins at once", () => {
  it("one removes an image while the other edits its text: the edit is refused (409), not lost silently", async () => {
    const { product, gallery } = await productWithGallery(2);
    const target = gallery[1]!.id;
    // The edit arrives while the removal holds the product's lock, its change made and not yet
    // committed: the race the edit loses, arranged rather than left to chance.
    let edit: ReturnType<typeof saveGalleryAlt> | undefined;
    let editWaitedForTheLock = false;
    const removing = {
      $transaction: <T>(work: (tx: Prisma.TransactionClient) => Promise<T>) =>
        db().$transaction(async (tx) => {
          const result = await work(tx);
          edit = saveGalleryAlt(product.id, target, { alt: "Texto novo" }, owner, { db: db() });
          editWaitedForTheLock = await blockedBy(tx);
          return result;
        }),
    } as unknown as Parameters<typeof removeGalleryImage>[3]["db"];
    const removed = await removeGalleryImage(product.id, target, owner, { db: removing });
    expect(removed.ok).toBe(true);
    expect(await edit).toMatchObject({ ok: false, status: 409, code: "image_gone" });
    // On a server, the edit was seen waiting for the lock (embedded PGlite runs one transaction at
    // a time: there the edit waits for the connection, with the same outcome).
    expect(editWaitedForTheLock).toBe(Boolean(process.env.TEST_SERVER_DATABASE_URL));
    const after = await galleryOf(product.id);
    expect(after.map((row) => row.id)).toEqual([gallery[0]!.id, gallery[2]!.id]);
    expect(after.map((row) => row.alt)).not.toContain("Texto novo");
  });

  it("changes to different images all apply: ids survive the other's reorder", async () => {
    const { product, gallery } = await productWithGallery(3);
    const [a, b, c, d] = gallery;
    const results = await Promise.all([
      moveGalleryImage(product.id, d!.id, { direction: "up" }, owner, { db: db() }),
      saveGalleryAlt(product.id, a!.id, { alt: "Frente, editada" }, owner, { db: db() }),
      removeGalleryImage(product.id, b!.id, owner, { db: db() }),
    ]);
    expect(results.map((result) => result.ok)).toEqual([true, true, true]);
    const after = await galleryOf(product.id);
    expect(after).toHaveLength(3);
    expect(after.find((row) => row.id === a!.id)?.alt).toBe("Frente, editada");
    expect(after.map((row) => row.id)).not.toContain(b!.id);
    expect(after.map((row) => row.id).sort()).toEqual([a!.id, c!.id, d!.id].sort());
    expect(await imagePathOf(product.id)).toBe(after[0]!.path);
  });

  it("images added at the same moment are all kept", async () => {
    const { product } = await productWithGallery();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        addGalleryImage(
          product.id,
          { alt: `Ao mesmo tempo ${i}` },
          { bytes: new Uint8Array(uniquePng()) },
          owner,
          deps(),
        ),
      ),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    const after = await galleryOf(product.id);
    expect(after).toHaveLength(6);
    expect(
      after
        .map((row) => row.alt)
        .slice(1)
        .sort(),
    ).toEqual(Array.from({ length: 5 }, (_, i) => `Ao mesmo tempo ${i}`));
  });

  it("two admins removing the two last images: both are removed", async () => {
    const { product, gallery } = await productWithGallery(1);
    const results = await Promise.all(
      gallery.map((image) => removeGalleryImage(product.id, image.id, owner, { db: db() })),
    );
    expect(results.map((result) => result.ok)).toEqual([true, true]);
    expect(await galleryOf(product.id)).toEqual([]);
    expect(await imagePathOf(product.id)).toBe("");
  });
});

describe("the product form's image", () => {
  const productRoutes = {
    create: () => import("@/app/api/admin/products/route"),
    update: () => import("@/app/api/admin/products/[id]/route"),
  };
  const newFields = (overrides: Record<string, string> = {}) => ({
    name: "Café com galeria",
    slug: `produto-${randomUUID().slice(0, 8)}`,
    description: "Um café para os testes da galeria.",
    priceAoa: "4500",
    stock: "2",
    ...overrides,
  });
  async function create(body: Body, caller?: Caller) {
    const { POST } = await productRoutes.create();
    return POST(await request("/api/admin/products", body, caller));
  }
  async function update(id: string, body: Body, caller?: Caller) {
    const { POST } = await productRoutes.update();
    return POST(await request(`/api/admin/products/${id}`, body, caller), { params: Promise.resolve({ id }) });
  }

  it("a new product's image is its gallery's first, with the alt text the form sent", async () => {
    const response = await create(
      { multipart: newFields({ imageAlt: "Pacote de café de 1 kg" }), image: uniquePng() },
      JSON_ACCEPT,
    );
    expect(response.status).toBe(201);
    const { product } = await json(response);
    expect(await galleryOf(product.id)).toEqual([
      { id: expect.any(String), path: product.imagePath, alt: "Pacote de café de 1 kg" },
    ]);
  });

  it("a client that sends no alt text (an older API client): the product's name; an empty one: 400", async () => {
    const fields = newFields();
    const response = await create({ multipart: fields, image: uniquePng() }, JSON_ACCEPT);
    expect(response.status).toBe(201);
    const { product } = await json(response);
    expect((await galleryOf(product.id))[0]?.alt).toBe(fields.name);

    const empty = newFields({ imageAlt: "  " });
    const refused = await create({ multipart: empty, image: uniquePng() });
    expect(refused.headers.get("location")).toBe("/admin/products/new?error=invalid_input&field=imageAlt");
    expect(await db().product.findUnique({ where: { slug: empty.slug } })).toBeNull();
  });

  it("the edit form's new image replaces the first gallery image, keeping its place, id and text unless a new one is sent", async () => {
    const { product, gallery } = await productWithGallery(1);
    const editFields = (overrides: Record<string, string> = {}) => ({
      name: product.name,
      slug: product.slug,
      description: product.description,
      priceAoa: String(product.priceAoa),
      stock: String(product.stock),
      stockShown: String(product.stock),
      stockReason: "",
      imageAlt: "",
      ...overrides,
    });
    const replaced = await update(product.id, { multipart: editFields(), image: uniquePng() }, JSON_ACCEPT);
    expect(replaced.status).toBe(200);
    const { product: saved } = await json(replaced);
    expect(saved.imagePath).not.toBe(product.imagePath);
    expect(await galleryOf(product.id)).toEqual([{ ...gallery[0], path: saved.imagePath }, gallery[1]]);

    const withAlt = await update(product.id, { multipart: editFields({ imageAlt: "Foto nova" }), image: uniquePng() });
    expect(withAlt.headers.get("location")).toBe(`/admin/products/${product.id}?done=saved`);
    const after = await galleryOf(product.id);
    expect(after[0]).toMatchObject({ id: gallery[0]!.id, alt: "Foto nova" });
    expect(after[0]!.path).toBe(await imagePathOf(product.id));
    expect(after[1]).toEqual(gallery[1]);

    // Without a new image, nothing of the gallery changes.
    await update(product.id, { multipart: editFields({ imageAlt: "Ignorado" }) });
    expect(await galleryOf(product.id)).toEqual(after);
  });

  it("for a product without images, the edit form's new image becomes its first, described by the alt or the name", async () => {
    const { product, gallery } = await productWithGallery();
    expect((await onImage("delete", product.id, gallery[0]!.id, undefined)).status).toBe(200);
    const fields = {
      name: product.name,
      slug: product.slug,
      description: product.description,
      priceAoa: String(product.priceAoa),
      stock: String(product.stock),
      stockShown: String(product.stock),
      stockReason: "",
      imageAlt: "",
    };
    const saved = await update(product.id, { multipart: fields, image: uniquePng() }, JSON_ACCEPT);
    expect(saved.status).toBe(200);
    const after = await galleryOf(product.id);
    expect(after).toEqual([{ id: expect.any(String), path: await imagePathOf(product.id), alt: product.name }]);
    expect(after[0]!.path).toMatch(/^\/api\/images\//);
  });
});

describe("no client input is a server error", () => {
  it.each([
    ["a JSON array", { raw: "[]", contentType: "application/json" }],
    ["JSON null", { raw: "null", contentType: "application/json" }],
    ["broken JSON", { raw: "{", contentType: "application/json" }],
    ["text", { raw: "alt=x", contentType: "text/plain" }],
    ["a broken multipart body", { raw: "--x\r\nnot a part", contentType: "multipart/form-data; boundary=x" }],
    ["wrong types", { json: { alt: ["x"], direction: 1 } }],
    ["an alt text with a NUL", { json: { alt: "a\u0000b", direction: "sideways" } }],
    ["a huge alt text", { json: { alt: "x".repeat(100_000), direction: "\u0000" } }],
  ] as const)("%s: 4xx from every route", async (_case, body) => {
    const { product, gallery } = await productWithGallery(1);
    const responses = [
      await add(product.id, body, JSON_ACCEPT),
      await onImage("alt", product.id, gallery[1]!.id, body, JSON_ACCEPT),
      await onImage("move", product.id, gallery[1]!.id, body, JSON_ACCEPT),
    ];
    for (const response of responses) {
      expect(response.status, await response.clone().text()).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    expect(await galleryOf(product.id)).toEqual(gallery);
  });
});
