import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { adjustStock } from "@/lib/catalog/products-admin";
import { setProductOptions } from "@/lib/catalog/options-admin";
import { adminVariants, setVariantArchived, updateVariants } from "@/lib/catalog/variants-admin";
import { db } from "@/lib/db/client";
import { readVariantOptions } from "@/lib/catalog/variants";
import { adminRequest, testOwner, type AdminCaller } from "../../../harness/support/admin";
import type { Actor } from "@/lib/admin/staff-events";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestOrder, insertTestProduct } from "../../../harness/support/orders";

// A product's options and variants in the back office (lib/catalog/variants-admin.ts through the routes
// under app/api/admin/products/<id>/options and …/variants), against the suite's real database:
// what each answers, what it wrote, and that products' totals, carts and past orders follow.
// Every test has products of its own.

afterEach(() => settleAfterTasks());

type Caller = Pick<AdminCaller, "session" | "crossSite" | "accept" | "form">;
type Body = { json: unknown } | { form: Record<string, string> } | undefined;

const routes = {
  options: () => import("@/app/api/admin/products/[id]/options/route"),
  variants: () => import("@/app/api/admin/products/[id]/variants/route"),
  archive: () => import("@/app/api/admin/products/[id]/variants/[variantId]/archive/route"),
  restore: () => import("@/app/api/admin/products/[id]/variants/[variantId]/restore/route"),
};

async function post(route: "options" | "variants", id: string, body: Body, caller: Caller = {}) {
  const { POST } = await routes[route]();
  return POST(await adminRequest(`/api/admin/products/${id}/${route}`, { ...caller, ...body }), {
    params: Promise.resolve({ id }),
  });
}
async function onVariant(route: "archive" | "restore", id: string, variantId: string, caller: Caller = {}) {
  const { POST } = await routes[route]();
  return POST(await adminRequest(`/api/admin/products/${id}/variants/${variantId}/${route}`, caller), {
    params: Promise.resolve({ id, variantId }),
  });
}

const deps = () => ({ db: db() });
/** Who the back office's functions called directly record the change by. */
let owner: Actor;
beforeAll(async () => {
  owner = await testOwner();
});
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const productOf = (id: string) =>
  db().product.findUniqueOrThrow({ where: { id }, select: { stock: true, priceAoa: true } });
const activeOf = async (id: string) =>
  (await adminVariants(db(), id))!.variants.filter((variant) => variant.archivedAt === null);
const SIZES_COLOURS = [
  { name: "Tamanho", values: ["P", "M"] },
  { name: "Cor", values: ["Azul", "Branco"] },
];
/** The table's rows as the page renders them, with some changed. */
const tableOf = async (id: string, change: Record<string, Record<string, unknown>> = {}) =>
  (await activeOf(id)).map((variant) => ({
    id: variant.id,
    sku: variant.sku ?? "",
    priceAoa: variant.priceAoa,
    stock: variant.stock,
    stockShown: variant.stock,
    imagePath: variant.imagePath ?? "",
    ...change[variant.title],
  }));
const uniqueSku = () => `SKU-${randomUUID().slice(0, 8)}`;

describe("every route refuses", () => {
  const id = randomUUID();
  const variantId = randomUUID();
  const calls = [
    ["options", (caller: Caller) => post("options", id, { json: { options: [] } }, caller)],
    [
      "variants",
      (caller: Caller) =>
        post(
          "variants",
          id,
          { json: { variants: [{ id: variantId, sku: "", priceAoa: 1, stock: 0, stockShown: 0 }] } },
          caller,
        ),
    ],
    ["archive", (caller: Caller) => onVariant("archive", id, variantId, caller)],
    ["restore", (caller: Caller) => onVariant("restore", id, variantId, caller)],
  ] as const;

  it.each(calls)("%s without a session: 401", async (_name, call) => {
    const response = await call({ session: false });
    expect(response.status).toBe(401);
    expect(await json(response)).toMatchObject({ error: { code: "unauthorized" } });
  });

  it.each(calls)("%s from another site: 403", async (_name, call) => {
    expect((await call({ crossSite: true })).status).toBe(403);
  });

  it("an unknown product: 404", async () => {
    for (const [, call] of calls) expect((await call({})).status).toBe(404);
  });
});

