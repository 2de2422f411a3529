import { createHash, randomUUID } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import { NextRequest } from "next/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { adjustStock, createProduct, updateProduct } from "@/lib/catalog/products-admin";
import { getCart } from "@/lib/cart/cart";
import { addToCart, setLineQuantity } from "@/lib/cart/cart-changes";
import { findProductBySlug, listProducts } from "@/lib/catalog/products";
import { db } from "@/lib/db/client";
import { productGallery } from "@/lib/catalog/gallery";
import { postgresImageStore } from "@/lib/catalog/images/postgres-store";
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE, prepareImage } from "@/lib/catalog/images/validate";
import { ADMIN_APP as APP, adminRequest, testOwner, type AdminCaller } from "../../../harness/support/admin";
import type { Actor } from "@/lib/admin/staff-events";
import { checkout } from "../../../harness/support/checkout";
import {
  hasGpsExif,
  nearColour,
  pixelAt,
  pixelBombPng,
  randomColour as anyColour,
  testJpeg,
  testPng,
  testWebp,
} from "../../../harness/support/images";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestOrder, insertTestProduct } from "../../../harness/support/orders";

// The back office's products and stock (lib/catalog/products-admin.ts through the routes under
// app/api/admin/products, and GET /api/images/<id>), against the suite's real database: what each
// route answers, what it wrote, and what the storefront, carts and checkout then do.

afterEach(() => settleAfterTasks());

/** Who the back office's functions called directly record the change by. */
let owner: Actor;
beforeAll(async () => {
  owner = await testOwner();
});

