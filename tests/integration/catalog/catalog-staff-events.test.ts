import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eventsOfSubject, type Actor } from "@/lib/admin/staff-events";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { adminRequest, testPerson, type AdminCaller } from "../../../harness/support/admin";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { testPng } from "../../../harness/support/images";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct } from "../../../harness/support/orders";

// Who did what in the catalogue (lib/admin/staff-events.ts): every change made through the back
// office's catalogue routes is one row of staff_events, by the signed-in person, written in the
// change's own transaction; a refused change writes none. On a database of this file's own: the
// last test puts a trigger on staff_events, which no other file may meet.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  db: () => shared.client,
  dbPool: () => shared.pool,
}));

let database: TestDatabase;
let client: PrismaClient;
let ana: Actor;
let owner: Actor;

beforeAll(async () => {
  database = await createTestDatabase("catalog-staff-events");
  await applyMigrations({ connectionString: database.url });
  ({ client, pool: shared.pool } = clientOf(database.url));
  shared.client = client;
  ana = await testPerson("staff", "Ana");
  owner = await testPerson("owner");
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});
afterEach(() => settleAfterTasks());

type Caller = Pick<AdminCaller, "json" | "form" | "multipart" | "raw" | "accept"> & { as?: Actor };
type Route = { POST: (request: never, context: never) => Promise<Response> };

/** POSTs to the route module at `path` (its [params] from `params`) as `caller.as` (Ana by default). */
async function post(route: () => Promise<Route>, path: string, params: Record<string, string>, caller: Caller = {}) {
  const { as = ana, ...body } = caller;
  const { POST } = await route();
  const request = await adminRequest(path, { session: as, ...body });
  return POST(request as never, { params: Promise.resolve(params) } as never);
}

const routes = {
  products: () => import("@/app/api/admin/products/route"),
  product: () => import("@/app/api/admin/products/[id]/route"),
  stock: () => import("@/app/api/admin/products/[id]/stock/route"),
  archive: () => import("@/app/api/admin/products/[id]/archive/route"),
  restore: () => import("@/app/api/admin/products/[id]/restore/route"),
  options: () => import("@/app/api/admin/products/[id]/options/route"),
  variants: () => import("@/app/api/admin/products/[id]/variants/route"),
  archiveVariant: () => import("@/app/api/admin/products/[id]/variants/[variantId]/archive/route"),
  restoreVariant: () => import("@/app/api/admin/products/[id]/variants/[variantId]/restore/route"),
  gallery: () => import("@/app/api/admin/products/[id]/gallery/route"),
  galleryImage: () => import("@/app/api/admin/products/[id]/gallery/[imageId]/route"),
  moveImage: () => import("@/app/api/admin/products/[id]/gallery/[imageId]/move/route"),
  deleteImage: () => import("@/app/api/admin/products/[id]/gallery/[imageId]/delete/route"),
  categories: () => import("@/app/api/admin/categories/route"),
  category: () => import("@/app/api/admin/categories/[id]/route"),
  deleteCategory: () => import("@/app/api/admin/categories/[id]/delete/route"),
  import: () => import("@/app/api/admin/catalogue/import/route"),
} satisfies Record<string, () => Promise<Route>>;

const events = (subject: string) => eventsOfSubject(client, subject);
const eventCount = () => client.staffEvent.count();
const slug = (prefix = "p") => `${prefix}-${randomUUID().slice(0, 8)}`;
/** What the form shows of a product, to edit it. */
const productForm = (product: { name: string; slug: string; description: string }) => ({
  name: product.name,
  slug: product.slug,
  description: product.description,
});

/** Ana's event, as the record keeps it. */
const byAna = (kind: string, subject: string, details: Record<string, unknown>) =>
  expect.objectContaining({ staffId: ana.id, staffName: "Ana", kind, subject, details });

