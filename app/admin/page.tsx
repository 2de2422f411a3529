import type { Metadata } from "next";
import { AdminNav } from "@/components/admin/admin-nav";
import { adminOverview } from "@/lib/admin/overview";
import { adminState } from "@/lib/admin/guard";
import { SIGN_IN_ERRORS, type SignInError } from "@/lib/admin/sign-in";
import { db } from "@/lib/db/client";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { getLang } from "@/lib/i18n/server";
import { formatAoa } from "@/lib/money";

// The back office's home (lib/admin): the sign-in form without a session, the day's figures with one.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.title, robots: { index: false, follow: false } };
}

type Query = Record<string, string | string[] | undefined>;

export default async function AdminPage({ searchParams }: { searchParams: Promise<Query> }) {
  const [{ t }, state, query] = await Promise.all([getLang(), adminState(), searchParams]);
  if (state === "off") {
    return (
      <section className="mx-auto flex max-w-md flex-col gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t.admin.offTitle}</h1>
        <p>{t.admin.off}</p>
      </section>
    );
  }
  if (state === "signed-out") {
    const error = SIGN_IN_ERRORS.find((code) => code === query.error);
    return <SignInForm t={t} error={error} />;
  }
  const overview = await adminOverview(db());
  const figures = [
    { label: t.admin.paidToday, value: formatAoa(overview.paidTodayAoa), testId: "paid-today" },
    { label: t.admin.paidThisMonth, value: formatAoa(overview.paidThisMonthAoa), testId: "paid-this-month" },
    { label: t.admin.pendingOrders, value: String(overview.pendingOrders), testId: "pending-orders" },
  ];
  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">{t.admin.title}</h1>
        <form method="post" action="/api/admin/session/sign-out">
          <button type="submit" className="rounded-md border border-stone-300 px-4 py-2 text-sm hover:bg-stone-100">
            {t.admin.signOut}
          </button>
        </form>
      </div>
      <AdminNav t={t} current="home" />
      <dl className="grid gap-4 sm:grid-cols-3">
        {figures.map((figure) => (
          <div key={figure.testId} className="rounded-xl border border-stone-200 bg-white px-4 py-3">
            <dt className="text-sm text-stone-600">{figure.label}</dt>
            <dd data-testid={figure.testId} className="text-2xl font-semibold tabular-nums">
              {figure.value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-stone-600">{t.admin.periodNote}</p>
    </section>
  );
}

function SignInForm({ t, error }: { t: Dictionary; error: SignInError | undefined }) {
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t.admin.signInTitle}</h1>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {t.admin.errors[error]}
        </p>
      )}
      <form method="post" action="/api/admin/session" className="flex flex-col gap-3">
        <label htmlFor="admin-password" className="font-medium">
          {t.admin.password}
        </label>
        <input
          id="admin-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={1024}
          className="rounded-md border border-stone-300 px-3 py-2"
        />
        <button type="submit" className="rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-600">
          {t.admin.signIn}
        </button>
      </form>
    </section>
  );
}
