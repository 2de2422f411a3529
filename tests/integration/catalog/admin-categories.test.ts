import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createCategory } from "@/lib/catalog/categories-admin";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import {
  ADMIN_APP,
  adminRequest,
  adminSessionCookie,
  testOwner,
  type AdminCaller,
} from "../../../harness/support/admin";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct } from "../../../harness/support/orders";

// The back office's categories (lib/catalog/categories-admin.ts through app/api/admin/categories) and a
// product's categories (the product form, lib/catalog/products-admin.ts), against a real database of this
// file's own: categories are the whole shop's (its header lists them), so no other test file may
// see the ones written here, nor these tests theirs.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  db: () => shared.client,
  dbPool: () => shared.pool,
}));

/** PostgreSQL (CI), not embedded PGlite, whose one session cannot hold two transactions at once. */
const server = Boolean(process.env.TEST_SERVER_DATABASE_URL);
let database: TestDatabase;
let client: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase("admin-categories");
  await applyMigrations({ connectionString: database.url });
  ({ client, pool: shared.pool } = clientOf(database.url, server ? 10 : 1));
  shared.client = client;
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});
afterEach(() => settleAfterTasks());

/** A 4×3 green PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGOQzXeCIwacHAC6twmpGx4hjgAAAABJRU5ErkJggg==",
  "base64",
);

type Caller = Pick<AdminCaller, "session" | "crossSite" | "accept">;
type Body = { json: unknown } | { form: Record<string, string> } | { raw: string; contentType: string } | undefined;

function request(path: string, body: Body, caller: Caller = {}) {
  if (body && "raw" in body)
    return adminRequest(path, { ...caller, raw: { body: body.raw, contentType: body.contentType } });
  return adminRequest(path, { ...caller, ...body });
}

const routes = {
  create: () => import("@/app/api/admin/categories/route"),
  update: () => import("@/app/api/admin/categories/[id]/route"),
  delete: () => import("@/app/api/admin/categories/[id]/delete/route"),
};

async function create(body: Body, caller?: Caller) {
  const { POST } = await routes.create();
  return POST(await request("/api/admin/categories", body, caller));
}
async function update(id: string, body: Body, caller?: Caller) {
  const { POST } = await routes.update();
  return POST(await request(`/api/admin/categories/${id}`, body, caller), { params: Promise.resolve({ id }) });
}
async function remove(id: string, body: Body, caller?: Caller) {
  const { POST } = await routes.delete();
  return POST(await request(`/api/admin/categories/${id}/delete`, body, caller), { params: Promise.resolve({ id }) });
}

const json = async (response: Response) => (await response.json()) as Record<string, any>;
const newSlug = (prefix = "cat") => `${prefix}-${randomUUID().slice(0, 8)}`;

/** A category made through the route, as a JSON client would. */
async function category(fields: Record<string, unknown> = {}) {
  const response = await create({ json: { name: "Categoria de teste", slug: newSlug(), ...fields } });
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
  return (await json(response)).category as { id: string; slug: string; parentId: string | null; name: string };
}

describe("every route refuses", () => {
  const id = randomUUID();
  const calls = [
    ["create", (caller: Caller) => create({ json: { name: "x", slug: "x" } }, caller)],
    ["update", (caller: Caller) => update(id, { json: { name: "x", slug: "x" } }, caller)],
    ["delete", (caller: Caller) => remove(id, undefined, caller)],
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
    const slug = newSlug();
    expect((await create({ form: { name: "Intrusa", slug } }, { crossSite: true })).status).toBe(403);
    expect(await client.category.findUnique({ where: { slug } })).toBeNull();
  });
});