describe("products", () => {
  it("a new product: product.create by the person, with its fields", async () => {
    const fields = { name: "Café de Ana", slug: slug(), description: "Torrado.", priceAoa: 4500, stock: 7 };
    const response = await post(routes.products, "/api/admin/products", {}, { json: fields });
    expect(response.status).toBe(201);
    const { product } = (await response.json()) as { product: { id: string } };
    expect(await events(`product:${product.id}`)).toEqual([
      byAna("product.create", `product:${product.id}`, { ...fields, categoryIds: [] }),
    ]);
  });

  it("an edit: product.update with each changed field from and to, the stock with its reason", async () => {
    const product = await insertTestProduct({ priceAoa: 2500, stock: 10 });
    const subject = `product:${product.id}`;
    const response = await post(
      routes.product,
      `/api/admin/products/${product.id}`,
      { id: product.id },
      {
        json: {
          ...productForm(product),
          name: "Nome novo",
          priceAoa: 3000,
          stock: 12,
          stockShown: 10,
          stockReason: "Inventário",
        },
      },
    );
    expect(response.status).toBe(200);
    expect(await events(subject)).toEqual([
      byAna("product.update", subject, {
        name: { from: product.name, to: "Nome novo" },
        priceAoa: { from: 2500, to: 3000 },
        stock: { from: 10, to: 12 },
        stockReason: "Inventário",
      }),
    ]);

    // A new image: its stored path, from and to (never its bytes).
    const image = await post(
      routes.product,
      `/api/admin/products/${product.id}`,
      { id: product.id },
      {
        multipart: { fields: { ...productForm({ ...product, name: "Nome novo" }) }, image: await testPng() },
        accept: "application/json",
      },
    );
    expect(image.status).toBe(200);
    const after = await client.product.findUniqueOrThrow({ where: { id: product.id } });
    const [, second] = await events(subject);
    expect(second).toEqual(
      byAna("product.update", subject, { image: { from: product.imagePath, to: after.imagePath } }),
    );
    expect(JSON.stringify(second!.details).length).toBeLessThan(500);

    // Saved as it was: nothing changed, nothing recorded.
    const same = await post(
      routes.product,
      `/api/admin/products/${product.id}`,
      { id: product.id },
      {
        json: productForm({ ...product, name: "Nome novo" }),
      },
    );
    expect(same.status).toBe(200);
    expect(await events(subject)).toHaveLength(2);
  });

  it("a refused edit records nothing: bad input, a slug taken, a stock that moved (409)", async () => {
    const [product, other] = [await insertTestProduct({ stock: 10 }), await insertTestProduct()];
    const before = await eventCount();
    const edit = (json: Record<string, unknown>) =>
      post(routes.product, `/api/admin/products/${product.id}`, { id: product.id }, { json });
    expect((await edit({ ...productForm(product), priceAoa: -1 })).status).toBe(400);
    expect((await edit({ ...productForm(product), slug: other.slug })).status).toBe(409);
    const moved = await edit({ ...productForm(product), name: "Outro", stock: 20, stockShown: 9, stockReason: "x" });
    expect(moved.status).toBe(409);
    expect(await eventCount()).toBe(before);
    expect((await client.product.findUniqueOrThrow({ where: { id: product.id } })).name).toBe(product.name);
  });

  it("archive and restore: one event each, none for archiving what is archived", async () => {
    const product = await insertTestProduct();
    const subject = `product:${product.id}`;
    const onProduct = (route: () => Promise<Route>, action: string) =>
      post(route, `/api/admin/products/${product.id}/${action}`, { id: product.id }, { json: {} });
    expect((await onProduct(routes.archive, "archive")).status).toBe(200);
    expect((await onProduct(routes.archive, "archive")).status).toBe(200);
    expect((await onProduct(routes.restore, "restore")).status).toBe(200);
    expect(await events(subject)).toEqual([
      byAna("product.archive", subject, { name: product.name }),
      byAna("product.restore", subject, { name: product.name }),
    ]);
  });

  it("a stock adjustment: product.stock from and to with its reason; one out of range records nothing", async () => {
    const product = await insertTestProduct({ stock: 5 });
    const subject = `product:${product.id}`;
    const adjust = (delta: number) =>
      post(
        routes.stock,
        `/api/admin/products/${product.id}/stock`,
        { id: product.id },
        {
          json: { delta, reason: "Chegou mercadoria" },
        },
      );
    expect((await adjust(3)).status).toBe(200);
    expect((await adjust(-100)).status).toBe(409);
    expect(await events(subject)).toEqual([
      byAna("product.stock", subject, {
        variantId: product.variantId,
        from: 5,
        to: 8,
        delta: 3,
        reason: "Chegou mercadoria",
      }),
    ]);
  });
});

