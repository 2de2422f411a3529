import type { Metadata } from "next";
import { attentionItems, type Attention, type AttentionGroup } from "@/lib/orders/attention-admin";
import { luandaMinute } from "@/lib/luanda-time";
import { webhookEventPagePath, orderPagePath } from "@/lib/orders/order-flash";
import { currentHome } from "@/lib/dashboard/dashboard-admin";
import { pendingOrderCount } from "@/lib/orders/overview-admin";
import { seesMoney } from "@/lib/admin/roles";
import { parsePeriod } from "@/lib/dashboard/period-query";
import { shownJson } from "@/lib/dashboard/weeks-admin";
import { getEnv } from "@/lib/env";
import { DashboardView } from "@/components/admin/dashboard/dashboard";
import { adminState, requireStaff } from "@/lib/http/admin-guard";
import { safeAdminPath } from "@/lib/http/return-path";
import { SIGN_IN_ERRORS, type SignInError } from "@/lib/http/admin-sign-in";
import { dbPool } from "@/lib/db/client";
import { pgRunner, type TransactionRunner } from "@/lib/db/sql-runner";
import { redirect } from "next/navigation";
import type { Dictionary, Lang } from "@/lib/i18n/dictionaries";
import { getLang } from "@/lib/http/request-lang";
import { formatAoa } from "@/lib/money";
import type { ReactNode } from "react";
import { PAID_AFTER_CANCEL } from "@/lib/orders/state-machine";
import { paidAfterCancelTexts, type PaidAfterCancelTexts } from "@/lib/i18n/paid-after-cancel-texts";
import { decidesPaidAfterCancel, PaidAfterCancelActions } from "@/components/admin/paid-after-cancel-actions";

// The back office's home (lib/admin): the sign-in form without a session; with one, what needs
// attention and the orders waiting for payment, and for a role that sees the money
// (lib/admin/roles.ts, seesMoney) the day's and month's takings and the dashboard for the period
// in the query string.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.title, robots: { index: false, follow: false } };
}

type Query = Record<string, string | string[] | undefined>;

export default async function AdminPage({ searchParams }: { searchParams: Promise<Query> }) {
  const [{ t, lang }, state, query] = await Promise.all([getLang(), adminState(), searchParams]);
  if (state === "off") {
    return (
      <section className="mx-auto flex max-w-md flex-col gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t.admin.offTitle}</h1>
        <p>{t.admin.off}</p>
      </section>
    );
  }
  // The page a form was on when its session ended (lib/http/admin-guard.ts): only a back-office path of this shop.
  const next = safeAdminPath(query.next);
  if (state === "signed-out") {
    const error = SIGN_IN_ERRORS.find((code) => code === query.error);
    const notice = query.expired === "1" ? "expired" : query.signedOut === "everywhere" ? "everywhere" : undefined;
    const step = query.step === "two-factor" ? "two-factor" : "password";
    return <SignInForm t={t} error={error} notice={notice} next={next} step={step} />;
  }
  // Signed in meanwhile (another tab): straight back to that page.
  if (next && next !== "/admin") redirect(next);
  // The home's own guard (the person adminState found, asked once per render): while the owner
  // requires two-factor sign-in, someone without it goes to their account.
  const actor = await requireStaff("/admin");
  // The home is the page the owner opens most: its statements go through pg itself (lib/db/sql-runner.ts).
  const sql = pgRunner(dbPool());
  // The owner decides an order paid after its cancellation on its item: refund it or fulfil it.
  const decide = actor && decidesPaidAfterCancel(actor.role) ? paidAfterCancelTexts(lang).paidAfterCancel : undefined;
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t.admin.title}</h1>
      {actor && seesMoney(actor.role) ? (
        <OwnerHome t={t} lang={lang} query={query} sql={sql} decide={decide} />
      ) : (
        // The money is never read for a role that may not see it: what needs a person, and the orders waiting.
        <StaffHome t={t} sql={sql} decide={decide} />
      )}
    </section>
  );
}