/** A PNG of one colour, `width`×`height`: a different colour is a different image (and id). */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "latin1");
    data.copy(out, 8);
    out.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "latin1"), data])), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.from([0, ...Array.from({ length: width }, () => [r, g, b]).flat()]);
  return Buffer.concat([
    Buffer.from("89504e470d0a1a0a", "hex"),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
const randomColour = (): [number, number, number] => [0, 0, 0].map(() => Math.floor(Math.random() * 256)) as never;
const uniquePng = () => png(4, 3, randomColour());

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
/** The sha256 the store keeps `upload` under: its re-encoding's, the same every time. */
async function storedSha(upload: Uint8Array): Promise<string> {
  const prepared = await prepareImage(upload);
  if (!prepared.ok) throw new Error(prepared.message);
  return sha256(prepared.bytes);
}
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

type Caller = Pick<AdminCaller, "session" | "crossSite" | "accept">;
type Body =
  | { json: unknown }
  | { form: Record<string, string> }
  | { multipart: Record<string, string>; image?: Buffer; imageName?: string }
  | { raw: string; contentType: string }
  | undefined;

/** The back office's request (harness/support/admin.ts) with one of these bodies. */
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
  create: () => import("@/app/api/admin/products/route"),
  update: () => import("@/app/api/admin/products/[id]/route"),
  stock: () => import("@/app/api/admin/products/[id]/stock/route"),
  archive: () => import("@/app/api/admin/products/[id]/archive/route"),
  restore: () => import("@/app/api/admin/products/[id]/restore/route"),
};

async function create(body: Body, caller?: Caller) {
  const { POST } = await routes.create();
  return POST(await request("/api/admin/products", body, caller));
}
async function onProduct(route: Exclude<keyof typeof routes, "create">, id: string, body: Body, caller?: Caller) {
  const { POST } = await routes[route]();
  const suffix = route === "update" ? "" : `/${route}`;
  return POST(await request(`/api/admin/products/${id}${suffix}`, body, caller), {
    params: Promise.resolve({ id }),
  });
}
async function getImage(path: string, headers: Record<string, string> = {}) {
  const { GET } = await import("@/app/api/images/[id]/route");
  const id = path.split("/").pop()!;
  return GET(new NextRequest(`${APP}${path}`, { headers }), { params: Promise.resolve({ id }) });
}
async function apiProducts() {
  const { GET } = await import("@/app/api/products/route");
  return (await (await GET(new Request(`${APP}/api/products`))).json()) as {
    id: string;
    priceAoa: number;
    stock: number;
    image: string;
  }[];
}

const newSlug = () => `produto-${randomUUID().slice(0, 8)}`;
const fields = (overrides: Record<string, string> = {}) => ({
  name: "Café de teste",
  slug: newSlug(),
  description: "Um café torrado para os testes.",
  priceAoa: "4500",
  stock: "12",
  ...overrides,
});
/** The edit form as the page renders it for `product`. */
const editFields = (
  product: { name: string; slug: string; description: string; priceAoa: number; stock: number },
  overrides: Record<string, string> = {},
) => ({
  name: product.name,
  slug: product.slug,
  description: product.description,
  priceAoa: String(product.priceAoa),
  stock: String(product.stock),
  stockShown: String(product.stock),
  stockReason: "",
  ...overrides,
});
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const stockOf = async (id: string) => (await db().product.findUniqueOrThrow({ where: { id } })).stock;
const JSON_ACCEPT = { accept: "application/json" };

describe("every route refuses", () => {
  const id = randomUUID();
  const calls = [
    ["create", (caller: Caller) => create({ json: fields() }, caller)],
    ["update", (caller: Caller) => onProduct("update", id, { json: {} }, caller)],
    ["stock", (caller: Caller) => onProduct("stock", id, { json: { delta: 1, reason: "x" } }, caller)],
    ["archive", (caller: Caller) => onProduct("archive", id, undefined, caller)],
    ["restore", (caller: Caller) => onProduct("restore", id, undefined, caller)],
  ] as const;

  it.each(calls)("%s without a session: 401", async (_name, call) => {
    const response = await call({ session: false });
    expect(response.status).toBe(401);
    expect(await json(response)).toMatchObject({ error: { code: "unauthorized" } });
  });

  it.each(calls)("%s from another site: 403", async (_name, call) => {
    const response = await call({ crossSite: true });
    expect(response.status).toBe(403);
    expect(await json(response)).toMatchObject({ error: { code: "cross_site" } });
  });

  it("a cross-site form creates nothing", async () => {
    const input = fields();
    expect((await create({ multipart: input, image: uniquePng() }, { crossSite: true })).status).toBe(403);
    expect(await db().product.findUnique({ where: { slug: input.slug } })).toBeNull();
  });

  it("no route deletes a product: none exports DELETE", async () => {
    for (const load of Object.values(routes)) expect(Object.keys(await load())).not.toContain("DELETE");
  });

  it("the database refuses to delete a product that has orders", async () => {
    const order = await insertTestOrder();
    await expect(db().product.delete({ where: { id: order.productId } })).rejects.toThrow();
    expect(await db().product.findUnique({ where: { id: order.productId } })).not.toBeNull();
  });
});

describe("creating a product", () => {
  it("multipart with a PNG: 201, on sale at once with its image and first stock in the history", async () => {
    const input = fields({ priceAoa: "4500", stock: "12" });
    const response = await create({ multipart: input, image: uniquePng() }, JSON_ACCEPT);
    expect(response.status).toBe(201);
    const { done, product } = await json(response);
    expect(done).toBe("created");
    expect(product).toMatchObject({ slug: input.slug, priceAoa: 4500, stock: 12, archivedAt: null });
    expect(product.imagePath).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);

    expect((await listProducts()).find((p) => p.id === product.id)).toMatchObject({ priceAoa: 4500, stock: 12 });
    expect(await findProductBySlug(input.slug)).toMatchObject({ id: product.id, image: product.imagePath });
    expect((await apiProducts()).find((p) => p.id === product.id)).toMatchObject({ image: product.imagePath });
    expect(await db().stockAdjustment.findMany({ where: { productId: product.id } })).toEqual([
      expect.objectContaining({ kind: "initial", delta: 12, stockAfter: 12, reason: "" }),
    ]);
  });

  it("the back office's form: 303 to the new product's page", async () => {
    const response = await create({ multipart: fields(), image: uniquePng() });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(/^\/admin\/products\/[0-9a-f-]{36}\?done=created$/);
  });

  it.each([
    ["an invalid slug", { slug: "Café Bom" }, "slug"],
    ["a slug with a trailing hyphen", { slug: "cafe-" }, "slug"],
    ["no name", { name: "  " }, "name"],
    ["a name too long", { name: "x".repeat(121) }, "name"],
    ["a description too long", { description: "x".repeat(2001) }, "description"],
    ["a price of 0", { priceAoa: "0" }, "priceAoa"],
    ["a decimal price", { priceAoa: "12.5" }, "priceAoa"],
    ["a price above the limit", { priceAoa: "100000001" }, "priceAoa"],
    ["a negative stock", { stock: "-1" }, "stock"],
    ["a stock above the limit", { stock: "1000001" }, "stock"],
    // PostgreSQL's text cannot hold NUL: the form refuses it rather than the database (a 500).
    ["a NUL in the name", { name: "Caf\u0000é" }, "name"],
    ["a NUL in the description", { description: "Bom\u0000" }, "description"],
  ])("%s: 400 invalid_input, or 303 back to the form naming the field", async (_case, override, field) => {
    const input = fields(override);
    const refused = await create({ multipart: input, image: uniquePng() }, JSON_ACCEPT);
    expect(refused.status).toBe(400);
    expect(await json(refused)).toMatchObject({ error: { code: "invalid_input" } });
    const form = await create({ multipart: input, image: uniquePng() });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe(`/admin/products/new?error=invalid_input&field=${field}`);
    expect(await db().product.findMany({ where: { slug: input.slug } })).toEqual([]);
  });

  it("a slug already taken: 409 slug_taken", async () => {
    const taken = await insertTestProduct();
    const response = await create({ multipart: fields({ slug: taken.slug }), image: uniquePng() }, JSON_ACCEPT);
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ error: { code: "slug_taken" } });
  });

  it("without an image (JSON, or a form with none chosen): created with an empty gallery, shown with the placeholder", async () => {
    const input = fields();
    const response = await create({ json: { ...input, priceAoa: 100, stock: 1 } });
    expect(response.status).toBe(201);
    expect(await json(response)).toMatchObject({ product: { slug: input.slug, imagePath: "" } });
    const form = await create({ multipart: fields() });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toMatch(/^\/admin\/products\/[0-9a-f-]{36}\?done=created$/);
    const shown = await findProductBySlug(input.slug);
    expect(shown).toMatchObject({ image: null });
    expect(await productGallery(db(), shown!)).toEqual([]);
  });

  it("refuses what it cannot read: another content type 415, broken JSON 400, a JSON array 400", async () => {
    const other = await create({ raw: "name=x", contentType: "text/plain" });
    expect(other.status).toBe(415);
    const broken = await create({ raw: "{", contentType: "application/json" });
    expect(broken.status).toBe(400);
    const array = await create({ json: [] });
    expect(array.status).toBe(400);
  });
});