describe("creating a category", () => {
  it("the page's form: 303 back to the list; the category is in the tree", async () => {
    const slug = newSlug();
    const response = await create({
      form: { name: "Bebidas", slug, description: "Sumos e águas.", parentId: "", position: "3" },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/categories?done=created");
    expect(await client.category.findUniqueOrThrow({ where: { slug } })).toMatchObject({
      name: "Bebidas",
      description: "Sumos e águas.",
      parentId: null,
      position: 3,
    });
  });

  it("JSON: 201 with the category; a sub-category under a top-level one", async () => {
    const parent = await category();
    const response = await create({ json: { name: "Sumos", slug: newSlug(), parentId: parent.id } });
    expect(response.status).toBe(201);
    expect(await json(response)).toMatchObject({ done: "created", category: { name: "Sumos", parentId: parent.id } });
  });

  it("an empty slug is made from the name; a name that leaves nothing is refused", async () => {
    const name = `Café & Chá ${randomUUID().slice(0, 4)}`;
    const made = await create({ form: { name, slug: "", position: "" } });
    expect(made.headers.get("location")).toBe("/admin/categories?done=created");
    const saved = await client.category.findFirstOrThrow({ where: { name } });
    expect(saved.slug).toMatch(/^cafe-cha-[0-9a-f]{4}$/);
    expect(saved.position).toBe(0);

    const nothing = await create({ form: { name: "!!!", slug: "" } });
    expect(nothing.headers.get("location")).toBe("/admin/categories?error=invalid_input&field=slug");
  });

  it.each([
    ["no name", { name: "  " }, "name"],
    ["a name too long", { name: "x".repeat(81) }, "name"],
    ["an invalid slug", { slug: "Bebidas Frescas" }, "slug"],
    ["a slug too long", { slug: "a".repeat(121) }, "slug"],
    ["a description too long", { description: "x".repeat(2001) }, "description"],
    ["a negative position", { position: "-1" }, "position"],
    ["a decimal position", { position: "1.5" }, "position"],
    ["a position that is not a number", { position: "primeiro" }, "position"],
    ["a position above the limit", { position: "100001" }, "position"],
    ["a parent that is not an id", { parentId: "mercearia" }, "parentId"],
    ["a parent that does not exist", { parentId: randomUUID() }, "parentId"],
  ])("%s: 400 invalid_input naming the field, nothing created", async (_case, override, field) => {
    const input = { name: "Categoria", slug: newSlug(), ...override };
    const refused = await create({ json: input });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toMatchObject({ error: { code: "invalid_input" } });
    const form = await create({ form: input });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe(`/admin/categories?error=invalid_input&field=${field}`);
    expect(await client.category.count({ where: { name: input.name, slug: input.slug } })).toBe(0);
  });

  it("a slug another category has: 409 slug_taken", async () => {
    const taken = await category();
    const response = await create({ json: { name: "Outra", slug: taken.slug } });
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ error: { code: "slug_taken" } });
    const form = await create({ form: { name: "Outra", slug: taken.slug } });
    expect(form.headers.get("location")).toBe("/admin/categories?error=slug_taken&field=slug");
  });
});

