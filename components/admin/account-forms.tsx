import { renderSVG } from "uqr";
import { readFlash, type PageQuery } from "@/lib/flash";
import { ACCOUNT_DONE, ACCOUNT_ERRORS, ACCOUNT_FIELDS, type AccountField } from "@/lib/admin/account";
import { MAX_STAFF_PASSWORD_LENGTH, MIN_STAFF_PASSWORD_LENGTH } from "@/lib/admin/staff-auth";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { Flash } from "./flash";
import { buttonClass, Field, fieldClass } from "./product-form";

/**
 * The forms of /admin/account: a new password, and two-step sign-in (turn on with the password,
 * add the key to the app and confirm its first code, see the backup codes once, turn off). The
 * field a refusal names is marked invalid and described by the page's message.
 */

const FLASH_ID = "account-flash";

export function accountFlashOf(query: PageQuery) {
  return {
    ...readFlash(query, { done: ACCOUNT_DONE, errors: ACCOUNT_ERRORS, fields: ACCOUNT_FIELDS }),
    twoFactorRequired: query.notice === "two_factor_required",
  };
}
export type AccountFlash = ReturnType<typeof accountFlashOf>;

export function AccountFlashMessage({ t, flash }: { t: Dictionary; flash: AccountFlash }) {
  const text = t.admin.account;
  const labels: Record<AccountField, string> = {
    currentPassword: text.currentPassword,
    newPassword: text.newPassword,
    password: text.password,
    code: text.code,
    action: text.twoFactorTitle,
  };
  return (
    <>
      {flash.twoFactorRequired && (
        <p role="status" data-testid="account-notice" className="rounded-md bg-amber-50 px-3 py-2 text-amber-900">
          {text.notice.two_factor_required}
        </p>
      )}
      {flash.error ? (
        <Flash kind="error" testId="account-flash" id={FLASH_ID}>
          {text.errors[flash.error]}
          {flash.field && ` ${text.fieldError(labels[flash.field])}`}
        </Flash>
      ) : (
        flash.done && (
          <Flash kind="done" testId="account-flash" id={FLASH_ID}>
            {text.done[flash.done]}
          </Flash>
        )
      )}
    </>
  );
}

function describedWhen(invalid: boolean, hintId?: string) {
  const ids = [hintId, invalid ? FLASH_ID : undefined].filter(Boolean).join(" ");
  return { ...(ids ? { "aria-describedby": ids } : {}), ...(invalid ? { "aria-invalid": true as const } : {}) };
}

/** The person's e-mail for password managers, which file a new password under it. */
function UsernameHint({ email }: { email: string }) {
  return <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />;
}

export function PasswordForm({ t, email, flash }: { t: Dictionary; email: string; flash: AccountFlash }) {
  const text = t.admin.account;
  const refused = flash.error ? flash.field : undefined;
  return (
    <form method="post" action="/api/admin/account" className="flex flex-col gap-3">
      <UsernameHint email={email} />
      <Field label={text.currentPassword} htmlFor="account-current-password">
        <input
          id="account-current-password"
          name="currentPassword"
          type="password"
          required
          maxLength={MAX_STAFF_PASSWORD_LENGTH}
          autoComplete="current-password"
          className={fieldClass}
          {...describedWhen(refused === "currentPassword")}
        />
      </Field>
      <Field label={text.newPassword} htmlFor="account-new-password" hint={text.newPasswordHint}>
        <input
          id="account-new-password"
          name="newPassword"
          type="password"
          required
          minLength={MIN_STAFF_PASSWORD_LENGTH}
          maxLength={MAX_STAFF_PASSWORD_LENGTH}
          autoComplete="new-password"
          className={fieldClass}
          {...describedWhen(refused === "newPassword", "account-new-password-hint")}
        />
      </Field>
      <div>
        <button type="submit" className={buttonClass}>
          {text.changePassword}
        </button>
      </div>
    </form>
  );
}

