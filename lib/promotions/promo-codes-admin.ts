import "server-only";
import { z } from "zod";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/known-error";
import { Rollback, rolledBack, type Refusal } from "../refusal";
import { Prisma } from "../generated/prisma/client";
import { isPromoCode, normalizePromoCode, PROMO_CODE_MAX, PROMO_KINDS, type PromoKind } from "./promo-code-rules";
import { activeFlag, formIntegerBetween, formOptional, formUuidList, invalidInput } from "../text-input";
import { isUuid } from "../uuid";
import { lockCategories } from "../catalog/categories-admin";
import { luandaLocalToIso } from "../luanda-time";
import { recordStaffEvent, type Actor } from "../admin/staff-events";
import { changedFields, recordedFields } from "../admin/event-changes";

/**
 * The back office's promo codes, without the web: create and edit a code on /admin/promo-codes
 * (app/api/admin/promo-codes) and list them with their uses and state. A code is never deleted,
 * since orders keep pointing at it: it is turned off (`active`). The checkout applies codes
 * (lib/promotions/promo-codes.ts); their format is lib/promotions/promo-code-rules.ts'. Each
 * creation and edit is recorded with its person in staff_events, in its own transaction.
 */

export const PROMO_LIMITS = {
  code: PROMO_CODE_MAX,
  percentMax: 100,
  fixedMax: 10_000_000,
  /** Fits the database's integer, like every amount in kwanza. */
  subtotalMax: 1_000_000_000,
  usesMax: 1_000_000_000,
  categoriesMax: 100,
} as const;

/** Where a code stands now: off, not started, ended, used up, or valid. */
export const PROMO_STATES = ["inactive", "scheduled", "expired", "used_up", "valid"] as const;
export type PromoCodeState = (typeof PROMO_STATES)[number];

/** A promo code as the back office shows it. */
export interface AdminPromoCode {
  id: string;
  code: string;
  kind: PromoKind;
  value: number;
  minSubtotalAoa: number;
  startsAt: Date | null;
  endsAt: Date | null;
  maxUses: number | null;
  maxUsesPerPhone: number | null;
  /** Uses counted so far (a cancelled order's use is given back). */
  uses: number;
  /** What `maxUses` still allows; null without a limit. */
  remainingUses: number | null;
  active: boolean;
  state: PromoCodeState;
  /** The categories it is limited to, by name; empty: every line. */
  categories: { id: string; name: string }[];
}

/**
 * Where a code stands at `now`: valid from `startsAt` (included) to `endsAt` (excluded), while
 * active and under its limit of uses.
 */
export function promoCodeState(
  code: Pick<AdminPromoCode, "active" | "startsAt" | "endsAt" | "maxUses" | "uses">,
  now: Date,
): PromoCodeState {
  if (!code.active) return "inactive";
  if (code.endsAt && code.endsAt.getTime() <= now.getTime()) return "expired";
  if (code.maxUses !== null && code.uses >= code.maxUses) return "used_up";
  if (code.startsAt && code.startsAt.getTime() > now.getTime()) return "scheduled";
  return "valid";
}

/** "2026-12-01T09:00" as "2026-12-01T09:00:00": zod's ISO 8601 wants the seconds. */
const withSeconds = (value: string) => value.replace(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?=$|Z|[+-])/, "$1:00");
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const isoWithOffset = z.iso.datetime({ offset: true });

/**
 * An instant: ISO 8601 with an offset (or Z), or, from the page's form, a datetime-local value
 * read as Luanda's time. "" or null: none.
 */
const instant = (form: boolean) =>
  formOptional(
    z
      .string({ error: "must be a date and time" })
      .trim()
      .transform((value, context) => {
        const iso = withSeconds(form && LOCAL_TIME.test(value) ? luandaLocalToIso(value) : value);
        if (!isoWithOffset.safeParse(iso).success) {
          context.addIssue({
            code: "custom",
            message: form
              ? "must be a date and time"
              : "must be an ISO 8601 date and time with an offset, e.g. 2026-12-01T09:00:00+01:00",
          });
          return z.NEVER;
        }
        return new Date(iso);
      }),
  );

/**
 * A code's fields, from JSON or from the page's form (`form`: its dates are datetime-local values
 * in Luanda's time). Optional numbers may be absent, null or "" (the form's empty field): no limit.
 * The code is upper-cased (" bemvindo10 " is BEMVINDO10); no categories: every line.
 */