/** The owner's home: the day's and the month's takings, what needs attention, and the dashboard for the period asked. */
async function OwnerHome({
  t,
  lang,
  query,
  sql,
  decide,
}: {
  t: Dictionary;
  lang: Lang;
  query: Query;
  sql: TransactionRunner;
  decide: Decide;
}) {
  // A bad period falls back to the default, with a notice saying what was wrong: never an error page.
  const { period, problem } = parsePeriod(query);
  const [attention, { overview, dashboard }] = await Promise.all([
    attentionItems(sql),
    currentHome(sql, period, { lowStockThreshold: getEnv().catalog.lowStockThreshold }),
  ]);
  const figures = [
    { label: t.admin.paidToday, value: formatAoa(overview.paidTodayAoa), testId: "paid-today" },
    { label: t.admin.paidThisMonth, value: formatAoa(overview.paidThisMonthAoa), testId: "paid-this-month" },
    { label: t.admin.pendingOrders, value: String(overview.pendingOrders), testId: "pending-orders" },
  ];
  return (
    <>
      <Figures figures={figures} />
      <p className="text-sm text-stone-600">{t.admin.periodNote}</p>
      <AttentionSection attention={attention} t={t} decide={decide} />
      <DashboardView json={shownJson(dashboard)} lang={lang} locale={t.locale} problem={problem} />
    </>
  );
}

/** Staff's home: the orders waiting for payment and what needs attention; no takings, no dashboard. */
async function StaffHome({ t, sql, decide }: { t: Dictionary; sql: TransactionRunner; decide: Decide }) {
  const [attention, pending] = await Promise.all([attentionItems(sql), pendingOrderCount(sql)]);
  return (
    <>
      <Figures figures={[{ label: t.admin.pendingOrders, value: String(pending), testId: "pending-orders" }]} />
      <AttentionSection attention={attention} t={t} decide={decide} />
    </>
  );
}

function Figures({ figures }: { figures: { label: string; value: string; testId: string }[] }) {
  return (
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
  );
}

/** The words of the decision on an order paid after its cancellation, for a person who may take it. */
type Decide = PaidAfterCancelTexts["paidAfterCancel"] | undefined;

interface AttentionRow {
  key: string;
  href: string | undefined;
  label: string;
  detail: string;
  at: Date;
  /** What the person may do about it right here. */
  actions?: ReactNode;
}

