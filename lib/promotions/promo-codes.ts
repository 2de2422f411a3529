import { getCart } from "../cart/cart";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { luandaFormatter } from "../luanda-time";
import { formatAoa } from "../money";
import { isAngolanKey, phoneKey } from "../phone";
import { refusal, type Refusal } from "../refusal";
import { isPromoCode, normalizePromoCode, type PromoKind } from "./promo-code-rules";
import type { SqlExecutor } from "../db/sql-runner";

/**
 * Promo codes at checkout, without the web: what a code takes off a basket, its preview for the
 * cart, and counting its use with the order (given back when the order ends cancelled). The back
 * office makes the codes (lib/promotions/promo-codes-admin.ts).
 */

export interface PromoRule {
  id: string;
  code: string;
  kind: PromoKind;
  value: number;
  minSubtotalAoa: number;
  startsAt: Date | null;
  endsAt: Date | null;
  maxUses: number | null;
  maxUsesPerPhone: number | null;
  uses: number;
  active: boolean;
}

export type PromoRefusalCode =
  | "promo_unknown"
  | "promo_not_started"
  | "promo_expired"
  | "promo_below_minimum"
  | "promo_not_applicable"
  | "promo_used_up"
  | "promo_phone_required"
  | "promo_phone_limit";

/** A code that does not apply to this basket: 422 wherever it is answered. */
export type PromoRefusal = Refusal<PromoRefusalCode>;

export interface PromoBasketLine {
  productId: string;
  /** Unit price × quantity, from the database. */
  lineTotalAoa: number;
}

export interface AppliedPromo {
  ok: true;
  promoCodeId: string;
  code: string;
  /** What it takes off, in kwanza. */
  discountAoa: number;
  /** The subtotal of the lines it applies to. */
  eligibleSubtotalAoa: number;
  /** Each basket line's share of the discount, in the basket's order. */
  lineDiscounts: number[];
}

const refuse = (code: PromoRefusalCode, message: string): PromoRefusal => refusal(422, code, message);

const luanda = luandaFormatter("pt-AO", { dateStyle: "short", timeStyle: "short" });

/**
 * What `rule` takes off a basket whose lines in the code's categories are `eligible` (one flag per
 * line), at `now`, with `phoneUses` uses already counted for the shopper's phone (null: no phone).
 * Its minimum is on the eligible lines' subtotal; it takes a percentage of it, rounded down to the
 * kwanza, or a fixed amount never above it, shared over those lines (each order line keeps its
 * share, `order_lines.discount_aoa`). Pure; the uses it reads are those of the row as locked (or
 * read, for a preview).
 */
export function evaluatePromo(
  rule: PromoRule,
  basket: { lines: readonly PromoBasketLine[]; eligible: readonly boolean[]; phoneUses: number | null },
  now: Date,
): AppliedPromo | PromoRefusal {
  if (!rule.active) return refuse("promo_unknown", `there is no promo code ${rule.code}`);
  if (rule.startsAt && now < rule.startsAt)
    return refuse("promo_not_started", `${rule.code} can be used from ${luanda.format(rule.startsAt)} (Luanda time)`);
  if (rule.endsAt && now >= rule.endsAt)
    return refuse("promo_expired", `${rule.code} ended on ${luanda.format(rule.endsAt)} (Luanda time)`);
  const eligibleTotals = basket.lines.map((line, index) => (basket.eligible[index] ? line.lineTotalAoa : 0));
  const eligibleSubtotalAoa = eligibleTotals.reduce((sum, total) => sum + total, 0);
  if (eligibleSubtotalAoa === 0)
    return refuse("promo_not_applicable", `${rule.code} does not apply to anything in this order`);
  if (eligibleSubtotalAoa < rule.minSubtotalAoa)
    return refuse(
      "promo_below_minimum",
      `${rule.code} applies from ${formatAoa(rule.minSubtotalAoa)} of eligible items; this order has ${formatAoa(eligibleSubtotalAoa)}`,
    );
  if (rule.maxUses !== null && rule.uses >= rule.maxUses)
    return refuse("promo_used_up", `${rule.code} has been used as many times as it may be`);
  if (rule.maxUsesPerPhone !== null) {
    if (basket.phoneUses === null)
      return refuse("promo_phone_required", `${rule.code} needs the customer's phone, which it is limited by`);
    if (basket.phoneUses >= rule.maxUsesPerPhone)
      return refuse(
        "promo_phone_limit",
        `${rule.code} has already been used ${basket.phoneUses} ${basket.phoneUses === 1 ? "time" : "times"} with this phone, its limit`,
      );
  }
  const discountAoa =
    rule.kind === "percent"
      ? Math.floor((eligibleSubtotalAoa * rule.value) / 100)
      : Math.min(rule.value, eligibleSubtotalAoa);
  return {
    ok: true,
    promoCodeId: rule.id,
    code: rule.code,
    discountAoa,
    eligibleSubtotalAoa,
    lineDiscounts: allocateDiscount(eligibleTotals, discountAoa),
  };
}

