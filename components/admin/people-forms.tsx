import { readFlash, firstOf, type PageQuery } from "@/lib/flash";
import {
  PEOPLE_DONE,
  PEOPLE_ERRORS,
  PEOPLE_FIELDS,
  PEOPLE_LIMITS,
  type PeopleField,
  type Person,
} from "@/lib/admin/people";
import { SETTINGS_DONE, SETTINGS_ERRORS, SETTINGS_FIELDS } from "@/lib/admin/settings";
import { ROLES, type Role } from "@/lib/admin/roles";
import { MAX_STAFF_PASSWORD_LENGTH, MIN_STAFF_PASSWORD_LENGTH } from "@/lib/admin/staff-auth";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { Flash } from "./flash";
import { buttonClass, Field, fieldClass } from "./product-form";

/**
 * The forms of /admin/people: add a person, each person's role, on/off and password, and the
 * owner's settings; and the message of the last outcome. The field a refusal names is marked
 * invalid and described by that message, in the form it came from (`?person=<id>`, none: the
 * new person's or the settings').
 */

const FLASH_ID = "people-flash";
const secondaryButton = "rounded-md border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100";

/** The outcome of the page's last form: `?done=`, `?error=`, `?field=`, and which person's form (`?person=`). */
export function peopleFlashOf(query: PageQuery) {
  const flash = readFlash(query, {
    done: [...PEOPLE_DONE, ...SETTINGS_DONE],
    errors: [...PEOPLE_ERRORS, ...SETTINGS_ERRORS],
    fields: [...PEOPLE_FIELDS, ...SETTINGS_FIELDS],
  });
  const person = firstOf(query.person);
  return { ...flash, person: person && /^[A-Za-z0-9_-]{1,100}$/.test(person) ? person : undefined };
}
export type PeopleFlash = ReturnType<typeof peopleFlashOf>;

export function PeopleFlashMessage({ t, flash }: { t: Dictionary; flash: PeopleFlash }) {
  const text = t.admin.people;
  const labels: Record<string, string> = {
    name: text.name,
    email: text.email,
    role: text.role,
    password: text.password,
    active: text.status,
    requireTwoFactor: text.requireTwoFactor,
  };
  if (flash.error)
    return (
      <Flash kind="error" testId="people-flash" id={FLASH_ID}>
        {text.errors[flash.error]}
        {flash.field && ` ${text.fieldError(labels[flash.field] ?? flash.field)}`}
      </Flash>
    );
  if (flash.done)
    return (
      <Flash kind="done" testId="people-flash" id={FLASH_ID}>
        {text.done[flash.done]}
      </Flash>
    );
  return null;
}

/** aria-invalid and the page's message as a field's description, when the last refusal was about it. */
function describedWhen(invalid: boolean, hintId?: string) {
  const ids = [hintId, invalid ? FLASH_ID : undefined].filter(Boolean).join(" ");
  return { ...(ids ? { "aria-describedby": ids } : {}), ...(invalid ? { "aria-invalid": true as const } : {}) };
}

function RoleSelect({ t, id, value, invalid }: { t: Dictionary; id: string; value: Role; invalid: boolean }) {
  return (
    <select id={id} name="role" defaultValue={value} className={fieldClass} {...describedWhen(invalid)}>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {t.admin.people.roles[role]}
        </option>
      ))}
    </select>
  );
}

/** The new person's form: name, e-mail, role and, optionally, the password (none: one made up, shown once). */
export function AddPersonForm({ t, flash }: { t: Dictionary; flash: PeopleFlash }) {
  const text = t.admin.people;
  const refused =
    flash.error && !flash.person && (PEOPLE_FIELDS as readonly string[]).includes(flash.field ?? "")
      ? (flash.field as PeopleField)
      : undefined;
  return (
    <form method="post" action="/api/admin/people" className="flex flex-col gap-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field label={text.name} htmlFor="new-person-name">
          <input
            id="new-person-name"
            name="name"
            required
            maxLength={PEOPLE_LIMITS.name}
            autoComplete="off"
            className={fieldClass}
            {...describedWhen(refused === "name")}
          />
        </Field>
        <Field label={text.email} htmlFor="new-person-email">
          <input
            id="new-person-email"
            name="email"
            type="email"
            required
            maxLength={PEOPLE_LIMITS.email}
            autoComplete="off"
            spellCheck={false}
            className={fieldClass}
            {...describedWhen(refused === "email")}
          />
        </Field>
        <Field label={text.role} htmlFor="new-person-role">
          <RoleSelect t={t} id="new-person-role" value="staff" invalid={refused === "role"} />
        </Field>
        <Field label={text.password} htmlFor="new-person-password" hint={text.passwordHint}>
          <input
            id="new-person-password"
            name="password"
            type="password"
            minLength={MIN_STAFF_PASSWORD_LENGTH}
            maxLength={MAX_STAFF_PASSWORD_LENGTH}
            autoComplete="new-password"
            className={fieldClass}
            {...describedWhen(refused === "password", "new-person-password-hint")}
          />
        </Field>
      </div>
      <div>
        <button type="submit" className={buttonClass}>
          {text.add}
        </button>
      </div>
    </form>
  );
}

