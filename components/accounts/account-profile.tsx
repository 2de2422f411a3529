import type { ProfileError, PROFILE_FIELDS_SHOWN } from "@/lib/accounts/account-flash";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { NIF_INPUT_MAX } from "@/lib/nif";
import { AccountFlash, AccountSection } from "@/components/accounts/account-section";

type ProfileField = (typeof PROFILE_FIELDS_SHOWN)[number];

/**
 * "Os meus dados" on /account: the name, e-mail and NIF the account keeps for the checkout, a
 * plain form (POST /api/account/profile, the checkout's rules), each optional; an empty field
 * clears it. A refusal comes back naming the field.
 */
export function AccountProfile({
  t,
  profile,
  flash,
}: {
  t: Dictionary;
  profile: { name: string; contactEmail: string | null; nif: string | null };
  flash: { done?: "saved"; error?: ProfileError; field?: ProfileField };
}) {
  const texts = t.account.profile;
  const invalid: Record<ProfileField, string> = {
    name: t.checkout.nameInvalid,
    email: t.checkout.emailInvalid,
    nif: t.checkout.nifInvalid,
  };
  const fieldError = flash.error === "invalid_input" ? flash.field : undefined;
  const field = (
    key: ProfileField,
    label: string,
    value: string,
    props: React.InputHTMLAttributes<HTMLInputElement>,
    hint?: string,
  ) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`profile-${key}`} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={`profile-${key}`}
        name={key}
        defaultValue={value}
        aria-invalid={fieldError === key ? true : undefined}
        aria-describedby={hint || fieldError === key ? `profile-${key}-message` : undefined}
        className="rounded-md border border-stone-300 px-3 py-2 text-base aria-invalid:border-red-600"
        {...props}
      />
      {(hint || fieldError === key) && (
        <p id={`profile-${key}-message`} className="text-sm text-stone-600">
          {fieldError === key ? <span className="text-red-700">{invalid[key]}</span> : hint}
        </p>
      )}
    </div>
  );
  return (
    <AccountSection id="profile" title={texts.title} intro={texts.intro}>
      {flash.done && (
        <AccountFlash kind="done" testId="profile-saved">
          {texts.saved}
        </AccountFlash>
      )}
      {flash.error && (
        <AccountFlash kind="error" testId="profile-error">
          {texts.errors[flash.error]}
        </AccountFlash>
      )}
      <form
        method="post"
        action="/api/account/profile"
        className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
      >
        {field("name", t.checkout.name, profile.name, { autoComplete: "name", maxLength: 100 })}
        {field(
          "email",
          t.checkout.email,
          profile.contactEmail ?? "",
          { type: "email", autoComplete: "email", maxLength: 254 },
          t.checkout.emailHint,
        )}
        {field(
          "nif",
          t.checkout.nif,
          profile.nif ?? "",
          { autoComplete: "off", autoCapitalize: "characters", spellCheck: false, maxLength: NIF_INPUT_MAX },
          t.checkout.nifHint,
        )}
        <button
          type="submit"
          className="self-start rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600"
        >
          {texts.save}
        </button>
      </form>
    </AccountSection>
  );
}
