import type { Metadata } from "next";
import {
  AccountFlashMessage,
  accountFlashOf,
  BackupCodes,
  PasswordForm,
  TwoFactorPasswordForm,
  TwoFactorSetup,
} from "@/components/admin/account-forms";
import { RevealOnce } from "@/components/admin/reveal-once";
import { currentStaffSession, requireStaff } from "@/lib/http/admin-guard";
import { pendingTwoFactorSetup, revealedTo } from "@/lib/http/admin-reveal";
import { getLang } from "@/lib/http/request-lang";

// Everyone's own account (lib/admin/account.ts): who they are, a new password, and two-step
// sign-in with an authenticator app. While the owner requires two-step sign-in, this is the one
// page a person without it may open (lib/admin/two-factor-gate.ts), so it has its own sign-out.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.account.title, robots: { index: false, follow: false } };
}

export default async function AdminAccountPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await requireStaff("/admin/account");
  const [{ t }, query, session] = await Promise.all([getLang(), searchParams, currentStaffSession()]);
  const text = t.admin.account;
  const flash = accountFlashOf(query);
  const twoFactorOn = session?.twoFactorEnabled === true;
  const [revealed, setup] = await Promise.all([
    revealedTo(actor.id, query.reveal),
    twoFactorOn ? undefined : pendingTwoFactorSetup(actor.id),
  ]);
  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">{text.title}</h1>
        <form method="post" action="/api/admin/session/sign-out">
          <button type="submit" className="rounded-md border border-stone-300 px-4 py-2 text-sm hover:bg-stone-100">
            {t.admin.signOut}
          </button>
        </form>
      </div>
      <AccountFlashMessage t={t} flash={flash} />
      {query.reveal !== undefined && <RevealOnce />}
      <dl className="grid grid-cols-1 gap-3 rounded-xl border border-stone-200 bg-white p-4 sm:grid-cols-3">
        <div className="min-w-0">
          <dt className="text-sm text-stone-600">{text.name}</dt>
          <dd className="break-words">{actor.name}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-sm text-stone-600">{text.email}</dt>
          <dd data-testid="account-email" className="break-all">
            {actor.email}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600">{text.role}</dt>
          <dd>{t.admin.people.roles[actor.role]}</dd>
        </div>
      </dl>

      <div
        id="two-factor"
        role="region"
        aria-labelledby="two-factor-title"
        className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
      >
        <h2 id="two-factor-title" className="text-lg font-semibold">
          {text.twoFactorTitle}
        </h2>
        <p data-testid="two-factor-state" data-on={twoFactorOn ? "true" : "false"}>
          {twoFactorOn ? text.twoFactorOn : text.twoFactorOff}
        </p>
        {revealed?.kind === "backup_codes" && <BackupCodes t={t} codes={revealed.codes} />}
        {setup && <TwoFactorSetup t={t} totpURI={setup} flash={flash} />}
        {!twoFactorOn && <TwoFactorPasswordForm t={t} action="enable" email={actor.email} flash={flash} />}
        {twoFactorOn &&
          (session?.settings.requireTwoFactor ? (
            <p className="text-sm text-stone-600">{text.requiredByOwner}</p>
          ) : (
            <TwoFactorPasswordForm t={t} action="disable" email={actor.email} flash={flash} />
          ))}
      </div>

      <div
        id="password"
        role="region"
        aria-labelledby="password-title"
        className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
      >
        <h2 id="password-title" className="text-lg font-semibold">
          {text.passwordTitle}
        </h2>
        <PasswordForm t={t} email={actor.email} flash={flash} />
      </div>
    </section>
  );
}