/** Everything that needs a person (lib/orders/attention-admin.ts), each item linked to its order or delivery. */
function AttentionSection({ attention, t, decide }: { attention: Attention; t: Dictionary; decide: Decide }) {
  const text = t.admin.attention;
  const orderRow = (order: Attention["raisedOrders"]["items"][number]): AttentionRow => ({
    key: order.externalTransactionId,
    href: orderPagePath(order.externalTransactionId),
    label: order.externalTransactionId,
    detail: `${order.reason} · ${formatAoa(order.amountAoa)}`,
    at: order.at,
    actions:
      decide && order.reason === PAID_AFTER_CANCEL ? (
        <PaidAfterCancelActions
          externalTransactionId={order.externalTransactionId}
          amountAoa={order.amountAoa}
          idPrefix={`decide-${order.externalTransactionId}`}
          text={decide}
        />
      ) : undefined,
  });
  const groups = [
    {
      id: "raised-orders",
      title: text.raisedOrders,
      hint: text.raisedOrdersHint,
      ...rows(attention.raisedOrders, orderRow),
    },
    {
      id: "failed-creations",
      title: text.failedCreations,
      hint: text.failedCreationsHint,
      ...rows(attention.failedCreations, orderRow),
    },
    {
      id: "parked-jobs",
      title: text.parkedJobs,
      hint: text.parkedJobsHint,
      ...rows(attention.parkedJobs, (job) => ({
        key: job.id,
        href: job.externalTransactionId ? orderPagePath(job.externalTransactionId) : undefined,
        label: `${job.type} · ${job.externalTransactionId ?? text.noOrder}`,
        detail: job.lastError ?? "",
        at: job.at,
      })),
    },
    {
      id: "unmatched-deliveries",
      title: text.unmatchedDeliveries,
      hint: text.unmatchedDeliveriesHint,
      ...rows(attention.unmatchedDeliveries, (delivery) => ({
        key: delivery.id,
        href: webhookEventPagePath(delivery.id),
        label: `${delivery.paymentStatus ?? "—"} · ${delivery.externalTransactionId ?? text.noOrder}`,
        detail: delivery.outcome,
        at: delivery.at,
      })),
    },
  ].filter((group) => group.total > 0);
  return (
    <section aria-labelledby="attention-title" data-testid="attention" className="flex flex-col gap-4">
      <h2 id="attention-title" className="text-xl font-semibold tracking-tight">
        {text.title}
      </h2>
      {groups.length === 0 && <p className="text-stone-600">{text.nothing}</p>}
      {groups.map((group) => (
        <div
          key={group.id}
          data-testid={`attention-${group.id}`}
          className="rounded-xl border border-amber-300 bg-amber-50 p-4"
        >
          <h3 className="font-semibold">
            {group.title} <span className="tabular-nums">({group.total})</span>
          </h3>
          <p className="text-sm text-stone-700">{group.hint}</p>
          {group.total > group.items.length && (
            <p className="text-sm text-stone-700">{text.shown(group.items.length, group.total)}</p>
          )}
          <ul className="mt-2 flex flex-col gap-2 text-sm">
            {group.items.map((item) => (
              <li key={item.key} data-testid={`attention-item-${item.key}`} className="flex flex-col gap-1">
                {/* Plain links: each of Next's would be a client component to render, and would prefetch its
                    order page on the owner's phone as the list scrolls into view. */}
                {item.href ? (
                  <a href={item.href} className="font-mono break-all underline">
                    {item.label}
                  </a>
                ) : (
                  <span className="font-mono break-all">{item.label}</span>
                )}
                {/* One text: the home lists up to forty of these, and each element is work on every visit. */}
                <span className="break-words text-stone-700 tabular-nums">
                  {item.detail ? `${luandaMinute(item.at)} · ${item.detail}` : luandaMinute(item.at)}
                </span>
                {item.actions}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

function rows<Item>(group: AttentionGroup<Item>, row: (item: Item) => AttentionRow) {
  return { total: group.total, items: group.items.map(row) };
}
function SignInForm({
  t,
  error,
  notice,
  next,
  step,
}: {
  t: Dictionary;
  error: SignInError | undefined;
  /** The password, or the authenticator's code of a sign-in waiting for it. */
  step: "password" | "two-factor";
  /** The session ended under a form, or every session was just ended. */
  notice: "expired" | "everywhere" | undefined;
  /** Where to go once signed in. */
  next: string | undefined;
}) {
  const keepsDraft = next !== undefined && new URLSearchParams(next.split("?")[1] ?? "").has("draft");
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t.admin.signInTitle}</h1>
      {notice && (
        <div
          role="status"
          data-testid="sign-in-notice"
          className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <p>{notice === "expired" ? t.admin.sessionEnded : t.admin.signedOutEverywhere}</p>
          {notice === "expired" && keepsDraft && <p>{t.admin.draft.kept}</p>}
        </div>
      )}
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {t.admin.errors[error]}
        </p>
      )}
      {step === "two-factor" ? (
        <form method="post" action="/api/admin/session/two-factor" className="flex flex-col gap-3">
          {next && <input type="hidden" name="next" value={next} />}
          <h2 className="font-medium">{t.admin.twoFactorTitle}</h2>
          <p id="admin-code-hint" className="text-sm text-stone-600">
            {t.admin.twoFactorHint}
          </p>
          <label htmlFor="admin-code" className="font-medium">
            {t.admin.twoFactorCode}
          </label>
          <input
            id="admin-code"
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            aria-describedby="admin-code-hint"
            required
            maxLength={24}
            autoFocus
            className="rounded-md border border-stone-300 px-3 py-2"
          />
          <button
            type="submit"
            className="rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-600"
          >
            {t.admin.verifyCode}
          </button>
        </form>
      ) : (
        <form method="post" action="/api/admin/session" className="flex flex-col gap-3">
          {next && <input type="hidden" name="next" value={next} />}
          <label htmlFor="admin-email" className="font-medium">
            {t.admin.email}
          </label>
          <input
            id="admin-email"
            name="email"
            type="email"
            autoComplete="username"
            required
            maxLength={320}
            className="rounded-md border border-stone-300 px-3 py-2"
          />
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
          <button
            type="submit"
            className="rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-600"
          >
            {t.admin.signIn}
          </button>
          <p className="text-sm text-stone-600">{t.admin.emailHint}</p>
        </form>
      )}
    </section>
  );
}
