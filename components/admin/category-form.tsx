import { readFlash, type PageQuery } from "@/lib/flash";
import { CATEGORY_DONE, CATEGORY_ERRORS, CATEGORY_FIELDS, type CategoryField } from "@/lib/catalog/categories-admin";
import { CATEGORY_LIMITS, type Category } from "@/lib/catalog/categories";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { Flash } from "./flash";
import { buttonClass, Field, fieldClass } from "./product-form";

/** A category's form in the back office (new, or edit on its page) and the message of its last outcome. */

/** The outcome of the last category form, from its redirect's `?done=`, `?error=` and `?field=`. */
export const categoryFlashOf = (query: PageQuery) =>
  readFlash(query, { done: CATEGORY_DONE, errors: CATEGORY_ERRORS, fields: CATEGORY_FIELDS });

export function CategoryFlash({ t, flash }: { t: Dictionary; flash: ReturnType<typeof categoryFlashOf> }) {
  const text = t.admin.categories;
  const labels: Record<CategoryField, string> = {
    name: text.name,
    slug: text.slug,
    description: text.description,
    parentId: text.parent,
    position: text.position,
  };
  if (flash.error)
    return (
      <Flash kind="error" testId="category-flash">
        {text.errors[flash.error]}
        {flash.field && ` ${text.fieldError(labels[flash.field])}`}
      </Flash>
    );
  if (flash.done)
    return (
      <Flash kind="done" testId="category-flash">
        {text.done[flash.done]}
      </Flash>
    );
  return null;
}

/**
 * The category form of the back office, to create a category (`category` absent) or edit one: it
 * posts to app/api/admin/categories (lib/catalog/categories-admin.ts checks everything again). The parent
 * is chosen among top-level categories only; a category with sub-categories has none to choose.
 */
export function CategoryForm({
  t,
  category,
  parents,
  hasChildren = false,
  invalid,
}: {
  t: Dictionary;
  category?: Category;
  /** The top-level categories it may go under. */
  parents: Category[];
  hasChildren?: boolean;
  invalid?: CategoryField;
}) {
  const text = t.admin.categories;
  const id = (name: string) => `category-${name}`;
  const invalidProps = (field: CategoryField) => (invalid === field ? { "aria-invalid": true } : {});
  return (
    <form
      method="post"
      action={category ? `/api/admin/categories/${category.id}` : "/api/admin/categories"}
      className="flex flex-col gap-4"
    >
      <Field label={text.name} htmlFor={id("name")}>
        <input
          id={id("name")}
          name="name"
          required
          maxLength={CATEGORY_LIMITS.nameMax}
          defaultValue={category?.name}
          className={fieldClass}
          {...invalidProps("name")}
        />
      </Field>
      <Field label={text.slug} htmlFor={id("slug")} hint={text.slugHint}>
        <input
          id={id("slug")}
          name="slug"
          maxLength={CATEGORY_LIMITS.slugMax}
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={category?.slug}
          aria-describedby={`${id("slug")}-hint`}
          className={`${fieldClass} font-mono`}
          {...invalidProps("slug")}
        />
      </Field>
      <Field label={text.description} htmlFor={id("description")}>
        <textarea
          id={id("description")}
          name="description"
          rows={3}
          maxLength={CATEGORY_LIMITS.descriptionMax}
          defaultValue={category?.description}
          className={fieldClass}
          {...invalidProps("description")}
        />
      </Field>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-[1fr_12rem]">
        <Field label={text.parent} htmlFor={id("parent")} hint={hasChildren ? text.parentLocked : text.parentHint}>
          <select
            id={id("parent")}
            name="parentId"
            defaultValue={category?.parentId ?? ""}
            disabled={hasChildren}
            aria-describedby={`${id("parent")}-hint`}
            className={fieldClass}
            {...invalidProps("parentId")}
          >
            <option value="">{text.parentNone}</option>
            {parents.map((parent) => (
              <option key={parent.id} value={parent.id}>
                {parent.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={text.position} htmlFor={id("position")} hint={text.positionHint}>
          <input
            id={id("position")}
            name="position"
            type="number"
            inputMode="numeric"
            min={0}
            max={CATEGORY_LIMITS.positionMax}
            step={1}
            defaultValue={category?.position ?? 0}
            aria-describedby={`${id("position")}-hint`}
            className={fieldClass}
            {...invalidProps("position")}
          />
        </Field>
      </div>
      <div>
        <button type="submit" className={buttonClass}>
          {category ? text.save : text.create}
        </button>
      </div>
    </form>
  );
}