describe("options", () => {
  it("a product without options: its default variant becomes the first combination, with its stock and price", async () => {
    const product = await insertTestProduct({ priceAoa: 3000, stock: 7 });
    const response = await post("options", product.id, {
      form: { option1Name: "Tamanho", option1Values: "P, M", option2Name: "Cor", option2Values: "Azul\nBranco" },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(
      new RegExp(`/admin/products/${product.id}\\?variants=options_saved#variants$`),
    );
    const view = (await adminVariants(db(), product.id))!;
    expect(view.options).toEqual(SIZES_COLOURS);
    expect(view.variants.map((variant) => [variant.title, variant.stock, variant.priceAoa])).toEqual([
      ["P, Azul", 7, 3000],
      ["P, Branco", 0, 3000],
      ["M, Azul", 0, 3000],
      ["M, Branco", 0, 3000],
    ]);
    expect(view.variants[0]!.id).toBe(product.variantId);
    expect(await productOf(product.id)).toEqual({ stock: 7, priceAoa: 3000 });
  });

  it("generating again keeps the surviving variants and archives the rest; old orders still read", async () => {
    const order = await insertTestOrder({ stockAfterReservation: 5 });
    const productId = order.productId;
    expect((await setProductOptions(productId, { options: SIZES_COLOURS }, owner, deps())).ok).toBe(true);
    const before = await activeOf(productId);
    const byTitle = Object.fromEntries(before.map((variant) => [variant.title, variant]));
    // Stock on "M, Branco", a clash-free SKU and a price on "M, Azul".
    const saved = await updateVariants(
      productId,
      { variants: await tableOf(productId, { "M, Branco": { stock: 4 } }), stockReason: "Chegou" },
      owner,
      deps(),
    );
    expect(saved.ok).toBe(true);
    // A cart (open) holds "P, Azul", which the order also sold.
    const cart = await db().cart.create({ data: { lines: { create: { variantId: order.variantId, quantity: 1 } } } });

    const response = await post("options", productId, {
      json: { options: [{ name: "Tamanho", values: ["M", "G"] }, SIZES_COLOURS[1]] },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.done).toBe("options_saved");
    const after = await activeOf(productId);
    expect(after.map((variant) => variant.title)).toEqual(["M, Azul", "M, Branco", "G, Azul", "G, Branco"]);
    expect(after[0]!.id).toBe(byTitle["M, Azul"]!.id);
    expect(after[1]).toMatchObject({ id: byTitle["M, Branco"]!.id, stock: 4 });
    expect(after[2]!.stock).toBe(0);
    // "P, …" archived, not deleted; their units left the product's total.
    const archived = await db().productVariant.findMany({ where: { productId, archivedAt: { not: null } } });
    expect(archived.map((variant) => readVariantOptions(variant.options).Tamanho)).toEqual(["P", "P"]);
    expect((await productOf(productId)).stock).toBe(4);
    expect(await db().cartLine.count({ where: { cartId: cart.id } })).toBe(0);
    // The order line of the archived variant still reads, with its variant.
    const line = await db().orderLine.findFirstOrThrow({
      where: { orderId: order.id },
      include: { variant: true },
    });
    expect(line.variant).toMatchObject({ id: order.variantId });
    expect(line.variant!.archivedAt).not.toBeNull();

    // P comes back: its archived variants with it (the stock they had).
    const again = await setProductOptions(productId, { options: SIZES_COLOURS }, owner, deps());
    expect(again.ok).toBe(true);
    const restored = await activeOf(productId);
    expect(restored.find((variant) => variant.title === "P, Azul")!.id).toBe(order.variantId);
    expect((await productOf(productId)).stock).toBe(4 + 5);
  });

  it("removing every option: the first variant is the product's default again", async () => {
    const product = await insertTestProduct({ priceAoa: 1000, stock: 2 });
    await setProductOptions(product.id, { options: [{ name: "Cor", values: ["Azul", "Verde"] }] }, owner, deps());
    const result = await setProductOptions(product.id, { options: [] }, owner, deps());
    expect(result.ok).toBe(true);
    const active = await activeOf(product.id);
    expect(active).toHaveLength(1);
    expect(active[0]).toMatchObject({ id: product.variantId, options: {}, title: "", stock: 2 });
    expect(await db().productOption.count({ where: { productId: product.id } })).toBe(0);
    // The product form prices its one variant again.
    expect((await adjustStock(product.id, { delta: 1, reason: "x" }, owner, deps())).ok).toBe(true);
  });

  it("bad input: 400 naming the field, nothing changed", async () => {
    const product = await insertTestProduct();
    const cases: [Record<string, string>, string][] = [
      [{ option1Name: "Tamanho", option1Values: "" }, "option1Values"],
      [{ option1Name: "", option1Values: "P" }, "option1Name"],
      [{ option1Name: "Tamanho", option1Values: "P, P" }, "option1Values"],
      [{ option1Name: "Cor", option1Values: "Azul", option2Name: "cor", option2Values: "Verde" }, "options"],
      [{ option1Name: "Tam\u0000anho", option1Values: "P" }, "option1Name"],
      [{ option2Name: "Cor", option2Values: "Az\u0000ul" }, "option2Values"],
    ];
    for (const [form, field] of cases) {
      const response = await post("options", product.id, { form });
      expect(response.status, JSON.stringify(form)).toBe(303);
      expect(response.headers.get("location")).toContain(`variantsError=invalid_input&variantsField=${field}#variants`);
    }
    const nul = await post("options", product.id, { json: { options: [{ name: "Cor", values: ["A\u0000"] }] } });
    expect(nul.status).toBe(400);
    expect(await db().productOption.count({ where: { productId: product.id } })).toBe(0);
    expect(await activeOf(product.id)).toHaveLength(1);
  });

  it("more than 250 combinations: 400", async () => {
    const product = await insertTestProduct();
    const values = (count: number) => Array.from({ length: count }, (_, index) => `v${index}`);
    const response = await post("options", product.id, {
      json: {
        options: [
          { name: "A", values: values(10) },
          { name: "B", values: values(10) },
          { name: "C", values: values(3) },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ error: { code: "invalid_input" } });
    expect(await db().productVariant.count({ where: { productId: product.id } })).toBe(1);
  });
});

describe("the variants' table", () => {
  async function withOptions() {
    const product = await insertTestProduct({ priceAoa: 2000, stock: 3 });
    await setProductOptions(product.id, { options: SIZES_COLOURS }, owner, deps());
    return product;
  }

  it("saves SKU, price, stock (with its adjustment) and image from the form", async () => {
    const product = await withOptions();
    const rows = await tableOf(product.id, { "M, Azul": { sku: uniqueSku(), priceAoa: 4500, stock: 9 } });
    const form = new URLSearchParams();
    for (const row of rows) {
      form.append("variantId", row.id);
      for (const key of ["sku", "priceAoa", "stock", "stockShown", "imagePath"] as const)
        form.append(key, String(row[key]));
    }
    form.append("stockReason", "Encomenda recebida");
    const { POST } = await routes.variants();
    const response = await POST(
      await adminRequest(`/api/admin/products/${product.id}/variants`, {
        raw: { body: form.toString(), contentType: "application/x-www-form-urlencoded" },
      }),
      { params: Promise.resolve({ id: product.id }) },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toContain("?variants=variants_saved#variants");
    const variant = (await activeOf(product.id)).find((row) => row.title === "M, Azul")!;
    expect(variant).toMatchObject({ priceAoa: 4500, stock: 9, sku: rows[2]!.sku });
    expect(await productOf(product.id)).toEqual({ stock: 12, priceAoa: 2000 });
    const adjustment = await db().stockAdjustment.findFirstOrThrow({ where: { variantId: variant.id } });
    expect(adjustment).toMatchObject({ kind: "edit", delta: 9, stockAfter: 9, reason: "Encomenda recebida" });
  });

  it("stock changed since the table showed it: 409 naming the variant, nothing saved", async () => {
    const product = await withOptions();
    const rows = await tableOf(product.id, { "P, Branco": { stock: 5, stockShown: 0 }, "M, Azul": { priceAoa: 99 } });
    const variantId = rows[1]!.id;
    await adjustStock(product.id, { variantId, delta: 2, reason: "venda no balcão" }, owner, deps());
    const response = await post("variants", product.id, { json: { variants: rows, stockReason: "contagem" } });
    expect(response.status).toBe(409);
    const body = await json(response);
    expect(body.error.code).toBe("stock_changed");
    expect(body.error.message).toContain("P, Branco");
    const after = await activeOf(product.id);
    expect(after.find((row) => row.id === variantId)!.stock).toBe(2);
    expect(after.find((row) => row.title === "M, Azul")!.priceAoa).toBe(2000);
  });

  it("a SKU another variant has: 409 sku_taken; two rows swapping SKUs is fine", async () => {
    const other = await insertTestProduct();
    const taken = uniqueSku();
    await db().productVariant.update({ where: { id: other.variantId }, data: { sku: taken } });
    const product = await withOptions();
    const clash = await updateVariants(
      product.id,
      { variants: await tableOf(product.id, { "P, Azul": { sku: taken } }) },
      owner,
      deps(),
    );
    expect(clash).toMatchObject({ ok: false, status: 409, code: "sku_taken", field: "sku" });

    const [a, b] = [uniqueSku(), uniqueSku()];
    expect(
      (
        await updateVariants(
          product.id,
          { variants: await tableOf(product.id, { "P, Azul": { sku: a }, "M, Azul": { sku: b } }) },
          owner,
          deps(),
        )
      ).ok,
    ).toBe(true);
    const swapped = await updateVariants(
      product.id,
      { variants: await tableOf(product.id, { "P, Azul": { sku: b }, "M, Azul": { sku: a } }) },
      owner,
      deps(),
    );
    expect(swapped.ok).toBe(true);
    const after = await activeOf(product.id);
    expect(after.find((row) => row.title === "P, Azul")!.sku).toBe(b);
  });

  it("bad input: 400 naming the field, nothing changed", async () => {
    const product = await withOptions();
    const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [{ "P, Azul": { priceAoa: 0 } }, {}, "priceAoa"],
      [{ "P, Azul": { stock: -1, stockShown: -1 } }, {}, "stock"],
      [{ "P, Azul": { sku: "tem espaço" } }, {}, "sku"],
      [{ "P, Azul": { sku: "A\u0000" } }, {}, "sku"],
      [{ "P, Azul": { stock: 4 } }, {}, "stockReason"],
      [{ "P, Azul": { stock: 4 } }, { stockReason: "a\u0000" }, "stockReason"],
      [{ "P, Azul": { imagePath: "/products/not-in-the-gallery.svg" } }, {}, "imagePath"],
    ];
    for (const [change, extra, field] of cases) {
      const rows = await tableOf(product.id, change as Record<string, Record<string, unknown>>);
      const result = await updateVariants(product.id, { variants: rows, ...extra }, owner, deps());
      expect(result, JSON.stringify(change)).toMatchObject({ ok: false, status: 400, code: "invalid_input", field });
    }
    const response = await post("variants", product.id, { json: { variants: "no" } });
    expect(response.status).toBe(400);
    expect((await activeOf(product.id)).map((row) => [row.stock, row.priceAoa, row.sku])).toEqual(
      Array.from({ length: 4 }, (_, index) => [index === 0 ? 3 : 0, 2000, null]),
    );
  });

  it("table saves, adjustments and option changes at once: no deadlock, the total is the variants' sum", async () => {
    const product = await withOptions();
    const [first, , third] = await activeOf(product.id);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, (_, index) =>
        adjustStock(product.id, { variantId: third!.id, delta: index + 1, reason: "entrega" }, owner, deps()),
      ),
      tableOf(product.id, { "P, Azul": { stock: 50 } }).then((variants) =>
        updateVariants(product.id, { variants, stockReason: "contagem" }, owner, deps()),
      ),
      setProductOptions(product.id, { options: SIZES_COLOURS }, owner, deps()),
    ]);
    for (const result of results.slice(0, 4)) expect(result.ok).toBe(true);
    const active = await activeOf(product.id);
    expect(active.find((variant) => variant.id === third!.id)!.stock).toBe(10);
    expect([3, 50]).toContain(active.find((variant) => variant.id === first!.id)!.stock);
    const total = active.reduce((sum, variant) => sum + variant.stock, 0);
    expect((await productOf(product.id)).stock).toBe(total);
  });

  it("a variant's image is one of its product's images", async () => {
    const product = await withOptions();
    const rows = await tableOf(product.id, { "P, Azul": { imagePath: "/products/cafe-amboim.svg" } });
    expect((await updateVariants(product.id, { variants: rows }, owner, deps())).ok).toBe(true);
    expect((await activeOf(product.id))[0]!.imagePath).toBe("/products/cafe-amboim.svg");
  });
});

describe("archive and restore", () => {
  it("archives a variant (it leaves the total and open carts), restores it, never the last one", async () => {
    const product = await insertTestProduct({ stock: 6 });
    const lone = await setVariantArchived(product.id, product.variantId, true, owner, deps());
    expect(lone).toMatchObject({ ok: false, status: 409, code: "last_variant" });

    await setProductOptions(product.id, { options: [{ name: "Cor", values: ["Azul", "Verde"] }] }, owner, deps());
    const cart = await db().cart.create({ data: { lines: { create: { variantId: product.variantId, quantity: 1 } } } });
    const locked = await db().cart.create({
      data: { status: "LOCKED", lines: { create: { variantId: product.variantId, quantity: 1 } } },
    });
    const response = await onVariant("archive", product.id, product.variantId, { accept: "application/json" });
    expect(response.status).toBe(200);
    expect((await json(response)).done).toBe("archived");
    expect((await productOf(product.id)).stock).toBe(0);
    expect(await db().cartLine.count({ where: { cartId: cart.id } })).toBe(0);
    expect(await db().cartLine.count({ where: { cartId: locked.id } })).toBe(1);

    const restored = await onVariant("restore", product.id, product.variantId, { form: {} });
    expect(restored.status).toBe(303);
    expect(restored.headers.get("location")).toContain("?variants=restored#variants");
    expect((await productOf(product.id)).stock).toBe(6);

    // Its combination taken by another variant meanwhile, or no longer one of the options: 409.
    await setVariantArchived(product.id, product.variantId, true, owner, deps());
    const twin = await db().productVariant.create({
      data: { productId: product.id, options: { Cor: "Azul" }, priceAoa: 100, stock: 0, position: 5 },
    });
    const taken = await setVariantArchived(product.id, product.variantId, false, owner, deps());
    expect(taken).toMatchObject({ ok: false, status: 409, code: "combination_taken" });
    await db().productVariant.delete({ where: { id: twin.id } });
    await setProductOptions(product.id, { options: [{ name: "Cor", values: ["Verde", "Branco"] }] }, owner, deps());
    const gone = await setVariantArchived(product.id, product.variantId, false, owner, deps());
    expect(gone).toMatchObject({ ok: false, status: 409, code: "not_a_combination" });
  });

  it("an unknown variant: 404", async () => {
    const product = await insertTestProduct();
    expect((await onVariant("archive", product.id, randomUUID())).status).toBe(404);
    expect((await onVariant("archive", product.id, "not-a-uuid")).status).toBe(404);
  });
});