export const promoCodeInputSchema = (form = false) =>
  z
    .object({
      code: z
        .string({ error: "is required" })
        .transform(normalizePromoCode)
        .refine(isPromoCode, {
          error: `must be 3 to ${PROMO_CODE_MAX} letters A–Z, digits, _ or -, starting with a letter or digit`,
        }),
      kind: z.enum(PROMO_KINDS, { error: 'must be "percent" or "fixed"' }),
      value: formIntegerBetween(1, PROMO_LIMITS.fixedMax),
      minSubtotalAoa: formOptional(formIntegerBetween(0, PROMO_LIMITS.subtotalMax, " kwanza")),
      startsAt: instant(form),
      endsAt: instant(form),
      maxUses: formOptional(formIntegerBetween(1, PROMO_LIMITS.usesMax)),
      maxUsesPerPhone: formOptional(formIntegerBetween(1, PROMO_LIMITS.usesMax)),
      active: activeFlag,
      categoryIds: formUuidList(PROMO_LIMITS.categoriesMax, "category", "categories"),
    })
    .superRefine((input, context) => {
      if (input.kind === "percent" && input.value > PROMO_LIMITS.percentMax)
        context.addIssue({ code: "custom", path: ["value"], message: "must be at most 100 (percent)" });
      if (input.startsAt && input.endsAt && input.endsAt.getTime() <= input.startsAt.getTime())
        context.addIssue({ code: "custom", path: ["endsAt"], message: "must be after startsAt" });
    });
export type PromoCodeInput = z.output<ReturnType<typeof promoCodeInputSchema>>;

export const PROMO_DONE = ["created", "saved"] as const;
export type PromoDone = (typeof PROMO_DONE)[number];
export const PROMO_ERRORS = ["invalid_input", "invalid_id", "code_taken", "max_uses_below_uses"] as const;
export type PromoError = (typeof PROMO_ERRORS)[number];
/** The form fields an error may name (?field=). */
export const PROMO_FIELDS = [
  "code",
  "kind",
  "value",
  "minSubtotalAoa",
  "startsAt",
  "endsAt",
  "maxUses",
  "maxUsesPerPhone",
  "active",
  "categoryIds",
] as const;
export type PromoField = (typeof PROMO_FIELDS)[number];

/** The statuses are the back office's form answers' (lib/http/admin-action.ts ActionOutcome). */
type PromoCodeRefusal = Refusal<PromoError | "not_found", PromoField> & { status: 400 | 404 | 409 };
export type PromoCodeResult = { ok: true; done: PromoDone; promoCode: AdminPromoCode } | PromoCodeRefusal;

const notFound: PromoCodeRefusal = { ok: false, status: 404, code: "not_found", message: "no such promo code" };
const invalidId: PromoCodeRefusal = {
  ok: false,
  status: 400,
  code: "invalid_id",
  message: "the promo code's id must be a UUID",
};
const codeTaken: PromoCodeRefusal = {
  ok: false,
  status: 409,
  code: "code_taken",
  message: "another promo code already has this code",
  field: "code",
};
const unknownCategories: PromoCodeRefusal = {
  ok: false,
  status: 400,
  code: "invalid_input",
  message: "categoryIds names a category that does not exist",
  field: "categoryIds",
};
const usesAbove = (uses: number): PromoCodeRefusal => ({
  ok: false,
  status: 409,
  code: "max_uses_below_uses",
  message: `maxUses may not be below the ${uses} uses already counted`,
  field: "maxUses",
});

/**
 * Refuses a code another has (409 code_taken; a code is never changed to make it unique), up
 * front (the unique index still refuses one made meanwhile: the same 409), so that a duplicate is
 * not a database error in the logs.
 */
async function refuseTakenCode(tx: Prisma.TransactionClient, code: string, id?: string): Promise<void> {
  const other = await tx.promoCode.findFirst({ where: { code, ...(id ? { NOT: { id } } : {}) }, select: { id: true } });
  if (other) throw new Rollback(codeTaken);
}

/** A write's error as the admin's refusal, or the error again when it is a fault. */
function refusalOf(error: unknown): PromoCodeRefusal {
  const refused = rolledBack<PromoCodeRefusal>(error);
  if (refused) return refused;
  if (isUniqueViolation(error)) return codeTaken;
  throw error;
}

export interface PromoCodeDeps {
  db: Database;
  /** Who creates or edits the code: recorded with it. */
  actor: Actor;
  /** The input is the page's form: its dates are Luanda's datetime-local values. */
  form?: boolean;
  /** The clock of the answer's `state`. */
  now?: () => Date;
}

const fields = {
  id: true,
  code: true,
  kind: true,
  value: true,
  minSubtotalAoa: true,
  startsAt: true,
  endsAt: true,
  maxUses: true,
  maxUsesPerPhone: true,
  uses: true,
  active: true,
  categories: { select: { category: { select: { id: true, name: true } } } },
} as const;
type Row = Prisma.PromoCodeGetPayload<{ select: typeof fields }>;

function adminPromoCode({ categories, ...row }: Row, now: Date): AdminPromoCode {
  return {
    ...row,
    kind: row.kind as PromoKind,
    remainingUses: row.maxUses === null ? null : Math.max(0, row.maxUses - row.uses),
    state: promoCodeState(row, now),
    categories: categories.map(({ category }) => category).sort((a, b) => a.name.localeCompare(b.name, "pt")),
  };
}

