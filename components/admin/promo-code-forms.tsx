import { luandaLocalInput } from "@/lib/luanda-time";
import { readFlash, type PageQuery } from "@/lib/flash";
import {
  PROMO_DONE,
  PROMO_ERRORS,
  PROMO_FIELDS,
  PROMO_LIMITS,
  type AdminPromoCode,
  type PromoField,
} from "@/lib/promotions/promo-codes-admin";
import type { CategoryNode } from "@/lib/catalog/categories";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { PROMO_CODE_MAX, PROMO_KINDS } from "@/lib/promotions/promo-code-rules";
import { isUuid } from "@/lib/uuid";
import { Flash } from "./flash";
import { ActiveBox, buttonClass, CategoryChoices, Field, fieldClass } from "./product-form";

/**
 * The forms of /admin/promo-codes (the new code's, and one per row to edit) and the message of
 * their last outcome, shown beside the form it was about.
 */

/** The id of the page's message, which a refused field's aria-describedby points at. */
const FLASH_ID = "promo-flash";

/**
 * The outcome of the last promo code form, from its redirect's `?done=`, `?error=`, `?field=` and,
 * for a row's form, `?edit=<id>` (no `edit`: the new code's form).
 */
export function promoFlashOf(query: PageQuery) {
  const edit = typeof query.edit === "string" && isUuid(query.edit) ? query.edit.toLowerCase() : undefined;
  return { ...readFlash(query, { done: PROMO_DONE, errors: PROMO_ERRORS, fields: PROMO_FIELDS }), edit };
}
type PromoFlash = ReturnType<typeof promoFlashOf>;

const labelsOf = (t: Dictionary): Record<PromoField, string> => {
  const text = t.admin.promoCodes;
  return {
    code: text.code,
    kind: text.kind,
    value: text.value,
    minSubtotalAoa: text.minSubtotalAoa,
    startsAt: text.startsAt,
    endsAt: text.endsAt,
    maxUses: text.maxUses,
    maxUsesPerPhone: text.maxUsesPerPhone,
    active: text.active,
    categoryIds: text.categories,
  };
};

export function PromoFlash({ t, flash }: { t: Dictionary; flash: PromoFlash }) {
  const text = t.admin.promoCodes;
  if (flash.error)
    return (
      <Flash kind="error" testId="promo-flash" id={FLASH_ID}>
        {text.errors[flash.error]}
        {flash.field && ` ${text.fieldError(labelsOf(t)[flash.field])}`}
      </Flash>
    );
  if (flash.done)
    return (
      <Flash kind="done" testId="promo-flash" id={FLASH_ID}>
        {text.done[flash.done]}
      </Flash>
    );
  return null;
}

/**
 * A promo code's form: a new one (`code` absent), or a row's edit. Posts to
 * app/api/admin/promo-codes; its dates are datetime-local values in Luanda's time. The field the
 * last attempt of this form was refused for is marked invalid and described by the page's message.
 */