/**
 * Shares `discount` over lines in proportion to `totals` (0 for a line it does not apply to):
 * each gets the whole kwanza of its share, and the kwanza left over go one each to the lines with
 * the largest remainders (ties to the earlier line). The shares add up to `discount` exactly and
 * none exceeds its line's total.
 */
export function allocateDiscount(totals: readonly number[], discount: number): number[] {
  const sum = totals.reduce((a, b) => a + b, 0);
  if (discount <= 0 || sum <= 0) return totals.map(() => 0);
  if (discount >= sum) return [...totals];
  const exact = totals.map((total) => (total * discount) / sum);
  const shares = exact.map(Math.floor);
  let left = discount - shares.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .filter(({ index }) => totals[index]! > shares[index]!)
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left === 0) break;
    shares[index]! += 1;
    left -= 1;
  }
  return shares;
}

interface PromoRow extends Omit<PromoRule, "kind"> {
  kind: string;
}

/**
 * Reads the code (any case, spaces around it) and evaluates it for `lines`. With `lock`, inside
 * the checkout's transaction, the code's row stays locked until it commits, so the uses read here
 * are final for this transaction: N concurrent checkouts on a code with one use left queue on the
 * row, and exactly one finds it. The checkout locks it after the stock (lib/catalog/stock.ts'
 * order), so no two checkouts deadlock. Without `lock`, it is a preview.
 */
export async function applyPromo(
  client: SqlExecutor,
  input: { code: string; lines: readonly PromoBasketLine[]; phone: string | null; lock: boolean; now?: Date },
): Promise<AppliedPromo | PromoRefusal> {
  const code = normalizePromoCode(input.code);
  if (!isPromoCode(code)) return refuse("promo_unknown", `there is no promo code ${code.slice(0, 40)}`);
  const [row] = await client.$queryRaw<PromoRow[]>(Prisma.sql`
SELECT id, code, kind, value, min_subtotal_aoa AS "minSubtotalAoa", starts_at AS "startsAt", ends_at AS "endsAt",
       max_uses AS "maxUses", max_uses_per_phone AS "maxUsesPerPhone", uses, active
FROM promo_codes WHERE code = ${code} ${input.lock ? Prisma.sql`FOR UPDATE` : Prisma.empty}`);
  if (!row) return refuse("promo_unknown", `there is no promo code ${code}`);
  const rule: PromoRule = { ...row, kind: row.kind === "fixed" ? "fixed" : "percent" };

  const productIds = [...new Set(input.lines.map((line) => line.productId))];
  // A product counts when it is in one of the code's categories or in a subcategory of one; a
  // code without categories applies to every product.
  const eligibleRows = await client.$queryRaw<{ productId: string }[]>(Prisma.sql`
SELECT p.id AS "productId" FROM unnest(${productIds}::uuid[]) AS p(id)
WHERE NOT EXISTS (SELECT 1 FROM promo_code_categories WHERE promo_code_id = ${rule.id}::uuid)
   OR EXISTS (
     SELECT 1 FROM product_categories pc JOIN categories c ON c.id = pc.category_id
     JOIN promo_code_categories pcc ON pcc.promo_code_id = ${rule.id}::uuid
       AND (pcc.category_id = c.id OR pcc.category_id = c.parent_id)
     WHERE pc.product_id = p.id)`);
  const eligibleIds = new Set(eligibleRows.map((found) => found.productId));

  // One phone is one phone however it is written (+244, 00244, a trunk 0, spaces, dots…).
  const phone = input.phone ? phoneKey(input.phone) : null;
  let phoneUses: number | null = null;
  if (phone) {
    const [counted] = await client.$queryRaw<{ uses: number }[]>(Prisma.sql`
SELECT count(*)::int AS uses FROM promo_redemptions
WHERE promo_code_id = ${rule.id}::uuid AND phone_key = ANY(${recordedPhoneKeys(phone)}::text[]) AND released_at IS NULL`);
    phoneUses = counted?.uses ?? 0;
  }
  return evaluatePromo(
    rule,
    { lines: input.lines, eligible: input.lines.map((line) => eligibleIds.has(line.productId)), phoneUses },
    input.now ?? new Date(),
  );
}