describe("images", () => {
  it("SVG (even named .png), text and an empty file are refused; nothing is stored", async () => {
    const text = Buffer.from(`just text, not an image ${randomUUID()}`);
    for (const image of [SVG, text]) {
      const response = await create({ multipart: fields(), image, imageName: "photo.png" }, JSON_ACCEPT);
      expect(response.status).toBe(415);
      expect(await json(response)).toMatchObject({ error: { code: "unsupported_image" } });
    }
    const form = await create({ multipart: fields(), image: SVG, imageName: "logo.svg" });
    expect(form.headers.get("location")).toBe("/admin/products/new?error=unsupported_image&field=image");
    for (const refused of [SVG, text])
      expect(await db().productImage.findUnique({ where: { sha256: sha256(refused) } })).toBeNull();
  });

  it("more than 2 MB: 413, whether the image or the whole request is too large", async () => {
    const justOver = Buffer.concat([uniquePng(), Buffer.alloc(MAX_IMAGE_BYTES)]);
    const image = await create({ multipart: fields(), image: justOver }, JSON_ACCEPT);
    expect(image.status).toBe(413);
    expect(await json(image)).toMatchObject({ error: { code: "image_too_large" } });
    const huge = Buffer.concat([uniquePng(), Buffer.alloc(3 * MAX_IMAGE_BYTES)]);
    const whole = await create({ multipart: fields(), image: huge }, JSON_ACCEPT);
    expect(whole.status).toBe(413);
    const form = await create({ multipart: fields(), image: huge });
    expect(form.headers.get("location")).toBe("/admin/products/new?error=image_too_large");
  });

  it("JPEG, WebP and PNG are accepted, typed by their bytes, and each stays in its format", async () => {
    const store = postgresImageStore(db());
    for (const [bytes, type, format] of [
      [await testJpeg(), "image/jpeg", "jpeg"],
      [await testWebp(), "image/webp", "webp"],
      [await testPng(), "image/png", "png"],
    ] as const) {
      const response = await create({ multipart: fields(), image: bytes, imageName: "x.gif" }, JSON_ACCEPT);
      expect(response.status).toBe(201);
      const { product } = await json(response);
      const stored = await store.get(product.imagePath.split("/").pop());
      expect(stored?.contentType).toBe(type);
      expect(await sharp(stored!.bytes).metadata()).toMatchObject({ format, width: 4, height: 3 });
    }
  });

  it("are served re-encoded, with their type, an ETag and a year of caching; 304 when unchanged, 404 when unknown", async () => {
    const colour = anyColour();
    const bytes = await testPng({ colour });
    const { product } = await json(await create({ multipart: fields(), image: bytes }, JSON_ACCEPT));
    const served = await getImage(product.imagePath);
    expect(served.status).toBe(200);
    // What was stored is the shop's own encoding of the upload: the same pixels, in a PNG.
    const servedBytes = Buffer.from(await served.arrayBuffer());
    const prepared = await prepareImage(bytes);
    expect(prepared.ok && servedBytes.equals(prepared.bytes)).toBe(true);
    expect(await sharp(servedBytes).metadata()).toMatchObject({ format: "png", width: 4, height: 3 });
    expect(await pixelAt(servedBytes, 3, 2)).toEqual(colour);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = served.headers.get("etag")!;
    expect(etag).toBe(`"${sha256(servedBytes)}"`);

    const again = await getImage(product.imagePath, { "if-none-match": etag });
    expect(again.status).toBe(304);
    for (const path of [`/api/images/${randomUUID()}`, "/api/images/not-a-uuid"]) {
      const missing = await getImage(path);
      expect(missing.status).toBe(404);
      expect(await json(missing)).toMatchObject({ error: { code: "not_found" } });
    }
  });

  it("the same file uploaded twice is stored once", async () => {
    const bytes = uniquePng();
    const first = await json(await create({ multipart: fields(), image: bytes }, JSON_ACCEPT));
    const second = await json(await create({ multipart: fields(), image: bytes }, JSON_ACCEPT));
    expect(second.product.imagePath).toBe(first.product.imagePath);
    expect(await db().productImage.count({ where: { sha256: await storedSha(bytes) } })).toBe(1);
  });

  it("a phone's JPEG is served without its EXIF (no GPS position) and upright", async () => {
    // 60 × 40, red on the left and blue on the right, with the EXIF orientation 6: a viewer turns
    // it a quarter clockwise, to 40 × 60 with red on top.
    const red: [number, number, number] = [220, 20, 20];
    const blue: [number, number, number] = [20, 20, 220];
    const photo = await testJpeg({
      width: 60,
      height: 40,
      colour: red,
      rightHalf: blue,
      exif: { gps: true, orientation: 6 },
    });
    expect(await hasGpsExif(photo)).toBe(true);
    expect(await sharp(photo).metadata()).toMatchObject({ orientation: 6, width: 60, height: 40 });

    const { product } = await json(await create({ multipart: fields(), image: photo }, JSON_ACCEPT));
    const served = Buffer.from(await (await getImage(product.imagePath)).arrayBuffer());
    const metadata = await sharp(served).metadata();
    expect(metadata).toMatchObject({ format: "jpeg", width: 40, height: 60 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(await hasGpsExif(served)).toBe(false);
    expect(nearColour(await pixelAt(served, 20, 5), red)).toBe(true);
    expect(nearColour(await pixelAt(served, 20, 55), blue)).toBe(true);
  });

  it(`a 6000 × 3000 image is stored within ${MAX_IMAGE_SIDE} × ${MAX_IMAGE_SIDE}, its proportions kept`, async () => {
    const wide = await testJpeg({ width: 6000, height: 3000 });
    const { product } = await json(await create({ multipart: fields(), image: wide }, JSON_ACCEPT));
    const served = Buffer.from(await (await getImage(product.imagePath)).arrayBuffer());
    expect(await sharp(served).metadata()).toMatchObject({ format: "jpeg", width: MAX_IMAGE_SIDE, height: 2000 });
  });

  it("a pixel bomb (a small PNG of 10 000 × 10 000) is refused with 413 image_too_many_pixels; nothing is stored", async () => {
    const bomb = await pixelBombPng();
    expect(bomb.byteLength).toBeLessThan(MAX_IMAGE_BYTES);
    const input = fields();
    const response = await create({ multipart: input, image: bomb }, JSON_ACCEPT);
    expect(response.status).toBe(413);
    expect(await json(response)).toMatchObject({ error: { code: "image_too_many_pixels" } });
    const form = await create({ multipart: input, image: bomb });
    expect(form.headers.get("location")).toBe("/admin/products/new?error=image_too_many_pixels&field=image");
    expect(await db().product.findUnique({ where: { slug: input.slug } })).toBeNull();
    // Refused before the store is asked for anything.
    const puts: string[] = [];
    const store = postgresImageStore(db());
    const counting = {
      ...store,
      put: (...args: Parameters<typeof store.put>) => (puts.push("put"), store.put(...args)),
    };
    const refused = await createProduct(fields(), { bytes: new Uint8Array(bomb) }, owner, {
      db: db(),
      images: counting,
    });
    expect(refused).toMatchObject({ ok: false, status: 413, code: "image_too_many_pixels" });
    expect(puts).toEqual([]);
  });

  it("a file that starts like a JPEG but does not decode: 400 image_unreadable, never a 500", async () => {
    const jpeg = await testJpeg({ width: 200, height: 100 });
    for (const broken of [
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(randomUUID())]),
      jpeg.subarray(0, jpeg.byteLength / 2),
    ]) {
      const response = await create({ multipart: fields(), image: broken }, JSON_ACCEPT);
      expect(response.status).toBe(400);
      expect(await json(response)).toMatchObject({ error: { code: "image_unreadable" } });
    }
  });

  it.each([
    ["an invalid price", { priceAoa: "0" }, 400, "invalid_input"],
    ["a category that does not exist", { categoryIds: randomUUID() }, 400, "invalid_input"],
  ])("a product refused for %s, with a good image, leaves no image stored", async (_case, override, status, code) => {
    const image = await testPng({ colour: anyColour() });
    const response = await create({ multipart: fields(override), image }, JSON_ACCEPT);
    expect(response.status).toBe(status);
    expect(await json(response)).toMatchObject({ error: { code } });
    const sha = await storedSha(image);
    expect(await db().productImage.findUnique({ where: { sha256: sha } })).toBeNull();
    // The same image with a product that is accepted is stored under that sha256.
    expect((await create({ multipart: fields(), image }, JSON_ACCEPT)).status).toBe(201);
    expect(await db().productImage.findUnique({ where: { sha256: sha } })).not.toBeNull();
  });
});