describe("options and variants", () => {
  it("options: product.options with the options from and to and the variants made; the table, archive and restore: variant.*", async () => {
    const product = await insertTestProduct({ priceAoa: 1000, stock: 4 });
    const subject = `product:${product.id}`;
    const path = `/api/admin/products/${product.id}`;
    const options = [{ name: "Tamanho", values: ["P", "M"] }];
    const saved = await post(routes.options, `${path}/options`, { id: product.id }, { json: { options } });
    expect(saved.status).toBe(200);
    const { variants } = (await saved.json()) as { variants: { id: string; title: string; stock: number }[] };
    const [p, m] = [variants.find((v) => v.title === "P")!, variants.find((v) => v.title === "M")!];

    // The table: M's price and P's stock.
    const table = variants.map((variant) => ({
      id: variant.id,
      sku: "",
      priceAoa: variant.id === m.id ? 1500 : 1000,
      stock: variant.id === p.id ? 6 : variant.stock,
      stockShown: variant.stock,
      imagePath: "",
    }));
    const edited = await post(
      routes.variants,
      `${path}/variants`,
      { id: product.id },
      {
        json: { variants: table, stockReason: "Contagem" },
      },
    );
    expect(edited.status).toBe(200);

    const variantPath = (id: string, action: string) => `${path}/variants/${id}/${action}`;
    const params = (variantId: string) => ({ id: product.id, variantId });
    expect((await post(routes.archiveVariant, variantPath(m.id, "archive"), params(m.id))).status).toBe(200);
    // The last active variant stays: refused, nothing recorded.
    expect((await post(routes.archiveVariant, variantPath(p.id, "archive"), params(p.id))).status).toBe(409);
    expect((await post(routes.restoreVariant, variantPath(m.id, "restore"), params(m.id))).status).toBe(200);

    expect(await events(subject)).toEqual([
      byAna("product.options", subject, {
        options: { from: [], to: options },
        variants: { created: 1, restored: 0, archived: 0 },
      }),
      byAna("variant.update", subject, {
        // In the table's order.
        variants: table.map((row) =>
          row.id === p.id
            ? { id: p.id, title: "P", stock: { from: 4, to: 6 } }
            : { id: m.id, title: "M", priceAoa: { from: 1000, to: 1500 } },
        ),
        stockReason: "Contagem",
      }),
      byAna("variant.archive", subject, { variantId: m.id, title: "M" }),
      byAna("variant.restore", subject, { variantId: m.id, title: "M" }),
    ]);
  });

  it("refused options and tables record nothing", async () => {
    const product = await insertTestProduct();
    const before = await eventCount();
    const path = `/api/admin/products/${product.id}`;
    const badOptions = [{ name: "Cor", values: ["Azul", "Azul"] }];
    expect(
      (await post(routes.options, `${path}/options`, { id: product.id }, { json: { options: badOptions } })).status,
    ).toBe(400);
    const stale = [{ id: product.variantId, sku: "", priceAoa: 999, stock: 50, stockShown: 1, imagePath: "" }];
    const table = await post(
      routes.variants,
      `${path}/variants`,
      { id: product.id },
      {
        json: { variants: stale, stockReason: "x" },
      },
    );
    expect(table.status).toBe(409);
    expect(await eventCount()).toBe(before);
  });
});