describe("two levels at most", () => {
  it("under a sub-category: 409 too_deep, nothing created", async () => {
    const top = await category();
    const sub = await category({ parentId: top.id });
    const slug = newSlug();
    const response = await create({ json: { name: "Terceiro nível", slug, parentId: sub.id } });
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ error: { code: "too_deep" } });
    const form = await create({ form: { name: "Terceiro nível", slug, parentId: sub.id } });
    expect(form.headers.get("location")).toBe("/admin/categories?error=too_deep&field=parentId");
    expect(await client.category.findUnique({ where: { slug } })).toBeNull();
  });

  it("a category with sub-categories cannot go under another: 409 too_deep", async () => {
    const [top, other] = [await category(), await category()];
    await category({ parentId: top.id });
    const response = await update(top.id, { json: { name: top.name, slug: top.slug, parentId: other.id } });
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ error: { code: "too_deep" } });
    expect((await client.category.findUniqueOrThrow({ where: { id: top.id } })).parentId).toBeNull();
  });

  it("a sub-category cannot become a parent: 409 too_deep", async () => {
    const top = await category();
    const sub = await category({ parentId: top.id });
    const moved = await category();
    const response = await update(moved.id, { form: { name: moved.name, slug: moved.slug, parentId: sub.id } });
    expect(response.headers.get("location")).toBe(`/admin/categories/${moved.id}?error=too_deep&field=parentId`);
  });

  it("a category cannot be its own parent: 400", async () => {
    const top = await category();
    const response = await update(top.id, { json: { name: top.name, slug: top.slug, parentId: top.id } });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ error: { code: "invalid_input" } });
  });

  it("a third level made between the check and the write is refused by the database: 409 too_deep", async () => {
    // The race forced inside the insert itself: a trigger of this test's, which fires before the
    // shop's (triggers fire in name order), moves the new category's parent under another
    // category, as a second admin's save landing just after the up-front check would. The shop's
    // trigger (categories_two_levels) then sees a third level.
    const [top, other] = [await category(), await category()];
    const slug = newSlug("race");
    await client.$executeRawUnsafe(`
CREATE FUNCTION test_race_${slug.replace(/-/g, "_")}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.slug = '${slug}' THEN
    UPDATE categories SET parent_id = '${other.id}' WHERE id = NEW.parent_id;
  END IF;
  RETURN NEW;
END
$$`);
    await client.$executeRawUnsafe(
      `CREATE TRIGGER a_test_race BEFORE INSERT ON categories FOR EACH ROW EXECUTE FUNCTION test_race_${slug.replace(/-/g, "_")}()`,
    );
    try {
      const result = await createCategory({ name: "Corrida", slug, parentId: top.id }, await testOwner(), {
        db: client,
      });
      expect(result).toMatchObject({ ok: false, status: 409, code: "too_deep", field: "parentId" });
    } finally {
      await client.$executeRawUnsafe("DROP TRIGGER a_test_race ON categories");
      await client.$executeRawUnsafe(`DROP FUNCTION test_race_${slug.replace(/-/g, "_")}()`);
    }
    expect(await client.category.findUnique({ where: { slug } })).toBeNull();
    // The moved parent went back with the refused insert: one transaction.
    expect((await client.category.findUniqueOrThrow({ where: { id: top.id } })).parentId).toBeNull();
  });

  it.skipIf(!server)(
    "under a real race with another admin's move, the insert waits for it and is refused: 409 too_deep",
    async () => {
      const [top, other] = [await category(), await category()];
      const slug = newSlug("race");
      const otherAdmin = new pg.Client({ connectionString: database.url });
      await otherAdmin.connect();
      try {
        // The other admin moves `top` under `other` and has not committed yet: its trigger holds
        // the tree's lock, and `top` still reads as top-level to everyone else.
        await otherAdmin.query("BEGIN");
        await otherAdmin.query("UPDATE categories SET parent_id = $1 WHERE id = $2", [other.id, top.id]);
        const attempt = createCategory({ name: "Corrida", slug, parentId: top.id }, await testOwner(), { db: client });
        // The up-front check passed; the insert's trigger now waits for the tree's lock.
        await expect
          .poll(
            async () =>
              (
                await otherAdmin.query(
                  "SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
                )
              ).rows[0].waiting,
            { timeout: 10_000 },
          )
          .toBeGreaterThan(0);
        await otherAdmin.query("COMMIT");
        expect(await attempt).toMatchObject({ ok: false, status: 409, code: "too_deep" });
      } finally {
        await otherAdmin.end();
      }
      expect(await client.category.findUnique({ where: { slug } })).toBeNull();
      expect((await client.category.findUniqueOrThrow({ where: { id: top.id } })).parentId).toBe(other.id);
    },
  );
});

describe("editing a category", () => {
  it("renames, moves under a top-level category and back; the form goes back to its page", async () => {
    const [parent, edited] = [await category(), await category()];
    const slug = newSlug();
    const moved = await update(edited.id, {
      form: { name: "Renomeada", slug, description: "Nova.", parentId: parent.id, position: "7" },
    });
    expect(moved.status).toBe(303);
    expect(moved.headers.get("location")).toBe(`/admin/categories/${edited.id}?done=saved`);
    expect(await client.category.findUniqueOrThrow({ where: { id: edited.id } })).toMatchObject({
      name: "Renomeada",
      slug,
      description: "Nova.",
      parentId: parent.id,
      position: 7,
    });
    const back = await update(edited.id, { json: { name: "Renomeada", slug, parentId: "" } });
    expect(back.status).toBe(200);
    expect(await json(back)).toMatchObject({ done: "saved", category: { parentId: null, position: 0 } });
  });

  it("keeps its own slug; another's is 409; an unknown or malformed id is 404", async () => {
    const [edited, other] = [await category(), await category()];
    expect((await update(edited.id, { json: { name: "Mesmo slug", slug: edited.slug } })).status).toBe(200);
    const clash = await update(edited.id, { json: { name: "x", slug: other.slug } });
    expect(clash.status).toBe(409);
    expect(await json(clash)).toMatchObject({ error: { code: "slug_taken" } });
    for (const id of [randomUUID(), "nope"]) {
      const missing = await update(id, { json: { name: "x", slug: newSlug() } });
      expect(missing.status).toBe(404);
      expect(await json(missing)).toMatchObject({ error: { code: "not_found" } });
    }
  });
});