/** One person's forms: the role, on or off, a new password. */
export function PersonForms({ t, person, flash }: { t: Dictionary; person: Person; flash: PeopleFlash }) {
  const text = t.admin.people;
  const action = `/api/admin/people/${person.id}`;
  const id = (name: string) => `person-${person.id}-${name}`;
  const refused = flash.error && flash.person === person.id ? flash.field : undefined;
  return (
    <div className="flex flex-col gap-4">
      <form method="post" action={action} className="flex flex-wrap items-end gap-2">
        <div className="min-w-40 flex-1">
          <Field label={text.role} htmlFor={id("role")}>
            <RoleSelect t={t} id={id("role")} value={person.role} invalid={refused === "role"} />
          </Field>
        </div>
        <button type="submit" className={secondaryButton}>
          {text.saveRole}
        </button>
      </form>
      <form method="post" action={action} className="flex flex-col gap-1">
        <input type="hidden" name="active" value={person.active ? "false" : "true"} />
        <p id={id("active-hint")} className="text-sm text-stone-600">
          {text.disableHint}
        </p>
        <div>
          <button type="submit" className={secondaryButton} {...describedWhen(refused === "active", id("active-hint"))}>
            {person.active ? text.disable : text.enable}
          </button>
        </div>
      </form>
      <form method="post" action={action} className="flex flex-col gap-2">
        <Field label={text.newPassword} htmlFor={id("password")} hint={text.resetHint}>
          <input
            id={id("password")}
            name="password"
            type="password"
            minLength={MIN_STAFF_PASSWORD_LENGTH}
            maxLength={MAX_STAFF_PASSWORD_LENGTH}
            autoComplete="new-password"
            className={fieldClass}
            {...describedWhen(refused === "password", `${id("password")}-hint`)}
          />
        </Field>
        <div>
          <button type="submit" className={secondaryButton}>
            {text.resetPassword}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The password the shop made up, shown this once (lib/http/admin-reveal.ts). */
export function RevealedPassword({ t, name, password }: { t: Dictionary; name: string; password: string }) {
  const text = t.admin.people;
  return (
    <div
      role="region"
      aria-labelledby="revealed-password-title"
      data-testid="revealed-password"
      className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-4"
    >
      <h2 id="revealed-password-title" className="font-semibold">
        {text.revealTitle}
      </h2>
      <p className="text-sm">{text.revealHint(name)}</p>
      <code className="rounded-md bg-white px-3 py-2 font-mono text-lg break-all select-all">{password}</code>
    </div>
  );
}

/** The owner's settings: two-factor sign-in for everyone. */
export function SettingsForm({
  t,
  requireTwoFactor,
  flash,
}: {
  t: Dictionary;
  requireTwoFactor: boolean;
  flash: PeopleFlash;
}) {
  const text = t.admin.people;
  const refused = flash.error && flash.field === "requireTwoFactor";
  return (
    <form method="post" action="/api/admin/settings" className="flex flex-col gap-3">
      <div className="flex items-start gap-2">
        <input type="hidden" name="requireTwoFactor" value="false" />
        <input
          id="require-two-factor"
          type="checkbox"
          name="requireTwoFactor"
          value="on"
          defaultChecked={requireTwoFactor}
          className="mt-1 size-4 accent-brand-700"
          {...describedWhen(Boolean(refused), "require-two-factor-hint")}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="require-two-factor" className="font-medium">
            {text.requireTwoFactor}
          </label>
          <p id="require-two-factor-hint" className="text-sm text-stone-600">
            {text.requireTwoFactorHint}
          </p>
        </div>
      </div>
      <div>
        <button type="submit" className={buttonClass}>
          {text.saveSettings}
        </button>
      </div>
    </form>
  );
}