describe("gallery", () => {
  it("add, new text, move, remove: gallery.* with the image's id, path and text; a refused move records nothing", async () => {
    const product = await insertTestProduct();
    const subject = `product:${product.id}`;
    const path = `/api/admin/products/${product.id}/gallery`;
    const add = async (alt: string) => {
      const response = await post(
        routes.gallery,
        path,
        { id: product.id },
        {
          multipart: { fields: { alt }, image: await testPng() },
          accept: "application/json",
        },
      );
      expect(response.status).toBe(201);
      return ((await response.json()) as { gallery: { id: string; path: string; alt: string }[] }).gallery;
    };
    await add("Frente");
    const gallery = await add("Costas");
    const [front, back] = [gallery.find((i) => i.alt === "Frente")!, gallery.find((i) => i.alt === "Costas")!];
    const onImage = (route: () => Promise<Route>, suffix: string, json: unknown = {}) =>
      post(route, `${path}/${back.id}${suffix}`, { id: product.id, imageId: back.id }, { json });

    expect((await onImage(routes.galleryImage, "", { alt: "Costas, de perto" })).status).toBe(200);
    const last = gallery.length;
    expect((await onImage(routes.moveImage, "/move", { direction: "down" })).status).toBe(409);
    expect((await onImage(routes.moveImage, "/move", { direction: "up" })).status).toBe(200);
    expect((await onImage(routes.deleteImage, "/delete")).status).toBe(200);

    expect(await events(subject)).toEqual([
      byAna("gallery.add", subject, { imageId: front.id, path: front.path, alt: "Frente" }),
      byAna("gallery.add", subject, { imageId: back.id, path: back.path, alt: "Costas" }),
      byAna("gallery.update", subject, { imageId: back.id, alt: { from: "Costas", to: "Costas, de perto" } }),
      byAna("gallery.move", subject, { imageId: back.id, direction: "up", from: last, to: last - 1 }),
      byAna("gallery.delete", subject, { imageId: back.id, path: back.path, alt: "Costas, de perto" }),
    ]);
  });
});

describe("categories", () => {
  it("create, edit, delete: category.* with the fields, the changes, and what was deleted; refusals record nothing", async () => {
    const created = await post(
      routes.categories,
      "/api/admin/categories",
      {},
      {
        json: { name: "Bebidas", slug: slug("c"), description: "Frescas." },
      },
    );
    expect(created.status).toBe(201);
    const { category } = (await created.json()) as { category: { id: string; slug: string } };
    const subject = `category:${category.id}`;
    const before = await eventCount();
    expect(
      (await post(routes.categories, "/api/admin/categories", {}, { json: { name: "Bebidas", slug: category.slug } }))
        .status,
    ).toBe(409);
    expect((await post(routes.categories, "/api/admin/categories", {}, { json: { name: "" } })).status).toBe(400);
    expect(await eventCount()).toBe(before);

    const path = `/api/admin/categories/${category.id}`;
    const edit = (json: Record<string, unknown>) => post(routes.category, path, { id: category.id }, { json });
    expect(
      (await edit({ name: "Bebidas frias", slug: category.slug, description: "Frescas.", position: 3 })).status,
    ).toBe(200);
    expect((await edit({ name: "", slug: category.slug })).status).toBe(400);
    expect((await post(routes.deleteCategory, `${path}/delete`, { id: category.id })).status).toBe(200);

    expect(await events(subject)).toEqual([
      byAna("category.create", subject, {
        name: "Bebidas",
        slug: category.slug,
        description: "Frescas.",
        parentId: null,
        position: 0,
      }),
      byAna("category.update", subject, {
        name: { from: "Bebidas", to: "Bebidas frias" },
        position: { from: 0, to: 3 },
      }),
      byAna("category.delete", subject, { name: "Bebidas frias", slug: category.slug, parentId: null }),
    ]);
  });
});

