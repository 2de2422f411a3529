import "server-only";
import type { z } from "zod";
import type { Database } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { lockProducts } from "./stock";
import { invalidInput } from "../text-input";
import { productSubject, recordStaffEvent, type Actor } from "../admin/staff-events";
import { changedFields } from "../admin/event-changes";
import { isUuid } from "../uuid";
import { optionDefinitionsSchema, VARIANT_FIELDS, type VariantField } from "./variant-rules";
import { combinations, optionsKey, readVariantOptions, VARIANT_LIMITS } from "./variants";
import { noProduct, readAdminVariants, readOptions, type VariantRefusal, type VariantResult } from "./variants-admin";

/**
 * A product's options in the back office (the "Options" part of /admin/products/<id>), without
 * the web: the form's or a JSON client's options, checked, and the product's variants made their
 * combinations, in one transaction that locks the product's row first (lib/catalog/stock.ts
 * lockProducts), as checkouts do, and that records the change (lib/admin/staff-events.ts).
 */

/** "P, M" or one value a line: the values of a form's option field. */
const splitValues = (text: string) =>
  text
    .split(/[,\n\r]+/)
    .map((value) => value.trim())
    .filter((value) => value !== "");

/**
 * The options as a JSON client sends them (`options: [{ name, values }]`) or as the form does
 * (`option1Name`, `option1Values`… up to 3, the values separated by commas or lines; an option
 * whose name and values are both empty is left out). `slots` is each option's field number.
 */
function optionsInput(fields: Record<string, unknown>): { options: unknown; slots: number[] } {
  if ("options" in fields) {
    const options = fields.options;
    return { options, slots: Array.isArray(options) ? options.map((_, index) => index + 1) : [] };
  }
  const options: { name: unknown; values: unknown }[] = [];
  const slots: number[] = [];
  for (let slot = 1; slot <= VARIANT_LIMITS.options; slot++) {
    const name = fields[`option${slot}Name`] ?? "";
    const values = fields[`option${slot}Values`] ?? "";
    if (typeof name === "string" && typeof values === "string" && name.trim() === "" && values.trim() === "") continue;
    options.push({ name, values: typeof values === "string" ? splitValues(values) : values });
    slots.push(slot);
  }
  return { options, slots };
}

function invalidOptions(error: z.ZodError, slots: number[]): VariantRefusal {
  const refusal = invalidInput(error, VARIANT_FIELDS);
  const [index, key] = error.issues[0]?.path ?? [];
  const slot = typeof index === "number" ? slots[index] : undefined;
  const field: VariantField =
    slot !== undefined && (key === "name" || key === "values")
      ? (`option${slot}${key === "name" ? "Name" : "Values"}` as VariantField)
      : "options";
  return { ...refusal, field };
}

/**
 * Replaces the product's options (up to 3, each with its values) and makes its
 * active variants exactly the combinations of their values. A variant whose combination is still
 * one stays as it is (id, SKU, price, stock, image). A new combination brings back the archived
 * variant that had it (with its SKU, price and stock), else is a new variant at the product's
 * current lowest price with no stock. A variant that is no longer a combination is archived,
 * never deleted (order lines name it), and leaves the open carts (a LOCKED cart is being paid
 * and keeps it); its units leave the product's total (a trigger keeps the totals).
 * When none of the active variants is a combination of the new options (a product without
 * options getting its first ones, every option renamed, or all options removed), the first
 * active variant becomes the first combination, keeping its id, stock and price: so the default
 * variant of a product without options becomes "P, Azul", and removing every option makes the
 * first variant the product's one default variant again (`{}`), the others archived.
 */
export async function setProductOptions(
  productId: string,
  input: unknown,
  actor: Actor,
  { db }: { db: Database },
): Promise<VariantResult> {
  if (!isUuid(productId)) return noProduct;
  const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const { options: raw, slots } = optionsInput(fields);
  const parsed = optionDefinitionsSchema.safeParse(raw);
  if (!parsed.success) return invalidOptions(parsed.error, slots);
  const options = parsed.data;

  return db.$transaction(async (tx): Promise<VariantResult> => {
    await lockProducts(tx, [productId]);
    const product = await tx.product.findUnique({ where: { id: productId }, select: { priceAoa: true } });
    if (!product) return noProduct;
    const all = await tx.productVariant.findMany({
      where: { productId },
      orderBy: [{ position: "asc" }, { id: "asc" }],
      select: { id: true, options: true, archivedAt: true },
    });
    const optionsBefore = await readOptions(tx, productId);
    const active = all.filter((variant) => variant.archivedAt === null);
    const targets = options.length > 0 ? combinations(options) : [{}];
    const kept = new Map<string, string>();
    for (const variant of active) {
      const key = optionsKey(readVariantOptions(variant.options));
      if (!kept.has(key) && targets.some((target) => optionsKey(target) === key)) kept.set(key, variant.id);
    }
    const leftovers = active.filter((variant) => ![...kept.values()].includes(variant.id));
    // Nothing survives: the first variant carries its stock and price over to the first combination.
    const carried = kept.size === 0 ? leftovers.shift() : undefined;
    const now = new Date();

    if (leftovers.length > 0) {
      const ids = leftovers.map((variant) => variant.id);
      await tx.productVariant.updateMany({ where: { id: { in: ids } }, data: { archivedAt: now } });
      await tx.cartLine.deleteMany({ where: { variantId: { in: ids }, cart: { status: "OPEN" } } });
    }
    await tx.productOption.deleteMany({ where: { productId } });
    if (options.length > 0)
      await tx.productOption.createMany({
        data: options.map((option, index) => ({ productId, position: index + 1, ...option })),
      });

    const made = { created: 0, restored: 0, archived: leftovers.length };
    for (const [position, target] of targets.entries()) {
      const key = optionsKey(target);
      const json = target as Prisma.InputJsonObject;
      const keptId = kept.get(key) ?? (carried && position === 0 ? carried.id : undefined);
      if (keptId) {
        await tx.productVariant.update({ where: { id: keptId }, data: { options: json, position } });
        continue;
      }
      // The most recently archived variant of this combination comes back, with its SKU, price and stock.
      const archived = all
        .filter((variant) => variant.archivedAt !== null && optionsKey(readVariantOptions(variant.options)) === key)
        .sort((a, b) => b.archivedAt!.getTime() - a.archivedAt!.getTime())[0];
      if (archived)
        await tx.productVariant.update({ where: { id: archived.id }, data: { archivedAt: null, position } });
      else
        await tx.productVariant.create({
          data: { productId, options: json, priceAoa: product.priceAoa, stock: 0, position },
        });
      made[archived ? "restored" : "created"]++;
    }
    const changes = changedFields(
      { options: optionsBefore },
      { options: options.map(({ name, values }) => ({ name, values })) },
    );
    if (changes.options || made.created + made.restored + made.archived > 0)
      await recordStaffEvent(tx, actor, {
        kind: "product.options",
        subject: productSubject(productId),
        details: { ...changes, variants: made },
      });
    await tx.product.update({ where: { id: productId }, data: { updatedAt: now } });
    return { ok: true, done: "options_saved", product: await readAdminVariants(tx, productId) };
  });
}