describe("deleting a category", () => {
  it("is refused while it has sub-categories, then works; its products simply leave it", async () => {
    const top = await category();
    const sub = await category({ parentId: top.id });
    const product = await insertTestProduct();
    await client.productCategory.createMany({
      data: [
        { productId: product.id, categoryId: top.id },
        { productId: product.id, categoryId: sub.id },
      ],
    });

    const refused = await remove(top.id, { form: {} });
    expect(refused.headers.get("location")).toBe(`/admin/categories/${top.id}?error=has_children`);
    const refusedJson = await remove(top.id, undefined);
    expect(refusedJson.status).toBe(409);
    expect(await json(refusedJson)).toMatchObject({ error: { code: "has_children" } });

    const child = await remove(sub.id, { form: {} });
    expect(child.headers.get("location")).toBe("/admin/categories?done=deleted");
    const parent = await remove(top.id, undefined);
    expect(parent.status).toBe(200);
    expect(await json(parent)).toMatchObject({ done: "deleted", category: { id: top.id } });

    expect(await client.category.count({ where: { id: { in: [top.id, sub.id] } } })).toBe(0);
    expect(await client.productCategory.count({ where: { productId: product.id } })).toBe(0);
    expect(await client.product.findUnique({ where: { id: product.id } })).not.toBeNull();
  });

  it("is refused while a promo code is limited to it, naming the codes: a code never widens to the whole shop", async () => {
    const books = await category({ name: "Livros" });
    const music = await category({ name: "Música" });
    const code = (prefix: string, categoryIds: string[]) =>
      client.promoCode.create({
        data: {
          code: `${prefix}${randomUUID().slice(0, 6).toUpperCase()}`,
          kind: "percent",
          value: 20,
          // A code switched off still names it: turned on again, it would apply to everything.
          active: prefix !== "OFF",
          categories: { create: categoryIds.map((categoryId) => ({ categoryId })) },
        },
      });
    const livros = await code("LIVROS", [books.id]);
    const cultura = await code("OFF", [books.id, music.id]);

    const refusedJson = await remove(books.id, undefined);
    expect(refusedJson.status).toBe(409);
    const { error } = await json(refusedJson);
    expect(error.code).toBe("has_promo_codes");
    expect(error.message).toContain(livros.code);
    expect(error.message).toContain(cultura.code);
    const refused = await remove(books.id, { form: {} });
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe(`/admin/categories/${books.id}?error=has_promo_codes`);
    expect(await client.category.count({ where: { id: books.id } })).toBe(1);
    expect(await client.promoCodeCategory.count({ where: { categoryId: books.id } })).toBe(2);

    // Once no code names it, it goes; the codes that named another category keep it.
    await client.promoCodeCategory.deleteMany({ where: { categoryId: books.id } });
    expect((await remove(books.id, undefined)).status).toBe(200);
    expect(await client.promoCodeCategory.findMany({ where: { promoCodeId: cultura.id } })).toEqual([
      { promoCodeId: cultura.id, categoryId: music.id },
    ]);
  });

  it("the database refuses it too: a delete that goes around the back office leaves the code's categories", async () => {
    const books = await category({ name: "Livros" });
    const livros = await client.promoCode.create({
      data: {
        code: `DB${randomUUID().slice(0, 6).toUpperCase()}`,
        kind: "percent",
        value: 20,
        categories: { create: { categoryId: books.id } },
      },
    });
    await expect(client.$executeRaw`DELETE FROM categories WHERE id = ${books.id}::uuid`).rejects.toThrow(
      /promo_code_categories_category_id_fkey/,
    );
    expect(await client.promoCodeCategory.count({ where: { promoCodeId: livros.id } })).toBe(1);
  });

  it.skipIf(!server)(
    "under a real race with a promo code being saved with it, the delete waits for the save and is refused: 409 has_promo_codes",
    async () => {
      const books = await category({ name: "Livros" });
      const code = await client.promoCode.create({
        data: { code: `RACE${randomUUID().slice(0, 6).toUpperCase()}`, kind: "percent", value: 20 },
      });
      const otherAdmin = new pg.Client({ connectionString: database.url });
      await otherAdmin.connect();
      try {
        // The other admin's save has checked the category (FOR KEY SHARE, lib/catalog/categories-admin.ts
        // lockCategories) and linked it, and has not committed yet.
        await otherAdmin.query("BEGIN");
        await otherAdmin.query("SELECT id FROM categories WHERE id = $1 FOR KEY SHARE", [books.id]);
        await otherAdmin.query("INSERT INTO promo_code_categories (promo_code_id, category_id) VALUES ($1, $2)", [
          code.id,
          books.id,
        ]);
        const attempt = remove(books.id, undefined);
        await expect
          .poll(
            async () =>
              (
                await otherAdmin.query(
                  "SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted AND locktype IN ('tuple', 'transactionid')",
                )
              ).rows[0].waiting,
            { timeout: 10_000 },
          )
          .toBeGreaterThan(0);
        await otherAdmin.query("COMMIT");
        const refused = await attempt;
        expect(refused.status).toBe(409);
        expect(await json(refused)).toMatchObject({ error: { code: "has_promo_codes" } });
      } finally {
        await otherAdmin.end();
      }
      expect(await client.promoCodeCategory.count({ where: { promoCodeId: code.id, categoryId: books.id } })).toBe(1);
    },
  );

  it("the category's page names the codes limited to it", async () => {
    const books = await category({ name: "Livros" });
    const livros = await client.promoCode.create({
      data: {
        code: `PAGE${randomUUID().slice(0, 6).toUpperCase()}`,
        kind: "percent",
        value: 20,
        categories: { create: { categoryId: books.id } },
      },
    });
    const { adminCategoryDetail } = await import("@/lib/catalog/categories-admin");
    expect((await adminCategoryDetail(client, books.id))?.promoCodes).toEqual([{ id: livros.id, code: livros.code }]);
  });

  it("an unknown or malformed id: 404", async () => {
    for (const id of [randomUUID(), "nope"]) expect((await remove(id, undefined)).status).toBe(404);
  });
});