/** The password form that turns two-step sign-in on or off. */
export function TwoFactorPasswordForm({
  t,
  action,
  email,
  flash,
}: {
  t: Dictionary;
  action: "enable" | "disable";
  email: string;
  flash: AccountFlash;
}) {
  const text = t.admin.account;
  const refused = flash.field === "password";
  const hintId = `two-factor-${action}-hint`;
  return (
    <form method="post" action="/api/admin/account/two-factor" className="flex flex-col gap-3">
      <input type="hidden" name="action" value={action} />
      <UsernameHint email={email} />
      <Field label={text.password} htmlFor={`two-factor-${action}-password`}>
        <input
          id={`two-factor-${action}-password`}
          name="password"
          type="password"
          required
          maxLength={MAX_STAFF_PASSWORD_LENGTH}
          autoComplete="current-password"
          className={fieldClass}
          {...describedWhen(Boolean(flash.error) && refused, hintId)}
        />
      </Field>
      <p id={hintId} className="text-sm text-stone-600">
        {action === "enable" ? text.enableHint : text.disableHint}
      </p>
      <div>
        <button type="submit" className={buttonClass}>
          {action === "enable" ? text.enable : text.disable}
        </button>
      </div>
    </form>
  );
}

/** The key in groups of four, easier to type into an app: `ABCD EFGH …`. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");

/**
 * The authenticator's key waiting for its first code: as text to type into the app and as the
 * otpauth:// address (a phone opens it in the app) and its QR code (drawn on the server as SVG
 * markup by uqr: paths only, no script, so the page's CSP is untouched), then the code's form.
 */
export function TwoFactorSetup({ t, totpURI, flash }: { t: Dictionary; totpURI: string; flash: AccountFlash }) {
  const text = t.admin.account;
  const secret = new URL(totpURI).searchParams.get("secret") ?? "";
  const refused = flash.error && flash.field === "code";
  return (
    <div
      role="region"
      aria-labelledby="two-factor-setup-title"
      data-testid="two-factor-setup"
      className="flex flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4"
    >
      <h3 id="two-factor-setup-title" className="font-semibold">
        {text.setupTitle}
      </h3>
      <p className="text-sm">{text.setupHint}</p>
      <div
        role="img"
        aria-label={text.qrLabel}
        data-testid="two-factor-qr"
        className="h-48 w-48 bg-white p-2"
        // uqr's SVG of our own otpauth address: rectangles only, nothing a person typed as markup.
        dangerouslySetInnerHTML={{ __html: renderSVG(totpURI) }}
      />
      <dl className="flex flex-col gap-2 text-sm">
        <div>
          <dt className="font-medium">{text.secret}</dt>
          <dd>
            <code data-testid="two-factor-secret" className="font-mono text-base break-all select-all">
              {grouped(secret)}
            </code>
          </dd>
        </div>
        <div>
          <dt className="font-medium">{text.uri}</dt>
          <dd>
            <a href={totpURI} className="font-mono break-all underline">
              {totpURI}
            </a>
          </dd>
        </div>
      </dl>
      <form method="post" action="/api/admin/account/two-factor" className="flex flex-col gap-3">
        <input type="hidden" name="action" value="confirm" />
        <Field label={text.code} htmlFor="two-factor-code">
          <input
            id="two-factor-code"
            name="code"
            required
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            className={`${fieldClass} font-mono sm:max-w-40`}
            {...describedWhen(Boolean(refused))}
          />
        </Field>
        <div>
          <button type="submit" className={buttonClass}>
            {text.confirm}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The backup codes of the authenticator just confirmed, shown this once. */
export function BackupCodes({ t, codes }: { t: Dictionary; codes: string[] }) {
  const text = t.admin.account;
  return (
    <div
      role="region"
      aria-labelledby="backup-codes-title"
      data-testid="backup-codes"
      className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-4"
    >
      <h3 id="backup-codes-title" className="font-semibold">
        {text.backupTitle}
      </h3>
      <p className="text-sm">{text.backupHint}</p>
      <ul className="grid grid-cols-2 gap-1 font-mono">
        {codes.map((code) => (
          <li key={code} className="select-all">
            {code}
          </li>
        ))}
      </ul>
    </div>
  );
}