export function PromoCodeForm({
  t,
  code,
  categories,
  flash,
}: {
  t: Dictionary;
  code?: AdminPromoCode;
  categories: CategoryNode[];
  flash: PromoFlash;
}) {
  const text = t.admin.promoCodes;
  const prefix = `promo-${code?.id ?? "new"}`;
  const id = (name: string) => `${prefix}-${name}`;
  const refused = flash.error && (code ? flash.edit === code.id : flash.edit === undefined) ? flash.field : undefined;
  /** aria-invalid, and the hint and the page's message as the field's description. */
  const described = (field: PromoField, hint?: string) => {
    const ids = [hint, refused === field ? FLASH_ID : undefined].filter(Boolean).join(" ");
    return {
      ...(ids ? { "aria-describedby": ids } : {}),
      ...(refused === field ? { "aria-invalid": true } : {}),
    };
  };
  const local = (instant: Date | null | undefined) => (instant ? luandaLocalInput(instant) : "");
  return (
    <form
      method="post"
      action={code ? `/api/admin/promo-codes/${code.id}` : "/api/admin/promo-codes"}
      className="flex flex-col gap-4"
    >
      <Field label={text.code} htmlFor={id("code")} hint={text.codeHint}>
        <input
          id={id("code")}
          name="code"
          required
          maxLength={PROMO_CODE_MAX}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          defaultValue={code?.code}
          className={`${fieldClass} uppercase sm:max-w-72`}
          {...described("code", `${id("code")}-hint`)}
        />
      </Field>

      <fieldset className="flex min-w-0 flex-col gap-2" {...described("kind")}>
        <legend className="text-sm font-medium">{text.kind}</legend>
        <div className="flex flex-wrap gap-4">
          {PROMO_KINDS.map((kind) => (
            <label key={kind} className="flex items-center gap-2">
              <input
                type="radio"
                name="kind"
                value={kind}
                required
                defaultChecked={(code?.kind ?? "percent") === kind}
                className="size-4 accent-brand-700"
              />
              {text.kinds[kind]}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field label={text.value} htmlFor={id("value")} hint={text.valueHint}>
          <input
            id={id("value")}
            name="value"
            type="number"
            required
            min={1}
            max={PROMO_LIMITS.fixedMax}
            step={1}
            defaultValue={code?.value}
            className={fieldClass}
            {...described("value", `${id("value")}-hint`)}
          />
        </Field>
        <Field label={text.minSubtotalAoa} htmlFor={id("min")} hint={text.minSubtotalHint}>
          <input
            id={id("min")}
            name="minSubtotalAoa"
            type="number"
            min={0}
            max={PROMO_LIMITS.subtotalMax}
            step={1}
            defaultValue={code?.minSubtotalAoa || ""}
            className={fieldClass}
            {...described("minSubtotalAoa", `${id("min")}-hint`)}
          />
        </Field>
      </div>

      <fieldset className="flex min-w-0 flex-col gap-2" aria-describedby={`${id("period")}-hint`}>
        <legend className="text-sm font-medium">{text.period}</legend>
        <p id={`${id("period")}-hint`} className="text-sm text-stone-600">
          {text.periodHint}
        </p>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <Field label={text.startsAt} htmlFor={id("starts")}>
            <input
              id={id("starts")}
              name="startsAt"
              type="datetime-local"
              defaultValue={local(code?.startsAt)}
              className={fieldClass}
              {...described("startsAt")}
            />
          </Field>
          <Field label={text.endsAt} htmlFor={id("ends")}>
            <input
              id={id("ends")}
              name="endsAt"
              type="datetime-local"
              defaultValue={local(code?.endsAt)}
              className={fieldClass}
              {...described("endsAt")}
            />
          </Field>
        </div>
      </fieldset>

      <fieldset className="flex min-w-0 flex-col gap-2" aria-describedby={`${id("limits")}-hint`}>
        <legend className="text-sm font-medium">{text.limits}</legend>
        <p id={`${id("limits")}-hint`} className="text-sm text-stone-600">
          {text.limitsHint}
        </p>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <Field label={text.maxUses} htmlFor={id("max-uses")}>
            <input
              id={id("max-uses")}
              name="maxUses"
              type="number"
              min={Math.max(1, code?.uses ?? 0)}
              max={PROMO_LIMITS.usesMax}
              step={1}
              defaultValue={code?.maxUses ?? ""}
              className={fieldClass}
              {...described("maxUses")}
            />
          </Field>
          <Field label={text.maxUsesPerPhone} htmlFor={id("per-phone")}>
            <input
              id={id("per-phone")}
              name="maxUsesPerPhone"
              type="number"
              min={1}
              max={PROMO_LIMITS.usesMax}
              step={1}
              defaultValue={code?.maxUsesPerPhone ?? ""}
              className={fieldClass}
              {...described("maxUsesPerPhone")}
            />
          </Field>
        </div>
      </fieldset>

      <CategoryChoices
        idPrefix={prefix}
        legend={text.categories}
        hint={categories.length === 0 ? text.noCategories : text.categoriesHint}
        categories={categories}
        selected={code?.categories.map((category) => category.id) ?? []}
        invalid={refused === "categoryIds"}
        errorId={FLASH_ID}
        testId="promo-categories"
      />

      <ActiveBox id={id("active")} label={text.active} checked={code?.active ?? true} />
      <div>
        <button type="submit" className={buttonClass}>
          {code ? text.save : text.create}
        </button>
      </div>
    </form>
  );
}