describe("a product's categories", () => {
  const productRoutes = {
    create: () => import("@/app/api/admin/products/route"),
    update: () => import("@/app/api/admin/products/[id]/route"),
  };
  const categoriesOf = async (productId: string) =>
    (await client.productCategory.findMany({ where: { productId }, select: { categoryId: true } }))
      .map((row) => row.categoryId)
      .sort();
  const productFields = (product: {
    name: string;
    slug: string;
    description: string;
    priceAoa: number;
    stock: number;
  }) => ({
    name: product.name,
    slug: product.slug,
    description: product.description,
    priceAoa: String(product.priceAoa),
    stock: String(product.stock),
    stockShown: String(product.stock),
    stockReason: "",
  });
  /** The edit form as a browser posts it: every ticked box, and the empty one always sent. */
  const editForm = (fields: Record<string, string>, categoryIds: string[]) =>
    [...Object.entries(fields), ["categoryIds", ""], ...categoryIds.map((id) => ["categoryIds", id])]
      .map(([name, value]) => `${encodeURIComponent(name!)}=${encodeURIComponent(value!)}`)
      .join("&");
  async function updateProduct(id: string, body: Body) {
    const { POST } = await productRoutes.update();
    return POST(await request(`/api/admin/products/${id}`, body), { params: Promise.resolve({ id }) });
  }

  it("the new product form: multipart with ticked boxes; the product is in those categories", async () => {
    const [a, b] = [await category(), await category()];
    const form = new FormData();
    const slug = newSlug("produto");
    for (const [name, value] of Object.entries({
      name: "Produto com categorias",
      slug,
      description: "Descrição.",
      priceAoa: "1000",
      stock: "3",
      imageAlt: "Um pacote verde",
    }))
      form.append(name, value);
    form.append("categoryIds", "");
    form.append("categoryIds", a.id);
    form.append("categoryIds", b.id);
    form.append("image", new File([new Uint8Array(PNG)], "p.png"));
    const { POST } = await productRoutes.create();
    const response = await POST(
      new NextRequest(`${ADMIN_APP}/api/admin/products`, {
        method: "POST",
        headers: { origin: ADMIN_APP, cookie: await adminSessionCookie() },
        body: form,
      }),
    );
    expect(response.status).toBe(303);
    const product = await client.product.findUniqueOrThrow({ where: { slug } });
    expect(await categoriesOf(product.id)).toEqual([a.id, b.id].sort());
  });

  it("the edit form replaces the set; ticking none clears it; a JSON client without categoryIds leaves it", async () => {
    const [a, b, c] = [await category(), await category(), await category()];
    const product = await insertTestProduct();
    const form = (ids: string[]) => ({
      raw: editForm(productFields(product), ids),
      contentType: "application/x-www-form-urlencoded",
    });

    const first = await updateProduct(product.id, form([a.id, b.id]));
    expect(first.headers.get("location")).toBe(`/admin/products/${product.id}?done=saved`);
    expect(await categoriesOf(product.id)).toEqual([a.id, b.id].sort());

    await updateProduct(product.id, form([c.id, b.id.toUpperCase(), b.id]));
    expect(await categoriesOf(product.id)).toEqual([b.id, c.id].sort());

    const json = await updateProduct(product.id, { json: { ...productFields(product), priceAoa: 1234 } });
    expect(json.status).toBe(200);
    expect(await categoriesOf(product.id)).toEqual([b.id, c.id].sort());

    await updateProduct(product.id, form([]));
    expect(await categoriesOf(product.id)).toEqual([]);

    const one = await updateProduct(product.id, { json: { ...productFields(product), categoryIds: [a.id] } });
    expect(one.status).toBe(200);
    expect(await categoriesOf(product.id)).toEqual([a.id]);
  });

  it("an unknown or malformed category: 400 invalid_input naming the categories, nothing saved", async () => {
    const a = await category();
    const product = await insertTestProduct({ priceAoa: 2500 });
    await client.productCategory.create({ data: { productId: product.id, categoryId: a.id } });
    for (const ids of [[randomUUID()], [a.id, randomUUID()], ["mercearia"]]) {
      const response = await updateProduct(product.id, {
        raw: editForm({ ...productFields(product), priceAoa: "9999" }, ids),
        contentType: "application/x-www-form-urlencoded",
      });
      expect(response.headers.get("location")).toBe(
        `/admin/products/${product.id}?error=invalid_input&field=categories`,
      );
    }
    const json = await updateProduct(product.id, { json: { ...productFields(product), categoryIds: "nope" } });
    expect(json.status).toBe(400);
    const notArray = await updateProduct(product.id, { json: { ...productFields(product), categoryIds: { a: 1 } } });
    expect(notArray.status).toBe(400);
    expect(await categoriesOf(product.id)).toEqual([a.id]);
    expect((await client.product.findUniqueOrThrow({ where: { id: product.id } })).priceAoa).toBe(2500);
  });
});