/** The columns of a parsed input, its optional fields absent as null (an edit clears them). */
function columns({ categoryIds: _categories, ...input }: PromoCodeInput) {
  return {
    ...input,
    minSubtotalAoa: input.minSubtotalAoa ?? 0,
    startsAt: input.startsAt ?? null,
    endsAt: input.endsAt ?? null,
    maxUses: input.maxUses ?? null,
    maxUsesPerPhone: input.maxUsesPerPhone ?? null,
  };
}

const parse = (input: unknown, form: boolean) => promoCodeInputSchema(form).safeParse(input);

/**
 * A code's fields as its record in staff_events says them: the code as `promo` (the record keeps
 * no field named like a secret's code), its categories by name.
 */
function recordOf(row: Row): Record<string, unknown> {
  return recordedFields({
    promo: row.code,
    kind: row.kind,
    value: row.value,
    minSubtotalAoa: row.minSubtotalAoa,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    maxUses: row.maxUses,
    maxUsesPerPhone: row.maxUsesPerPhone,
    active: row.active,
    categories: row.categories.map(({ category }) => category.name).sort((a, b) => a.localeCompare(b, "pt")),
  });
}

const promoSubject = (id: string) => `promo_code:${id}`;

/** A new code, with the categories it is limited to. */
export async function createPromoCode(
  input: unknown,
  { db, actor, form = false, now = () => new Date() }: PromoCodeDeps,
): Promise<PromoCodeResult> {
  const parsed = parse(input, form);
  if (!parsed.success) return invalidInput(parsed.error, PROMO_FIELDS);
  const categoryIds = parsed.data.categoryIds ?? [];
  try {
    const row = await db.$transaction(async (tx) => {
      await refuseTakenCode(tx, parsed.data.code);
      if (!(await lockCategories(tx, categoryIds))) throw new Rollback(unknownCategories);
      const created = await tx.promoCode.create({
        data: { ...columns(parsed.data), categories: { create: categoryIds.map((categoryId) => ({ categoryId })) } },
        select: fields,
      });
      await recordStaffEvent(tx, actor, {
        kind: "promo_code.create",
        subject: promoSubject(created.id),
        details: recordOf(created),
      });
      return created;
    });
    return { ok: true, done: "created", promoCode: adminPromoCode(row, now()) };
  } catch (error) {
    return refusalOf(error);
  }
}

/**
 * A code's new fields, all of them, and its categories when named; `maxUses` not below its uses.
 * The categories are replaced only when named, so a code never widens to the whole shop by
 * omission; the page's form always names them (an empty `categoryIds` beside its ticked boxes, so
 * ticking none says "every product", components/admin/product-form.tsx CategoryChoices).
 */
export async function updatePromoCode(
  id: string,
  input: unknown,
  { db, actor, form = false, now = () => new Date() }: PromoCodeDeps,
): Promise<PromoCodeResult> {
  if (!isUuid(id)) return invalidId;
  const parsed = parse(input, form);
  if (!parsed.success) return invalidInput(parsed.error, PROMO_FIELDS);
  // Left out: the categories it has stay (an explicit [] is "every product").
  const { categoryIds } = parsed.data;
  try {
    const row = await db.$transaction(async (tx) => {
      // The checkout counts a use under this lock too: `uses` cannot grow past the check.
      const [current] = await tx.$queryRaw<{ uses: number }[]>(
        Prisma.sql`SELECT uses FROM promo_codes WHERE id = ${id}::uuid FOR UPDATE`,
      );
      if (!current) throw new Rollback(notFound);
      // What it was, for the record of what the edit changed (the lock above holds it).
      const before = await tx.promoCode.findUniqueOrThrow({ where: { id }, select: fields });
      const { maxUses } = parsed.data;
      if (maxUses !== undefined && maxUses < current.uses) throw new Rollback(usesAbove(current.uses));
      await refuseTakenCode(tx, parsed.data.code, id);
      if (categoryIds) {
        if (!(await lockCategories(tx, categoryIds))) throw new Rollback(unknownCategories);
        await tx.promoCodeCategory.deleteMany({ where: { promoCodeId: id } });
      }
      const categories = categoryIds ? { create: categoryIds.map((categoryId) => ({ categoryId })) } : undefined;
      const updated = await tx.promoCode.update({
        where: { id },
        data: { ...columns(parsed.data), ...(categories ? { categories } : {}) },
        select: fields,
      });
      await recordStaffEvent(tx, actor, {
        kind: "promo_code.update",
        subject: promoSubject(id),
        details: { promo: updated.code, changes: changedFields(recordOf(before), recordOf(updated)) },
      });
      return updated;
    });
    return { ok: true, done: "saved", promoCode: adminPromoCode(row, now()) };
  } catch (error) {
    return refusalOf(error);
  }
}

/** Every code, the newest first: the back office's list. */
export async function listPromoCodes(db: Database, now: Date = new Date()): Promise<AdminPromoCode[]> {
  const rows = await db.promoCode.findMany({
    select: fields,
    orderBy: [{ createdAt: "desc" }, { code: "asc" }],
  });
  return rows.map((row) => adminPromoCode(row, now));
}

/** The back office's page of promo codes. */
export const PROMO_PAGE = "/admin/promo-codes";