describe("editing a product", () => {
  it("changes name, price, stock (with its reason in the history) and image; the catalogue shows it at once", async () => {
    const product = await insertTestProduct({ priceAoa: 2500, stock: 10 });
    const response = await onProduct(
      "update",
      product.id,
      {
        multipart: editFields(product, {
          name: "Nome novo",
          priceAoa: "3100",
          stock: "7",
          stockReason: "Contagem do armazém",
        }),
        image: uniquePng(),
      },
      JSON_ACCEPT,
    );
    expect(response.status).toBe(200);
    const { product: saved } = await json(response);
    expect(saved).toMatchObject({ name: "Nome novo", priceAoa: 3100, stock: 7 });
    expect(saved.imagePath).toMatch(/^\/api\/images\//);
    expect((await apiProducts()).find((p) => p.id === product.id)).toMatchObject({
      priceAoa: 3100,
      stock: 7,
      image: saved.imagePath,
    });
    expect(await db().stockAdjustment.findMany({ where: { productId: product.id } })).toEqual([
      expect.objectContaining({ kind: "edit", delta: -3, stockAfter: 7, reason: "Contagem do armazém" }),
    ]);
  });

  it("the form's post: 303 back to the page; without a new image the image stays", async () => {
    const product = await insertTestProduct();
    const response = await onProduct("update", product.id, { multipart: editFields(product, { priceAoa: "999" }) });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/admin/products/${product.id}?done=saved`);
    expect(await db().product.findUniqueOrThrow({ where: { id: product.id } })).toMatchObject({
      priceAoa: 999,
      imagePath: product.imagePath,
      stock: product.stock,
    });
    expect(await db().stockAdjustment.count({ where: { productId: product.id } })).toBe(0);
  });

  it("a stock change without a reason: 400, nothing saved", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const response = await onProduct("update", product.id, {
      form: editFields(product, { stock: "20", priceAoa: "1" }),
    });
    expect(response.headers.get("location")).toBe(
      `/admin/products/${product.id}?error=invalid_input&field=stockReason`,
    );
    expect(await db().product.findUniqueOrThrow({ where: { id: product.id } })).toMatchObject({
      stock: 10,
      priceAoa: product.priceAoa,
    });
  });

  it("when a checkout took units after the form was shown: 409 stock_changed, nothing saved, no units given back", async () => {
    const product = await insertTestProduct({ stock: 10, priceAoa: 2000 });
    const shown = editFields(product, { stock: "15", stockReason: "Chegou mercadoria", priceAoa: "2200" });
    expect((await checkout(product.id, 3)).status).toBe(200);
    const response = await onProduct("update", product.id, { json: shown });
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ error: { code: "stock_changed" } });
    expect(await db().product.findUniqueOrThrow({ where: { id: product.id } })).toMatchObject({
      stock: 7,
      priceAoa: 2000,
    });
    const form = await onProduct("update", product.id, { form: shown });
    expect(form.headers.get("location")).toBe(`/admin/products/${product.id}?error=stock_changed&field=stock`);
  });

  it("an edit refused with a new image (stock_changed, an unknown category) leaves no image stored", async () => {
    const product = await insertTestProduct({ stock: 10 });
    expect((await checkout(product.id, 1)).status).toBe(200);
    const image = await testPng({ colour: anyColour() });
    for (const [override, code] of [
      [{ stock: "15", stockReason: "Chegou mercadoria" }, "stock_changed"],
      [{ categoryIds: randomUUID() }, "invalid_input"],
    ] as const) {
      const response = await onProduct(
        "update",
        product.id,
        { multipart: editFields(product, override), image },
        JSON_ACCEPT,
      );
      expect(await json(response)).toMatchObject({ error: { code } });
    }
    expect(await db().productImage.findUnique({ where: { sha256: await storedSha(image) } })).toBeNull();
    expect(await db().product.findUniqueOrThrow({ where: { id: product.id } })).toMatchObject({
      imagePath: product.imagePath,
    });
  });

  it("another product's slug: 409; an unknown or malformed id: 404", async () => {
    const [product, other] = await Promise.all([insertTestProduct(), insertTestProduct()]);
    const clash = await onProduct("update", product.id, { json: editFields(product, { slug: other.slug }) });
    expect(clash.status).toBe(409);
    expect(await json(clash)).toMatchObject({ error: { code: "slug_taken" } });
    for (const id of [randomUUID(), "nope"]) {
      const missing = await onProduct("update", id, { json: editFields(product) });
      expect(missing.status).toBe(404);
    }
  });
});

describe("adjusting stock", () => {
  it("adds and takes units with a reason, newest first in the history", async () => {
    const product = await insertTestProduct({ stock: 5 });
    const added = await onProduct("stock", product.id, { form: { delta: "+4", reason: "Reposição" } });
    expect(added.headers.get("location")).toBe(`/admin/products/${product.id}?done=adjusted`);
    const taken = await onProduct("stock", product.id, { json: { delta: -2, reason: "Partido" } });
    expect(taken.status).toBe(200);
    expect((await json(taken)).product.stock).toBe(7);
    const history = await db().stockAdjustment.findMany({
      where: { productId: product.id },
      orderBy: { createdAt: "desc" },
    });
    expect(history.map((row) => [row.delta, row.stockAfter, row.reason])).toEqual([
      [-2, 7, "Partido"],
      [4, 9, "Reposição"],
    ]);
  });

  it.each([
    ["a delta of 0", { delta: "0", reason: "x" }, "delta"],
    ["a decimal delta", { delta: "1.5", reason: "x" }, "delta"],
    ["no reason", { delta: "3", reason: " " }, "reason"],
    ["a reason too long", { delta: "3", reason: "x".repeat(501) }, "reason"],
    ["a NUL in the reason", { delta: "3", reason: "Chegou\u0000" }, "reason"],
  ])("%s: 400", async (_case, input, field) => {
    const product = await insertTestProduct({ stock: 5 });
    const response = await onProduct("stock", product.id, { form: input });
    expect(response.headers.get("location")).toBe(`/admin/products/${product.id}?error=invalid_input&field=${field}`);
    expect(await stockOf(product.id)).toBe(5);
  });

  it("below zero: 409 insufficient_stock, nothing changed", async () => {
    const product = await insertTestProduct({ stock: 2 });
    const response = await onProduct("stock", product.id, { json: { delta: -3, reason: "Perda" } });
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ error: { code: "insufficient_stock" } });
    expect(await stockOf(product.id)).toBe(2);
    expect(await db().stockAdjustment.count({ where: { productId: product.id } })).toBe(0);
  });

  it("concurrent with checkouts' reservations, loses none of their decrements", async () => {
    const product = await insertTestProduct({ stock: 50 });
    // What reserveOrder does for each line (lib/checkout/reserve.ts), twenty times at once.
    const reserve = () =>
      db().$transaction((tx) =>
        tx.product.updateMany({ where: { id: product.id, stock: { gte: 1 } }, data: { stock: { decrement: 1 } } }),
      );
    const adjust = (delta: number) => adjustStock(product.id, { delta, reason: "Concorrência" }, owner, { db: db() });
    const results = await Promise.all([
      ...Array.from({ length: 20 }, reserve),
      ...Array.from({ length: 5 }, () => adjust(10)),
      ...Array.from({ length: 5 }, () => adjust(-2)),
    ]);
    expect(results.slice(20).every((result) => "ok" in result && result.ok)).toBe(true);
    expect(await stockOf(product.id)).toBe(50 - 20 + 50 - 10);
    const history = await db().stockAdjustment.findMany({ where: { productId: product.id } });
    expect(history).toHaveLength(10);
  });

  it("the form's compare-and-set against concurrent reservations: saved only if nothing moved, never losing one", async () => {
    const product = await insertTestProduct({ stock: 30 });
    const reserve = () =>
      db().product.updateMany({ where: { id: product.id, stock: { gte: 1 } }, data: { stock: { decrement: 1 } } });
    const edit = updateProduct(
      product.id,
      editFields(product, { stock: "40", stockReason: "Inventário" }),
      undefined,
      owner,
      { db: db(), images: postgresImageStore(db()) },
    );
    const [result] = await Promise.all([edit, ...Array.from({ length: 10 }, reserve)]);
    const stock = await stockOf(product.id);
    const adjustments = await db().stockAdjustment.findMany({ where: { productId: product.id } });
    if (result.ok) {
      // The edit ran first, under the row's lock: every reservation applied to its 40.
      expect(stock).toBe(40 - 10);
      expect(adjustments).toEqual([expect.objectContaining({ delta: 10, stockAfter: 40 })]);
    } else {
      expect(result).toMatchObject({ status: 409, code: "stock_changed" });
      expect(stock).toBe(30 - 10);
      expect(adjustments).toEqual([]);
    }
  });
});

describe("archiving", () => {
  it("takes a product out of the catalogue, its page, carts and checkout; restoring puts it back", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const inCart = await addToCart(db(), { productId: product.id, quantity: 2 });
    expect(inCart.ok).toBe(true);
    const cartId = inCart.ok ? inCart.cartId : "";

    const archived = await onProduct("archive", product.id, undefined);
    expect(archived.status).toBe(200);
    const { archivedAt } = (await json(archived)).product;
    expect(archivedAt).not.toBeNull();
    expect((await listProducts()).some((p) => p.id === product.id)).toBe(false);
    expect((await apiProducts()).some((p) => p.id === product.id)).toBe(false);
    expect(await findProductBySlug(product.slug)).toBeNull();
    expect(await addToCart(db(), { productId: product.id, quantity: 1 })).toMatchObject({
      ok: false,
      code: "unknown_product",
    });
    // Already in a cart: sold out there, so the cart asks to remove it, and checkout refuses it.
    expect(await getCart(db(), cartId)).toMatchObject({ exceedsStock: true, lines: [{ stock: 0 }] });
    expect(await setLineQuantity(db(), { cartId, variantId: product.variantId, quantity: 1 })).toMatchObject({
      ok: false,
      code: "out_of_stock",
    });
    const refused = await checkout(product.id, 1);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: { code: "unknown_product" } });
    expect(await stockOf(product.id)).toBe(10);

    // Twice changes nothing.
    const again = await onProduct("archive", product.id, undefined, JSON_ACCEPT);
    expect((await json(again)).product.archivedAt).toBe(archivedAt);

    const restored = await onProduct("restore", product.id, { form: {} });
    expect(restored.status).toBe(303);
    expect(restored.headers.get("location")).toBe(`/admin/products/${product.id}?done=restored`);
    expect(await findProductBySlug(product.slug)).toMatchObject({ id: product.id });
    expect((await checkout(product.id, 1)).status).toBe(200);
  });

  it("a product with orders is archived, its orders untouched", async () => {
    const order = await insertTestOrder();
    const response = await onProduct("archive", order.productId, { form: {} });
    expect(response.headers.get("location")).toBe(`/admin/products/${order.productId}?done=archived`);
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "PEN" });
    const missing = await onProduct("archive", randomUUID(), undefined);
    expect(missing.status).toBe(404);
  });

  it("a product with an uploaded image is checked out: the service gets its absolute image URL", async () => {
    const { product } = await json(await create({ multipart: fields(), image: uniquePng() }, JSON_ACCEPT));
    const answer = await checkout(product.id, 1);
    expect(answer.status).toBe(200);
    expect(new URL(product.imagePath, `${APP}/`).href).toBe(`${APP}${product.imagePath}`);
  });
});