describe("the catalogue CSV", () => {
  const HEADER = "slug,name,description,price_aoa,stock";
  const importCsv = (csv: string, query = "") =>
    post(
      routes.import,
      `/api/admin/catalogue/import${query}`,
      {},
      {
        as: owner,
        raw: { body: csv, contentType: "text/csv" },
      },
    );

  it("an import: one catalogue.import by the owner with its summary; a dry run or a bad file records nothing", async () => {
    const existing = await insertTestProduct({ priceAoa: 2500, stock: 100 });
    const [a, b] = [slug("csv"), slug("csv")];
    const csv = [
      HEADER,
      `${a},Novo A,Texto.,100,1`,
      `${b},Novo B,Texto.,200,2`,
      `${existing.slug},${existing.name},${existing.description},2600,100`,
    ].join("\n");
    const before = await eventCount();
    expect((await importCsv(csv, "?dryRun=1")).status).toBe(200);
    expect((await importCsv(`${HEADER}\n${a},,Texto.,-5,1`)).status).toBe(400);
    expect(await eventCount()).toBe(before);

    const response = await importCsv(csv);
    expect(response.status).toBe(200);
    const { summary } = (await response.json()) as { summary: Record<string, number> };
    expect(summary).toMatchObject({ rows: 3, created: 2, updated: 1, unchanged: 0 });
    expect(await events("catalogue")).toEqual([
      expect.objectContaining({
        staffId: owner.id,
        staffName: owner.name,
        kind: "catalogue.import",
        subject: "catalogue",
        details: summary,
      }),
    ]);
  });
});

describe("the record is the change's own transaction", () => {
  it("when the event cannot be written, the change is rolled back with it", async () => {
    const product = await insertTestProduct({ priceAoa: 2500, stock: 10 });
    await client.$executeRawUnsafe(`
CREATE FUNCTION test_refuse_staff_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'test: staff_events refuses this row';
END
$$`);
    await client.$executeRawUnsafe(
      "CREATE TRIGGER test_refuse_staff_events BEFORE INSERT ON staff_events FOR EACH ROW EXECUTE FUNCTION test_refuse_staff_events()",
    );
    const categorySlug = slug("c");
    const csvSlug = slug("csv");
    try {
      await expect(
        post(
          routes.product,
          `/api/admin/products/${product.id}`,
          { id: product.id },
          {
            json: { ...productForm(product), name: "Nunca gravado", priceAoa: 9999 },
          },
        ),
      ).rejects.toThrow(/staff_events refuses/);
      await expect(
        post(
          routes.stock,
          `/api/admin/products/${product.id}/stock`,
          { id: product.id },
          {
            json: { delta: 5, reason: "Nunca gravado" },
          },
        ),
      ).rejects.toThrow(/staff_events refuses/);
      await expect(
        post(routes.categories, "/api/admin/categories", {}, { json: { name: "Nunca", slug: categorySlug } }),
      ).rejects.toThrow(/staff_events refuses/);
      await expect(
        post(
          routes.import,
          "/api/admin/catalogue/import",
          {},
          {
            as: owner,
            raw: {
              body: `slug,name,description,price_aoa,stock\n${csvSlug},Nunca,Texto.,100,1`,
              contentType: "text/csv",
            },
          },
        ),
      ).rejects.toThrow(/staff_events refuses/);
    } finally {
      await client.$executeRawUnsafe("DROP TRIGGER test_refuse_staff_events ON staff_events");
      await client.$executeRawUnsafe("DROP FUNCTION test_refuse_staff_events()");
    }
    const after = await client.product.findUniqueOrThrow({ where: { id: product.id } });
    expect(after).toMatchObject({ name: product.name, priceAoa: 2500, stock: 10 });
    expect(await client.stockAdjustment.count({ where: { productId: product.id } })).toBe(0);
    expect(await client.category.findUnique({ where: { slug: categorySlug } })).toBeNull();
    expect(await client.product.findUnique({ where: { slug: csvSlug } })).toBeNull();
    expect(await events(`product:${product.id}`)).toEqual([]);
  });
});