/**
 * The keys a use by the phone `key` may be stored under: its key, and the key releases before
 * lib/phone.ts wrote (the digits with 00 and Angola's 244 dropped: a trunk 0 kept, 0923456789; a
 * foreign number without its +, when it has too many digits to be Angolan). Counted under both
 * rather than rewritten by a migration: the release still serving during a deploy keeps writing
 * the older keys until it stops, which a backfill run before it stopped would miss, and the index
 * (promo_code_id, phone_key) finds two keys as well as one.
 */
export function recordedPhoneKeys(key: string): string[] {
  if (isAngolanKey(key)) return [key, `0${key}`];
  if (key.startsWith("+") && key.length > 10) return [key, key.slice(1)];
  return [key];
}

/** Counts the use by the order just created, in the transaction that locked the code with {@link applyPromo}. */
export async function recordPromoUse(
  client: SqlExecutor,
  use: { promoCodeId: string; orderId: string; phone: string | null; discountAoa: number },
): Promise<void> {
  await client.$executeRaw(Prisma.sql`
WITH used AS (
  INSERT INTO promo_redemptions (promo_code_id, order_id, phone_key, discount_aoa)
  VALUES (${use.promoCodeId}::uuid, ${use.orderId}::uuid, ${use.phone ? phoneKey(use.phone) : null}, ${use.discountAoa})
  RETURNING promo_code_id
)
UPDATE promo_codes SET uses = uses + 1, updated_at = now() FROM used WHERE promo_codes.id = used.promo_code_id`);
}

/**
 * Gives the cancelled order's use back, once: the redemption is marked released and the code's
 * count goes down in one statement; a second run finds it released and changes nothing. Runs in
 * the transaction of the job that puts the order's units back (after them, in lib/catalog/stock.ts' lock
 * order: products, then the code). Answers whether this call released it. An order paid after
 * that keeps its discount: a person decides (it is on the attention list).
 */
export async function releasePromoUse(client: SqlExecutor, orderId: string): Promise<boolean> {
  const released = await client.$executeRaw(Prisma.sql`
WITH released AS (
  UPDATE promo_redemptions SET released_at = now()
  WHERE order_id = ${orderId}::uuid AND released_at IS NULL
  RETURNING promo_code_id
)
UPDATE promo_codes SET uses = uses - 1, updated_at = now() FROM released WHERE promo_codes.id = released.promo_code_id`);
  return released > 0;
}

/**
 * Counts the use of a cancelled order again, once, when the owner fulfils it after all (it was
 * paid at the discounted price, so the shop honours the discount): the reverse of
 * {@link releasePromoUse}, in one statement, with the code's limits not asked again (the shopper
 * paid before the owner decided; a code at its limit goes one over it, and the list shows it used
 * up). In the caller's transaction, after the order's units in lib/catalog/stock.ts' lock
 * order. Answers whether this call counted it.
 */
export async function retakePromoUse(client: SqlExecutor, orderId: string): Promise<boolean> {
  const retaken = await client.$executeRaw(Prisma.sql`
WITH retaken AS (
  UPDATE promo_redemptions SET released_at = NULL
  WHERE order_id = ${orderId}::uuid AND released_at IS NOT NULL
  RETURNING promo_code_id
)
UPDATE promo_codes SET uses = uses + 1, updated_at = now() FROM retaken WHERE promo_codes.id = retaken.promo_code_id`);
  return retaken > 0;
}

export interface PromoPreview {
  ok: true;
  code: string;
  subtotalAoa: number;
  discountAoa: number;
  eligibleSubtotalAoa: number;
}

/**
 * What `code` would take off the cart `cartId` now, without locking or counting anything (the
 * cart and checkout show it before paying; the checkout decides again, for real). The phone,
 * when given, checks the per-phone limit.
 */
export async function previewPromo(
  db: Database,
  input: { cartId: string | undefined; code: string; phone: string | null },
): Promise<PromoPreview | Refusal<PromoRefusalCode | "cart_empty">> {
  const cart = await getCart(db, input.cartId);
  if (!cart || cart.lines.length === 0) return refusal(422, "cart_empty", "the cart is empty");
  const applied = await applyPromo(db, {
    code: input.code,
    lines: cart.lines.map((line) => ({ productId: line.productId, lineTotalAoa: line.lineTotalAoa })),
    phone: input.phone,
    lock: false,
  });
  if (!applied.ok) return applied;
  return {
    ok: true,
    code: applied.code,
    subtotalAoa: cart.totalAoa,
    discountAoa: applied.discountAoa,
    eligibleSubtotalAoa: applied.eligibleSubtotalAoa,
  };
}