describe("no client input is a server error", () => {
  it.each([
    ["a JSON array", { raw: "[]", contentType: "application/json" }],
    ["JSON null", { raw: "null", contentType: "application/json" }],
    ["broken JSON", { raw: "{", contentType: "application/json" }],
    ["text", { raw: "name=x", contentType: "text/plain" }],
    ["wrong types", { json: { name: 5, slug: ["a"], description: {}, parentId: 7, position: { n: 1 } } }],
    ["a huge name", { json: { name: "x".repeat(100_000), slug: "x" } }],
    ["a slug with a NUL", { json: { name: "x", slug: "a\u0000b" } }],
    ["a name of control characters only", { form: { name: "\u0000\u0001", slug: "" } }],
    ["a position too large for an integer", { json: { name: "x", slug: newSlug(), position: 1e20 } }],
    ["a name with a NUL", { json: { name: "a\u0000b", slug: newSlug() } }],
    ["a description with a NUL", { form: { name: "x", slug: newSlug(), description: "a\u0000b" } }],
  ] as const)("%s: 4xx, or a form sent back with its error, from every route", async (_case, body) => {
    const top = await category();
    for (const response of [await create(body), await update(top.id, body)]) {
      if (body && "form" in body) {
        expect(response.status).toBe(303);
        expect(response.headers.get("location")).toMatch(/\?error=invalid_input/);
      } else {
        expect(response.status, await response.clone().text()).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
      }
    }
  });
});
